import Testing
@testable import LocationCodecs
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// The gpsd-protocol subset served to programs, and the NMEA written for them.
@Suite struct GPSDProtocolTests {
    let record = LogRecord(
        time: 1_773_480_601.25, latitude: 35.681199, longitude: -139.7670668, altitude: 34.5, horizontalError: 2.2,
        verticalError: 4.2, speed: 1.185, course: 157.6, mode: .threeD, satellites: 9, client: "qgis")

    @Test(arguments: [
        ("?WATCH={\"enable\":true,\"json\":true}", GPSDCommand.watch(GPSDWatch(enable: true, json: true))),
        ("  ?WATCH={\"enable\":false}\r", .watch(GPSDWatch(enable: false, json: false))),
        ("?WATCH={\"class\":\"WATCH\",\"raw\":1,\"device\":\"/dev/x\"}", .watch(GPSDWatch())),
        ("?WATCH", .watch(nil)),
        ("?POLL", .poll),
        ("?VERSION", .version),
        ("?DEVICES", .devices),
        ("?DEVICE={\"path\":\"/dev/ttyS0\",\"bps\":4800}", .device),
        ("?SUBFRAME", .unknown("Unrecognized request '?SUBFRAME'")),
        ("hello", .unknown("Unrecognized request 'hello'")),
        ("?WATCH={\"enable\":1}", .unknown("Invalid WATCH: \"enable\" must be true or false")),
    ])
    func requestsAreReadAsGpsdReadsThem(text: String, command: GPSDCommand) {
        #expect(GPSDCommand.parse(Array(text.utf8)) == command)
    }

    @Test func blankRequestsAreSkippedAndBadJSONIsAnError() {
        #expect(GPSDCommand.parse(Array("  \r\n".utf8)) == nil)
        guard case .unknown(let message) = GPSDCommand.parse(Array("?WATCH={enable".utf8)) else {
            Issue.record("a torn WATCH object is an error")
            return
        }
        #expect(message.hasPrefix("Invalid WATCH:"))
    }

    @Test func objectsAreOneJSONLineEndingInCRLFAsGpsdWritesThem() throws {
        for bytes in [
            GPSDReply.version(release: "3.22"), GPSDReply.devices(client: "qgis", activated: 1_773_480_000), GPSDReply.watch(GPSDWatch()),
            GPSDReply.error("no \"fix\""), GPSDReply.tpv(record), GPSDReply.poll(client: "qgis", last: record, sky: nil, time: 1_773_480_700),
        ] {
            #expect(bytes.suffix(2) == [0x0D, 0x0A])
            #expect(!bytes.dropLast(2).contains(0x0A))
            _ = try JSONValue.parse(bytes.dropLast(2))
        }
        let version = try JSONValue.parse(GPSDReply.version(release: "3.25").dropLast(2))
        #expect(version["class"] == "VERSION" && version["proto_major"]?.intValue == 3 && version["proto_minor"]?.intValue == 14)
        #expect(version["release"] == "3.25" && version["rev"] == "3.25")
        let poll = try JSONValue.parse(GPSDReply.poll(client: "qgis", last: nil, sky: nil, time: 0).dropLast(2))
        #expect(poll["tpv"]?.arrayValue?.isEmpty == true && poll["sky"]?.arrayValue?.isEmpty == true)
    }

    @Test func aTPVCarriesWhatTheLogHoldsAtItsPrecision() throws {
        let tpv = try JSONValue.parse(GPSDReply.tpv(record).dropLast(2))
        #expect(tpv["class"] == "TPV" && tpv["device"] == "locationd:qgis" && tpv["mode"]?.intValue == 3)
        #expect(tpv["time"] == "2026-03-14T09:30:01.250Z")
        #expect(tpv["lat"]?.numberValue == 35.681199 && tpv["lon"]?.numberValue == -139.7670668)
        #expect(tpv["alt"]?.numberValue == 34.5 && tpv["altMSL"]?.numberValue == 34.5)
        #expect(tpv["eph"]?.numberValue == 2.2 && tpv["epv"]?.numberValue == 4.2)
        #expect(tpv["speed"]?.numberValue == 1.185 && tpv["track"]?.numberValue == 157.6)
    }

    @Test(arguments: [("/dev/ttyACM0", "/dev/ttyACM0"), ("", "locationd:qgis"), (nil, "locationd:qgis")] as [(String?, String)])
    func aTPVNamesItsReceiverAsGpsdDoesAndAnUnnamedOneAsTheClient(device: String?, named: String) throws {
        var record = record
        record.device = device
        #expect(try JSONValue.parse(GPSDReply.tpv(record).dropLast(2))["device"]?.stringValue == named)
        let poll = try JSONValue.parse(GPSDReply.poll(client: "qgis", last: record, sky: nil, time: 1_773_480_700).dropLast(2))
        #expect(poll["tpv"]?.arrayValue?.first?["device"]?.stringValue == named)
    }

    @Test func devicesListsTheReceiversServedSoFarAndTheClientBeforeAny() throws {
        let none = try JSONValue.parse(GPSDReply.devices(client: "qgis", activated: 1_773_480_000).dropLast(2))
        #expect(none["devices"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["locationd:qgis"])
        let two = [GPSDReply.Device(path: "/dev/pts/3", activated: 1_773_480_001), GPSDReply.Device(path: "/dev/pts/4", activated: 1_773_480_009)]
        let listed = try JSONValue.parse(GPSDReply.devices(client: "qgis", receivers: two, activated: 1_773_480_000).dropLast(2))
        let devices = try #require(listed["devices"]?.arrayValue)
        #expect(devices.compactMap { $0["path"]?.stringValue } == ["/dev/pts/3", "/dev/pts/4"])
        #expect(devices.compactMap { $0["activated"]?.stringValue } == ["2026-03-14T09:20:01.000Z", "2026-03-14T09:20:09.000Z"])
        #expect(devices.allSatisfy { $0["class"] == "DEVICE" })
        let notice = GPSDReply.device(two[1])
        #expect(notice.suffix(2) == [0x0D, 0x0A] && !notice.dropLast(2).contains(0x0A))
        let parsed = try JSONValue.parse(notice.dropLast(2))
        #expect(parsed["class"] == "DEVICE" && parsed["path"] == "/dev/pts/4")
    }

    @Test func aReducedTPVHasOnlyWhatTheReducedDeliveryHas() throws {
        let reduced = LogRecord(
            time: 1_773_480_601, latitude: 35.69, longitude: 139.77, horizontalError: 2000, mode: .threeD, accuracy: .reduced,
            client: "weather")
        let tpv = try JSONValue.parse(GPSDReply.tpv(reduced).dropLast(2))
        let keys = (tpv.objectValue ?? []).map(\.0)
        #expect(keys == ["class", "device", "mode", "time", "lat", "lon", "eph"])
        #expect(tpv["eph"]?.numberValue == 2000)
        // The receiver's path is no coordinate: a reduced TPV names it too.
        var named = reduced
        named.device = "/dev/ttyUSB0"
        #expect(try JSONValue.parse(GPSDReply.tpv(named).dropLast(2))["device"] == "/dev/ttyUSB0")
    }

    @Test func nmeaSentencesHaveValidChecksumsAndParseBackToTheRecord() throws {
        let bytes = NMEAEncoder.sentences(record)
        let sentences = bytes.split(separator: 0x0A).map { Array($0) }
        #expect(sentences.count == 3)
        for sentence in sentences {
            #expect(sentence.first == UInt8(ascii: "$") && sentence.last == 0x0D)
            let star = try #require(sentence.lastIndex(of: UInt8(ascii: "*")))
            var sum: UInt8 = 0
            for byte in sentence[1..<star] { sum ^= byte }
            let hex = String(decoding: sentence[(star + 1)..<(star + 3)], as: UTF8.self)
            #expect(UInt8(hex, radix: 16) == sum)
        }
        var parser = NMEAParser()
        var fixes: [Fix] = []
        bytes.withUnsafeBytes { parser.feed($0) { fixes.append($0) } }
        parser.finish { fixes.append($0) }
        let fix = try #require(fixes.last)
        #expect(fix.time == record.time && fix.mode == .threeD)
        #expect(abs(fix.latitude - record.latitude) < 1e-7 && abs(fix.longitude - record.longitude) < 1e-7)
        #expect(abs((fix.altitude ?? 0) - 34.5) < 1e-9)
        #expect(abs((fix.speed ?? 0) - 1.185) < 1e-3 && abs((fix.course ?? 0) - 157.6) < 1e-9)
        #expect(fix.satellitesUsed == 9)
    }

    @Test func minutesThatRoundToSixtyCarryIntoTheDegrees() {
        let edge = LogRecord(time: 0, latitude: 9.99999999999, longitude: 0, mode: .twoD, client: "c")
        let text = String(decoding: NMEAEncoder.sentences(edge), as: UTF8.self)
        #expect(text.hasPrefix("$GPRMC,000000.000,A,1000.000000,N,00000.000000,E,,,010170,,,A*"))
        #expect(text.contains("$GPGGA,000000.000,1000.000000,N,00000.000000,E,1,03,,,,,,,*"))
    }
}
