import Synchronization
import Testing
@testable import LocationDaemon

/// Diagnostic lines are built only when their level is written, through a
/// subsystem as through `Diagnostics` itself (the default threshold is info).
@Suite(.timeLimit(.minutes(10))) struct DiagnosticsTests {
    final class Counter: Sendable {
        let built = Atomic<Int>(0)
        func message() -> String {
            built.add(1, ordering: .relaxed)
            return "built"
        }
    }

    @Test func aDebugLineBelowTheThresholdIsNeverBuilt() {
        #expect(Diagnostics.level == .info)
        let counter = Counter()
        Diagnostics.gpsd.debug(counter.message())
        Diagnostics.debug(counter.message())
        Diagnostics.gpsd.log(.debug, counter.message())
        #expect(counter.built.load(ordering: .relaxed) == 0)
    }
}
