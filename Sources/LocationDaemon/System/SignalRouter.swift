#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import CSupport
import Synchronization

/// The process-wide half of `SignalSource`: one pipe, written by the C
/// signal handler (async-signal-safe), read on the core thread
/// (`CoreExecutor.addReader`; the router starts that thread if nothing has),
/// and routed to whichever source registered the signal. The pipe is never closed, so a
/// handler running on another thread can never write to a reused descriptor.
final class SignalRouter: Sendable {
    static let shared = SignalRouter()

    private struct Pipe {
        var readFD: Int32
        var writeFD: Int32
    }

    private let routes = Mutex<[Int32: AsyncStream<Signal>.Continuation]>([:])
    private let pipe = Mutex<Pipe?>(nil)

    /// Starts forwarding `signal` to `continuation`.
    func register(_ signal: Signal, _ continuation: AsyncStream<Signal>.Continuation) throws(SystemError) {
        let writeFD = try pipeWriteEnd()
        try routes.withLock { routes throws(SystemError) in
            guard routes[signal.number] == nil else {
                throw SystemError("handle \(signal): another SignalSource already does", errno: EBUSY)
            }
            routes[signal.number] = continuation
        }
        do {
            try retryingEINTR("sigaction \(signal)") { csupport_signal_forward(signal.number, writeFD) }
        } catch {
            _ = routes.withLock { $0.removeValue(forKey: signal.number) }
            throw error
        }
    }

    /// Gives `signal` back its previous disposition.
    func unregister(_ signal: Signal) {
        _ = csupport_signal_restore(signal.number)
        _ = routes.withLock { $0.removeValue(forKey: signal.number) }
    }

    private func pipeWriteEnd() throws(SystemError) -> Int32 {
        try pipe.withLock { current throws(SystemError) -> Int32 in
            if let current { return current.writeFD }
            try CoreExecutor.shared.start()
            let (readFD, writeFD) = try DescriptorIO.makePipe("signals")
            CoreExecutor.shared.addReader(readFD) { [weak self] in self?.drain(readFD) }
            current = Pipe(readFD: readFD, writeFD: writeFD)
            return writeFD
        }
    }

    private func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            for byte in buffer[0..<n] {
                guard let signal = Signal(number: Int32(byte)) else { continue }
                let continuation = routes.withLock { $0[signal.number] }
                continuation?.yield(signal)
            }
        }
    }
}
