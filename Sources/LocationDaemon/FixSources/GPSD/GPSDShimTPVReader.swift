import CGPS
import LocationCodecs
import LocationCore

#if canImport(Glibc)
import Glibc
#endif

/// The live gpsd source's TPV reading, for the TPVs of a gpsd log
/// (`GPSDLogParser`'s `readingTPV`): each line goes to the CGPS shim as
/// `cgps_read` hands it a line from gpsd, so a TPV recorded and the same TPV
/// live are read one way. A TPV in the shape gpsd writes is read by the
/// shim's own decoder (tpv.c), which needs no libgps; the guard's verdict
/// (a second `"class"`, or one not where gpsd puts it) is the guard's; and a
/// TPV outside gpsd's shape goes to libgps, loaded at the first such line,
/// as live. Without libgps such a line is unreadable, with the reason.
/// Measured (docs/performance.md, "One TPV decoder"). One replay input's,
/// used by its one thread.
final class GPSDShimTPVReader {
    /// Opens libgps for the lines only it reads: an offline session, or why there is none.
    typealias LibgpsOpener = () -> (session: OpaquePointer?, problem: String?)

    private let openLibgps: LibgpsOpener
    /// libgps's session, opened at the first line only libgps reads.
    private var session: OpaquePointer?
    /// Why libgps could not be opened (asked once).
    private var libgpsProblem: String?
    private var report = cgps_report()
    /// The line with its NUL, which the shim needs (and may write into).
    private var line: [UInt8] = []

    /// Whether libgps has been opened for a line outside gpsd's shape.
    var usesLibgps: Bool { session != nil }

    init(openingLibgps open: @escaping LibgpsOpener = GPSDShimTPVReader.libgps) { openLibgps = open }

    deinit { cgps_close(session) }

    /// libgps loaded (`cgps_library_load`) and an offline session on it.
    static func libgps() -> (session: OpaquePointer?, problem: String?) {
        let (loaded, message) = LoadedLibrary.call { cgps_library_load($0, $1) }
        guard loaded >= 0 else { return (nil, message) }
        if loaded == 1 { Diagnostics.gpsd.info("loaded \(GPSDLibrary.name) for a TPV outside the shape gpsd writes") }
        guard let session = cgps_offline() else { return (nil, "no offline session (\(String(cString: strerror(errno))))") }
        return (session, nil)
    }

    /// What the live source makes of the TPV line `bytes` (C reads it to its first NUL, as live).
    func read(_ bytes: UnsafeRawBufferPointer) -> GPSDLogParser.TPVReading {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: bytes)
        line.append(0)
        if unpack(session) < 0 {
            if session == nil && libgpsProblem == nil {
                let opened = openLibgps()
                session = opened.session
                libgpsProblem = session == nil ? opened.problem ?? "libgps cannot be loaded" : nil
            }
            guard let session else {
                return .unreadable(
                    reason: "TPV outside the shape gpsd writes, which only libgps reads, and libgps cannot be loaded: \(libgpsProblem ?? "")")
            }
            _ = unpack(session)
        }
        switch report.kind {
        case CGPS_REPORT_TPV:
            var read = GPSDSession.convert(report.fix)
            read.device = GPSDSession.device(&report)
            return .report(read, mode: Int(report.tpv_mode))
        case CGPS_REPORT_UNREADABLE:
            return .unreadable(
                reason: "TPV naming \"class\" twice, or not first: the live source does not read it")
        default:
            return .unreadable(reason: "TPV whose \"class\" is not where gpsd writes it: the live source does not read it")
        }
    }

    /// The line through the shim as `cgps_read` unpacks it; `session` nil: without libgps (-1: only libgps reads it).
    private func unpack(_ session: OpaquePointer?) -> Int32 {
        line.withUnsafeMutableBytes { raw in
            cgps_unpack(session, raw.baseAddress?.assumingMemoryBound(to: CChar.self), &report, CGPS_UNPACK_SHIM)
        }
    }
}
