/// The one line `export` and `plot` write on standard error once a file is
/// written whole: what, where, and how big. Nothing is said when the document
/// goes to standard output (`-` or no `-o`), which then carries the document alone.
public enum WrittenFile {
    /// `locationctl: wrote 1200 records as gpx to walk.gpx (74.1 kB)` (with its newline).
    public static func note(_ what: String, path: String, bytes: Int) -> String {
        "locationctl: wrote \(what) to \(path) (\(SummaryRenderer.size(Double(bytes))))\n"
    }

    /// `1200 records as gpx`, `1 record as csv`.
    public static func records(_ count: Int, format: ExportFormat) -> String {
        SummaryRenderer.count(count, "record", "records") + " as \(format.rawValue)"
    }

    /// `a track of 1200 fixes`, `a track of 1200 fixes of 2 receivers`, `a scatter of 900 fixes of 2 receivers`.
    public static func plot(_ kind: String, fixes: Int, receivers: Int) -> String {
        "a \(kind) of " + SummaryRenderer.count(fixes, "fix", "fixes") + (receivers > 1 ? " of \(receivers) receivers" : "")
    }
}
