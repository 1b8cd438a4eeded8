import Testing
import TestSupport

@testable import LocationCodecs
@testable import LocationCore

/// The phrase table (#36 item 5): one row per sentence type, found by its tag's bytes from any
/// talker; GSV and GSA are rows; a tag without a row is ignored.
@Suite struct NMEAPhraseTests {
    /// A row's type letters (`GGA`) or proprietary tag (`PSRFEPE`), from its number.
    static func letters(_ row: NMEAPhrase) -> String {
        var bytes: [UInt8] = []
        var name = row.name
        while name != 0 {
            bytes.insert(UInt8(truncatingIfNeeded: name), at: 0)
            name >>= 8
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func tag(_ row: NMEAPhrase, talker: String) -> String {
        row.tagLength == 5 ? talker + letters(row) : letters(row)
    }

    @Test func everyRowIsFoundByItsTagAndOnlyOnce() {
        let names = NMEAPhrase.table.map(Self.letters)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.contains("GSV") && names.contains("GSA"))
        // Each row's sentence with a single field is found (too short: malformed), from any talker.
        for talker in ["GP", "GN", "PQ"] {
            let text = NMEAPhrase.table.map { NMEATest.sentence(Self.tag($0, talker: talker) + ",1") }.joined()
            let s = NMEATest.parse(text).statistics
            #expect(s.malformed == NMEAPhrase.table.count, "\(talker): \(s)")
            #expect(s.ignored == 0 && s.used == 0 && s.addsUp, "\(talker): \(s)")
        }
    }

    @Test func tagsWithoutARowAreIgnored() {
        let text = ["GPTXT,01,01,02,OK", "GPGSW,1,1,00", "GPSRFEPE,1,2,3,4,5,6,7,8", "PSRFEPX,1,2,3,4,5,6,7,8", "GPGS,1,2,3,4"]
            .map { NMEATest.sentence($0) }.joined()
        let s = NMEATest.parse(text).statistics
        #expect(s.ignored == 5 && s.malformed == 0 && s.used == 0, "\(s)")
    }

    @Test func aShortGSVIsMalformedAndAWholeOneIsUsed() {
        let text = NMEATest.sentence("GPGSV,1,1") + NMEATest.sentence("GPGSV,1,1,01,15,40,120,33")
        let s = NMEATest.parse(text).statistics
        #expect(s.malformed == 1 && s.used == 1 && s.ignored == 0 && s.addsUp, "\(s)")
    }

    /// docs/nmea.md §2 states the table row by row: each of its rows is the code's.
    @Test func docsStateTheTableAsTheCodeHasIt() throws {
        let text = try #require(FileIO.text(PackagePaths.path("docs/nmea.md")))
        let prefix = "| type | least fields | timed (time field) | into |"
        let start = try #require(text.range(of: prefix))
        var documented: [String: String] = [:]
        for line in text[start.upperBound...].split(separator: "\n").dropFirst().prefix(while: { $0.hasPrefix("| ") }) {
            let cells = line.split(separator: "|").map { $0.split(separator: " ").joined(separator: " ") }
            documented[cells[0]] = cells[1] + " " + cells[2]
        }
        var coded: [String: String] = [:]
        for row in NMEAPhrase.table {
            coded[Self.letters(row)] = "\(row.minimumCount) " + (row.isTimed ? "yes (\(row.timeField))" : "no")
        }
        #expect(documented == coded)
    }
}
