#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// What a program run to its end did.
    public struct Outcome: Sendable {
        /// The process id it had.
        public var pid: pid_t
        /// The shell's number: exit code, or 128 + signal.
        public var status: Int32
        /// Everything it wrote to standard output.
        public var stdout: [UInt8]
        /// Everything it wrote to standard error.
        public var stderr: String
        /// How and when it ended.
        public var exit: ChildExit

        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs a program to its end (at most `timeout` seconds, then it is
    /// killed and this throws), its output in private files read afterwards.
    public static func run(
        _ arguments: [String], environment: ChildEnvironment = .inherited(), stdin: Input = .null, timeout: Double = 120
    ) async throws(ChildProcessError) -> Outcome {
        let scratch: ScratchDirectory
        do {
            scratch = try ScratchDirectory("run")
        } catch {
            throw ChildProcessError("cannot run \(arguments.first ?? "nothing"): \(error)")
        }
        let child = try ChildProcess(
            arguments, environment: environment, stdin: stdin, stdoutPath: scratch.file("stdout"),
            stderrPath: scratch.file("stderr"))
        let status = try await child.finish(within: timeout)
        return Outcome(
            pid: child.pid, status: status, stdout: (try? FileIO.read(child.stdoutPath)) ?? [], stderr: child.stderr,
            exit: child.exit ?? ChildExit(unknownAt: monotonicNow()))
    }
}
