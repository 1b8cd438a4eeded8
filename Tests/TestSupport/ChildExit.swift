/// How a child process ended, as its reaper saw it.
public struct ChildExit: Sendable, Hashable {
    /// The exit code, when it exited.
    public var code: Int32?
    /// The signal that ended it, when one did.
    public var signal: Int32?
    /// Monotonic seconds at which it was seen to end (by a thread of its own,
    /// so the test's own scheduling does not add to it).
    public var time: Double
    /// User plus system CPU seconds it used.
    public var cpuSeconds: Double

    /// The shell's number: the exit code, or 128 + the signal (-1 if unknown).
    public var status: Int32 {
        if let code { return code }
        if let signal { return 128 + signal }
        return -1
    }

    /// Decodes a `wait4` status (the <sys/wait.h> macros are not imported).
    init(waitStatus raw: Int32, time: Double, cpuSeconds: Double) {
        let signal = raw & 0x7F
        if signal == 0 {
            code = (raw >> 8) & 0xFF
        } else {
            self.signal = signal
        }
        self.time = time
        self.cpuSeconds = cpuSeconds
    }

    /// An end whose status was lost (someone else reaped the process).
    init(unknownAt time: Double) {
        self.time = time
        cpuSeconds = 0
    }
}
