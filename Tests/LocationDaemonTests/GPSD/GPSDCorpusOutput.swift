import TestSupport

/// gpsd's own output for its regression captures (the `.chk` files beside the
/// logs in fixtures/gpsd/gpsd-corpus): the JSON lines of some classes,
/// which the shim and the parsers are checked against line by line.
enum GPSDCorpusOutput {
    /// One line of gpsd's output.
    struct Line {
        /// The `.chk` file it is in.
        var file: String
        /// Its line number there, from 1.
        var number: Int
        /// The line as gpsd wrote it, up to its `\n` (a `\r` before it kept).
        var text: String
    }

    static let directory = PackagePaths.gpsdCaptures + "/gpsd-corpus"

    /// Every line of every `.chk` file whose class is one of `classes` (`"TPV"`, `"SKY"`), in file order.
    static func lines(of classes: String...) throws -> [Line] {
        let prefixes = classes.map { #"{"class":""# + $0 + #"","# }
        var lines: [Line] = []
        for file in try FileIO.list(directory).filter({ $0.hasSuffix(".chk") }) {
            // Split on the byte: as Characters, "\r\n" is one and "\n" would not split it.
            for (n, bytes) in try FileIO.read(directory + "/" + file).split(separator: 10).enumerated() {
                let text = String(decoding: bytes, as: UTF8.self)
                guard prefixes.contains(where: text.hasPrefix) else { continue }
                lines.append(Line(file: file, number: n + 1, text: text))
            }
        }
        return lines
    }
}
