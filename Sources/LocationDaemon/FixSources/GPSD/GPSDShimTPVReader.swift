import CGPS
import LocationCodecs
import LocationCore

#if canImport(Glibc)
import Glibc
#endif

/// The live gpsd source's TPV reader, for the lines of a gpsd log
/// (`GPSDLogParser`'s `readingTPV`): each line that opens as gpsd writes a TPV
/// goes to the CGPS shim as `cgps_read` hands it a line from gpsd, so a TPV
/// recorded and the same TPV live are read by one decoder (tpv.c). A line the
/// shim's reader does not take — outside the shape gpsd writes — is left to
/// `GPSDLogLine`, which reads it as libgps does (`GPSDLogShimTests`) and says
/// what is wrong with a damaged one; the shim's own libgps fallback has read
/// it first then, and that answer is not used. Measured (docs/performance.md,
/// "One TPV decoder"): 7.0 k instructions a TPV here (4.5 k of them tpv.c)
/// against 51 k through `GPSDLogLine`. One replay input's, used by its one
/// thread.
final class GPSDShimTPVReader {
    /// How a TPV line begins as gpsd writes it (tpv.c reads no other).
    private static let opening = Array(#"{"class":"TPV","#.utf8)
    private let session: OpaquePointer?
    private var report = cgps_report()
    /// The line with its NUL, which the shim needs (and may write into).
    private var line: [UInt8] = []

    init() { session = cgps_offline() }

    deinit { cgps_close(session) }

    /// The report the live source makes of `bytes`, or `nil` to leave the line to `GPSDLogLine`.
    func read(_ bytes: UnsafeRawBufferPointer) -> GPSDFixReport? {
        // A NUL would end the line early for C; such a line is `GPSDLogLine`'s to judge.
        guard let session, bytes.starts(with: Self.opening), let base = bytes.baseAddress,
            memchr(base, 0, bytes.count) == nil
        else { return nil }
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: bytes)
        line.append(0)
        let taken = line.withUnsafeMutableBytes { raw in
            cgps_unpack(session, raw.baseAddress?.assumingMemoryBound(to: CChar.self), &report, CGPS_UNPACK_SHIM) == 1
        }
        guard taken else { return nil }
        var read = GPSDSession.convert(report.fix)
        read.device = GPSDSession.device(&report)
        return read
    }
}
