#if canImport(Glibc)
import Glibc
#endif

/// Starts a detached POSIX thread for a blocking reader (the gpsd and NMEA
/// sources). A thread of its own (not a Dispatch or Swift-concurrency
/// worker) because it blocks in poll(2), read(2) and connect(2) for as long
/// as it likes without starving anyone.
enum ReaderThread {
    private final class Box {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new detached thread; `name` says what it is in errors.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        pthread_detach(try startJoinable(name: name, body))
    }

    /// Runs `body` on a new thread the caller joins (a server loop, stopped
    /// and waited for); `name` says what it is in errors.
    static func startJoinable(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) -> pthread_t {
        let box = Unmanaged.passRetained(Box(name: name, body: body))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
                box.body()
                return nil
            }, box.toOpaque())
        guard status == 0 else {
            box.release()
            throw SystemError("pthread_create \(name)", errno: status)
        }
        return thread
    }
}
