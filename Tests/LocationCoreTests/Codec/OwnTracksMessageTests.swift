import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

@Suite struct OwnTracksMessageTests {
    @Test func aFullRecordHasEveryField() throws {
        let record = LogRecord(
            time: 1_773_480_600.999, latitude: 35.681199, longitude: 139.7670668, altitude: 34.5, horizontalError: 2.2,
            verticalError: 4.2, speed: 1.185, course: 359.7, mode: .threeD, satellites: 9, accuracy: .full, client: "fleet")
        let text = String(decoding: OwnTracksMessage.location(record, trackerID: "b1", createdAt: 1_773_480_601.5), as: UTF8.self)
        #expect(text == #"{"_type":"location","lat":35.6811990,"lon":139.7670668,"tst":1773480600,"acc":2,"alt":35,"vac":4,"vel":4,"cog":0,"tid":"b1","t":"t","created_at":1773480601}"#)
        let value = try JSONValue.parse(text)
        #expect(value["_type"]?.stringValue == "location")
    }

    @Test func aReducedRecordSaysOnlyWhatItsLogHolds() throws {
        // What a reduced client's log holds: a snapped position, the grid as its error, no alt/vAcc/speed/course.
        let line = #"{"time":"2026-03-14T09:30:00.000Z","lat":35.6900000,"lon":139.7600000,"hAcc":2000.0,"mode":3,"sats":9,"accuracy":"reduced","client":"fleet"}"#
        let record = try LogRecord.parse(line)
        let value = try JSONValue.parse(OwnTracksMessage.location(record, trackerID: "fl", createdAt: 0))
        #expect(value["lat"]?.numberValue == 35.69)
        #expect(value["lon"]?.numberValue == 139.76)
        #expect(value["acc"]?.intValue == 2000)
        for absent in ["alt", "vac", "vel", "cog"] { #expect(value[absent] == nil, "\(absent)") }
        #expect(value["tst"]?.intValue == 1_773_480_600)
    }

    @Test func theLastWillIsAnLWT() {
        #expect(String(decoding: OwnTracksMessage.lastWill(connectedAt: 12.7), as: UTF8.self) == #"{"_type":"lwt","tst":12}"#)
    }
}
