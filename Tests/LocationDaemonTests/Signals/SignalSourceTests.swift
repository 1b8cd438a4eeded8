#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

/// Real signals sent to this test process (SIGHUP only, one test at a time)
/// and to child processes (SIGTERM, SIGINT, SIGPIPE, SIGXFSZ).
@Suite(.timeLimit(.minutes(10)), .serialized) struct SignalSourceTests {
    /// The handler currently installed for `signo`, as an address (SIG_DFL is 0, SIG_IGN is 1).
    private static func disposition(_ signo: Int32) -> Int {
        var action = sigaction()
        sigaction(signo, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    }

    @Test func hangupSentToTheProcessArrivesOnTheStream() async throws {
        // A stray SIGHUP after the test must not end the test run.
        signal(SIGHUP, SIG_IGN)
        let source = try SignalSource([.hangup])
        defer { source.cancel() }
        for _ in 0..<3 {
            #expect(kill(getpid(), SIGHUP) == 0)
            #expect(await firstElement(of: source.signals) == .hangup)
        }
    }

    @Test func cancelGivesBackThePreviousDispositionAndFinishesTheStream() async throws {
        signal(SIGHUP, SIG_IGN)
        let source = try SignalSource([.hangup])
        #expect(Self.disposition(SIGHUP) > 1, "a handler is installed")
        source.cancel()
        #expect(Self.disposition(SIGHUP) == 1, "SIG_IGN is back")
        #expect(await firstElement(of: source.signals) == nil)
        // Once cancelled, the signal is free for another source.
        let again = try SignalSource([.hangup])
        again.cancel()
    }

    @Test func aSignalCanHaveOnlyOneSource() throws {
        signal(SIGHUP, SIG_IGN)
        let first = try SignalSource([.hangup])
        defer { first.cancel() }
        let error = try #require(throws: SystemError.self) { try SignalSource([.hangup]) }
        #expect(error.errno == EBUSY)
    }

    @Test(arguments: [Signal.terminate, .interrupt])
    func stopSignalsArriveInsteadOfKillingTheProcess(_ signal: Signal) async {
        // Sent to a child process: SIGTERM to the test runner would end every test.
        await #expect(processExitsWith: .success) { [number = signal.number as Int32] in
            let source = try SignalSource()
            #expect(kill(getpid(), number) == 0)
            let received = await firstElement(of: source.signals)
            #expect(received?.number == number)
            source.cancel()
        }
    }

    @Test func withoutASourceSigtermStillKills() async {
        // The counterpart of the test above: it is the source that keeps the process alive.
        await #expect(processExitsWith: .signal(SIGTERM)) {
            signal(SIGTERM, SIG_DFL)
            kill(getpid(), SIGTERM)
            // Waits for the signal to arrive (it ends the process); SIGALRM a minute on is the bound,
            // and ends it with the wrong signal.
            alarm(60)
            while true { pause() }
        }
    }

    @Test func sigpipeIsIgnoredSoAWriteToAClosedPipeFailsWithEPIPE() async {
        await #expect(processExitsWith: .success) {
            signal(SIGPIPE, SIG_DFL)
            SignalSource.ignoreBenignSignals()
            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            close(fds[0])
            let n = write(fds[1], "x", 1)
            #expect(n == -1 && errno == EPIPE)
        }
        await #expect(processExitsWith: .signal(SIGPIPE)) {
            signal(SIGPIPE, SIG_DFL)
            var fds: [Int32] = [-1, -1]
            _ = pipe(&fds)
            close(fds[0])
            _ = write(fds[1], "x", 1)
        }
    }

    @Test func sigxfszIsIgnoredSoAFileSizeLimitGivesEFBIG() async throws {
        let dir = try ScratchDirectory()
        await #expect(processExitsWith: .success) { [path = dir.file("big") as String] in
            signal(SIGXFSZ, SIG_DFL)
            unblockOnThisThread(SIGXFSZ)
            SignalSource.ignoreBenignSignals()
            var limit = rlimit(rlim_cur: 10, rlim_max: rlim_t.max)
            try #require(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0)
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            try #require(fd >= 0)
            #expect(write(fd, "0123456789", 10) == 10)
            #expect(write(fd, "x", 1) == -1 && errno == EFBIG)
        }
        await #expect(processExitsWith: .signal(SIGXFSZ)) { [path = dir.file("big2") as String] in
            signal(SIGXFSZ, SIG_DFL)
            unblockOnThisThread(SIGXFSZ)
            var limit = rlimit(rlim_cur: 10, rlim_max: rlim_t.max)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            _ = write(fd, "01234567890", 11)
            _ = write(fd, "x", 1)
        }
    }
}

/// Dispatch's worker threads block most asynchronous signals (SIGXFSZ among
/// them); a test of a signal's default action unblocks it on its own thread.
private func unblockOnThisThread(_ signo: Int32) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signo)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
}
