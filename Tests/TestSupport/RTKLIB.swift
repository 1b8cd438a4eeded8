/// RTKLIB's tools (Debian package `rtklib`) reading what a raw capture wrote (`raw_log`): `str2str`
/// playing it back by its time tags, `convbin` making RINEX of it.
public enum RTKLIB {
    /// Plays `path` back as `str2str -in file://PATH::T` does (by the time tags of `PATH.tag`)
    /// into `out`, and returns what came out once it holds `count` bytes, or after `timeout`
    /// seconds with what it holds then (and str2str's output, for the message).
    public static func playBack(_ path: String, into out: String, count: Int, timeout: Double = 30) async throws -> (
        bytes: [UInt8], output: String
    ) {
        let log = out + ".str2str"
        let child = try ChildProcess(["str2str", "-in", "file://\(path)::T", "-out", "file://\(out)"], stdoutPath: log)
        defer { child.kill() }
        _ = await waitUntil(timeout: timeout) { (try? FileIO.read(out))?.count ?? 0 >= count }
        return ((try? FileIO.read(out)) ?? [], FileIO.text(log) ?? "")
    }

    /// RINEX observations `convbin -r FORMAT` makes of `path` (in `out`): the epoch lines
    /// (`> 2026 03 15 10 00 00.0000000  0  4`); throws with its output when it fails.
    public static func rinexEpochs(of path: String, format: String = "ubx", out: String) async throws -> [String] {
        let outcome = try await ChildProcess.run(["convbin", "-r", format, "-o", out, path], timeout: 60)
        guard outcome.status == 0 else { throw ChildProcessError("convbin failed (\(outcome.status)): \(outcome.stderr)") }
        let text = FileIO.text(out) ?? ""
        guard text.contains("END OF HEADER") else { throw ChildProcessError("convbin wrote no RINEX header: \(outcome.stderr)") }
        return text.split(separator: "\n").filter { $0.hasPrefix("> ") }.map(String.init)
    }
}
