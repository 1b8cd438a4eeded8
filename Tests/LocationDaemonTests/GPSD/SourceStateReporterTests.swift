import LocationCore
import LocationDaemon
import Testing

@testable import LocationDaemon

@Suite(.timeLimit(.minutes(10))) struct SourceStateReporterTests {
    @Test func reportsEachChangeOnce() {
        var reporter = SourceStateReporter()
        #expect(reporter.report(.connecting, "a") == .state(.connecting, detail: "a"))
        #expect(reporter.report(.connecting, "a") == nil)
        #expect(reporter.report(.connecting, "b") == .state(.connecting, detail: "b"))
        #expect(reporter.report(.connected, "b") == .state(.connected, detail: "b"))
        #expect(reporter.report(.connected, "b") == nil)
        #expect(reporter.state == .connected)
    }
}
