#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import CSupport

/// The one way the daemon starts a thread of its own (a POSIX thread, not a
/// Dispatch or Swift-concurrency worker): the fix sources' readers, the
/// control server's poll loop and the core executor. Each blocks in poll(2),
/// read(2), connect(2), write(2) or fdatasync(2) for as long as it likes
/// without starving anyone. The name shows in `top -H`, `perf` and `gdb`.
enum DaemonThread {
    /// A started thread that can be waited for (`join()`).
    struct Handle: Sendable {
        fileprivate let thread: pthread_t

        /// Whether the caller is this thread.
        var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

        /// Waits for the thread's body to return. Once only, and never from the thread itself.
        func join() {
            pthread_join(thread, nil)
        }
    }

    private final class Box {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new thread named `name` (at most 15 bytes show). A
    /// detached thread cleans up after itself; a joinable one must be joined.
    @discardableResult
    static func start(name: String, detached: Bool = true, _ body: @escaping @Sendable () -> Void) throws(SystemError)
        -> Handle
    {
        let box = Unmanaged.passRetained(Box(name: name, body: body))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
                _ = csupport_name_thread(box.name)
                box.body()
                return nil
            }, box.toOpaque())
        guard status == 0 else {
            box.release()
            throw SystemError("pthread_create \(name)", errno: status)
        }
        if detached { pthread_detach(thread) }
        return Handle(thread: thread)
    }
}
