#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread of its own, for work that blocks in a system call
/// (waitpid, recv, accept). Swift concurrency's cooperative pool has one
/// thread per core, two on a small CI machine: a blocking call there stalls
/// every other test's tasks.
public enum DedicatedThread {
    /// Carries the body through `pthread_create`'s untyped argument.
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread. If the system has no thread to
    /// give, `body` runs on the caller's thread: late is better than never.
    public static func run(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { raw in
                if let raw { Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body() }
                return nil
            }, work.toOpaque())
        if created != 0 { work.takeRetainedValue().body() }
    }
}

/// Runs a blocking `body` on a dedicated thread and waits for its result
/// without holding a thread of the cooperative pool. For the few places where
/// a blocking system call is the honest tool.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        DedicatedThread.run { continuation.resume(returning: body()) }
    }
}
