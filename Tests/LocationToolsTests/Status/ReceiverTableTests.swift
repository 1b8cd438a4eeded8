import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationTools

/// The receivers table of `locationctl status` (#29 item 4, #31 item 4): each receiver's
/// time to first fix in its own column, and the source that brought them named once.
@Suite struct ReceiverTableTests {
    static func receiver(_ device: String, ttff: Double?, source: String? = "gpsd 127.0.0.1:2947") -> ReceiverStatus {
        ReceiverStatus(
            device: device, state: .standby, quality: ReceiverQuality(mode: .threeD, horizontalError: 2.1), lastFixAge: 0.4,
            fixes: 40, clients: [], timeToFirstFix: ttff, source: source)
    }

    static func table(_ receivers: [ReceiverStatus]) -> [String] {
        var status = Samples.status
        status.receivers = receivers
        return StatusRenderer.receiverLines(status)
    }

    @Test(arguments: [(31.24, "31.2 s"), (0, "0.0 s"), (89.9, "89.9 s"), (150, "2 min"), (nil, "-")] as [(Double?, String)])
    func theTTFFColumnShowsTenthsBelow90SecondsAndADashWhileSearching(ttff: Double?, shown: String) throws {
        let lines = Self.table([Self.receiver("/dev/ttyACM0", ttff: ttff), Self.receiver("/dev/ttyUSB0", ttff: 2)])
        #expect(lines[0] == "receivers (from gpsd 127.0.0.1:2947):")
        let header = lines[1].split(separator: " ").map(String.init)
        let row = lines[2].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(header == ["DEVICE", "STATE", "FIX", "hACC", "LAST", "TTFF", "FIXES", "CLIENTS"])
        // Cells: device, state, fix, "±2.1" "m", "0" "s", then TTFF's one or two words.
        let cell = row.dropFirst(7).prefix(shown.split(separator: " ").count).joined(separator: " ")
        #expect(cell == shown, "\(lines[2])")
    }

    @Test func receiversOfDifferentOrUnknownSourcesNameNoneInTheHeading() {
        #expect(Self.table([Self.receiver("a", ttff: 1), Self.receiver("b", ttff: 1, source: "nmea /dev/ttyS0")])[0] == "receivers:")
        #expect(Self.table([Self.receiver("a", ttff: 1, source: nil), Self.receiver("b", ttff: 1, source: nil)])[0] == "receivers:")
    }
}
