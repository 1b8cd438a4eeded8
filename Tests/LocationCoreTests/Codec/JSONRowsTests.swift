import Testing
@testable import LocationCore
@testable import LocationValues

/// `JSONRows`: a saved list read row by row, in bounded memory (#47).
@Suite struct JSONRowsTests {
    func rows(_ text: String, maximum: Int = 64, pieces: Int = 7) -> (rows: [JSONRows.Row], complete: Bool) {
        var reader = JSONRows(maximumRowBytes: maximum)
        var rows: [JSONRows.Row] = []
        let bytes = Array(text.utf8)
        // Fed in small pieces: a row may span any number of them.
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + pieces)
            reader.feed(bytes[start..<end]) { rows.append($0) }
            start = end
        }
        return (rows, reader.complete)
    }

    @Test func eachRowIsParsedOnItsOwn() throws {
        let read = rows(#"{"apps":[{"a":"x]}\"y"},{"b":[1,2]} , 3,"four",null]}"#)
        #expect(read.complete)
        #expect(read.rows.map(\.index) == [0, 1, 2, 3, 4])
        let values = try read.rows.map { try $0.value.get() }
        #expect(values[0]["a"]?.stringValue == "x]}\"y")
        #expect(values[1]["b"]?.arrayValue?.count == 2)
        #expect(values[2].intValue == 3 && values[3].stringValue == "four" && values[4] == .null)
    }

    @Test func aBadOrOverlongRowIsSkippedAndTheOthersKept() throws {
        let long = String(repeating: "z", count: 500)
        let read = rows(#"{"apps":[{"n":1},{"n":},{"id":"\#(long)"},{"n":4}]}"#)
        #expect(read.complete)
        #expect(try read.rows[0].value.get()["n"]?.intValue == 1)
        #expect(try read.rows[3].value.get()["n"]?.intValue == 4)
        guard case .failure(let bad) = read.rows[1].value, case .failure(let overlong) = read.rows[2].value else {
            Issue.record("\(read.rows)")
            return
        }
        #expect(bad.description.contains("not JSON"))
        #expect(overlong.description.contains("509 bytes long"), "\(overlong)")
    }

    @Test func aFileCutShortKeepsTheRowsBeforeTheCut() throws {
        let read = rows(#"{"apps":[{"n":1},{"n":2},{"n""#)
        #expect(!read.complete)
        #expect(try read.rows.map { try $0.value.get()["n"]?.intValue } == [1, 2])
    }
}

extension JSONRowsTests {
    /// A row cut short on its line costs that row alone: the next line is read afresh.
    @Test func aRowCutOnItsLineCostsThatRowAlone() throws {
        let read = rows("{\"apps\":[\n{\"n\":1},\n{\"n\":2,\"s\":\"open\n{\"n\":3},\n{\"n\":{\"deep\":\n{\"n\":5}\n]}\n")
        #expect(read.complete)
        #expect(read.rows.compactMap { try? $0.value.get()["n"]?.intValue } == [1, 3, 5])
        #expect(read.rows.filter { (try? $0.value.get()) == nil }.map(\.index) == [1, 3])
    }
}
