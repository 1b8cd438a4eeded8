import Testing
import TestSupport

/// The built `locationctl`, run as a process against the tests' servers.
enum Locationctl {
    /// `.build/debug/locationctl` (what `swift build --build-tests` and `swift test` build).
    static var path: String { PackagePaths.product("locationctl") }

    /// Whether it has been built.
    static var isBuilt: Bool { PackagePaths.productMissing("locationctl") == nil }

    /// Starts it for a command that runs until stopped (`watch`, `tail -f`);
    /// its output goes to files in `directory`.
    static func start(_ arguments: [String], in directory: ScratchDirectory) throws -> ChildProcess {
        let tag = UInt32.random(in: 0...UInt32.max)
        return try ChildProcess(
            [path] + arguments, stdoutPath: directory.file("out-\(tag).txt"), stderrPath: directory.file("err-\(tag).txt"))
    }

    /// Runs it to the end: its exit status, standard output and standard
    /// error. `stdin` is written to a file in `directory` first.
    static func run(
        _ arguments: [String], in directory: ScratchDirectory, stdin: String? = nil,
        environment: ChildEnvironment = .only([:]), prefix: [String] = []
    ) async throws -> (status: Int32, output: String, errors: String) {
        try #require(isBuilt, "\(path) is missing: build it with swift build --build-tests (or --product locationctl)")
        var input = ChildProcess.Input.null
        if let stdin { input = .file(try directory.write("in-\(UInt32.random(in: 0...UInt32.max)).txt", stdin)) }
        let outcome = try await ChildProcess.run(prefix + [path] + arguments, environment: environment, stdin: input)
        return (outcome.status, outcome.output, outcome.stderr)
    }
}

extension ChildProcess {
    /// Waits until standard output has `count` complete lines; whether it did.
    func waitForLines(_ count: Int, within seconds: Double = 60) async -> Bool {
        await waitUntil(timeout: seconds) { stdoutLines.count >= count }
    }
}
