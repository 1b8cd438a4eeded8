#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import Synchronization

/// SIGTERM, SIGINT and SIGHUP as an async sequence (the daemon's shutdown
/// and reload triggers). The signal handler only writes a byte to a pipe;
/// the signals arrive on `signals` in order, a repeated signal that arrives
/// before the first was read may be merged with it (as the kernel does).
///
/// Only one source may handle a given signal at a time; `cancel()` (or
/// deinit) gives the signals back their previous disposition.
public final class SignalSource: Sendable {
    /// The signals, as they arrive.
    public let signals: AsyncStream<Signal>
    /// The signals this source handles.
    public let handled: Set<Signal>

    private let continuation: AsyncStream<Signal>.Continuation
    private let active = Mutex(true)

    /// Sets SIGPIPE and SIGXFSZ to be ignored: a peer that goes away gives
    /// `EPIPE` and a file-size limit gives `EFBIG`, as errors to handle,
    /// instead of killing the daemon.
    public static func ignoreBenignSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Starts handling `signals`. Throws if one is already handled by another source.
    public init(_ signals: Set<Signal> = [.terminate, .interrupt, .hangup]) throws(SystemError) {
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(16))
        self.signals = stream
        self.continuation = continuation
        self.handled = signals
        var registered: [Signal] = []
        for signal in Signal.allCases where signals.contains(signal) {
            do {
                try SignalRouter.shared.register(signal, continuation)
                registered.append(signal)
            } catch {
                for done in registered { SignalRouter.shared.unregister(done) }
                continuation.finish()
                throw error
            }
        }
    }

    deinit {
        cancel()
    }

    /// Gives the signals back their previous disposition and finishes `signals`.
    public func cancel() {
        let wasActive = active.withLock { active in
            defer { active = false }
            return active
        }
        guard wasActive else { return }
        for signal in handled { SignalRouter.shared.unregister(signal) }
        continuation.finish()
    }
}
