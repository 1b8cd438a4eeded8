@testable import LocationCodecs
@testable import LocationCore
@testable import LocationValues
import Testing

/// The assemblers of several receivers side by side: the reader's deadline is the
/// earliest of them, and expiry delivers the epochs that are due and no other.
@Suite struct GPSDReceiverAssemblersTests {
    static func tpv(_ second: Int64, device: String?) -> GPSDFixReport {
        GPSDFixReport(
            time: GPSDFixReport.Time(seconds: 1_773_489_780 + second, nanoseconds: 0), mode: .threeD, latitude: 48.1,
            longitude: 11.5, eph: 5, device: device)
    }

    @Test func theDeadlineIsTheEarliestPendingEpochsAndExpiryDeliversOnlyThoseDue() {
        var assemblers = GPSDReceiverAssemblers(tuning: .init(quietInterval: 1.0, earlyDelivery: false))
        var fixes: [Fix] = []
        #expect(assemblers.deadline == nil, "no receiver yet")
        assemblers.add(Self.tpv(0, device: "/dev/a"), at: 10.5) { fixes.append($0) }
        assemblers.add(Self.tpv(0, device: "/dev/b"), at: 10.2) { fixes.append($0) }
        assemblers.add(Self.tpv(0, device: nil), at: 10.8) { fixes.append($0) }
        #expect(assemblers.receivers == ["/dev/a", "/dev/b", ""])
        #expect(assemblers.deadline == 11.2, "/dev/b's, though it came second")

        assemblers.expire(at: 11.3) { fixes.append($0) }
        #expect(fixes.map(\.device) == ["/dev/b"])
        #expect(assemblers.deadline == 11.5)

        assemblers.expire(at: 11.9) { fixes.append($0) }
        #expect(fixes.map(\.device) == ["/dev/b", "/dev/a", nil])
        #expect(assemblers.deadline == nil, "nothing pending")
        assemblers.expire(at: 20) { fixes.append($0) }
        #expect(fixes.count == 3)
        #expect(assemblers.counters.epochs == 3 && assemblers.counters.reports == 3)
    }
}
