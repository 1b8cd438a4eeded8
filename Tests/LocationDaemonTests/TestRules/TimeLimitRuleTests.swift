import Testing
import TestSupport

/// docs/testing.md, "Time limits": a test that could hang has a time limit, set
/// on its suite (Swift Testing applies a suite's `.timeLimit` to each test in
/// it). Every suite of the targets that touch the system has one; in the pure
/// targets, a suite whose file starts a process, a thread or a task, or waits
/// for something outside the test, does. This checks every file of Tests/, so
/// a new suite without a limit fails here.
enum TimeLimitRule {
    /// The targets whose tests use files, sockets, processes, threads or the daemon.
    static let systemTargets: Set<String> = [
        "LocationDaemonTests", "IntegrationTests", "LocationClientTests", "LocationSystemTests",
    ]

    /// What, in a pure target's file, makes its suites need a limit.
    static let markers = [
        "ChildProcess", "GPSFake", "DBusDaemon", "Mosquitto", "DedicatedThread", "Thread", "pthread_", "socket(",
        "Task {", "Task(", "Task.detached", "TaskGroup", "DispatchQueue", "offPool", "processExitsWith",
        "ExternalTool", "waitUntil", "eventualValue", "Locationctl",
    ]

    /// A `@Suite` attribute: the type it is on, and whether it sets a time limit.
    struct Suite: Equatable {
        var type: String
        var limited: Bool
    }

    /// The `@Suite` attributes of a file's text.
    static func suites(in text: String) -> [Suite] {
        let bytes = Array(text.utf8)
        var found: [Suite] = []
        var index = 0
        while let start = find(Array("@Suite".utf8), in: bytes, from: index) {
            var end = start + 6
            // An attribute starts its line; `@Suite` in a comment or a longer name is not one.
            var lineStart = start
            while lineStart > 0, bytes[lineStart - 1] == UInt8(ascii: " ") { lineStart -= 1 }
            if (end < bytes.count && identifierByte(bytes[end])) || (lineStart > 0 && bytes[lineStart - 1] != 0x0A) {
                index = end
                continue
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "(") { end = closingParenthesis(bytes, from: end) }
            let attribute = String(decoding: bytes[start..<end], as: UTF8.self)
            found.append(Suite(type: declaredType(bytes, from: end) ?? "?", limited: attribute.contains(".timeLimit(")))
            index = end
        }
        return found
    }

    /// Whether the rule covers the file (`target` is the folder under Tests/).
    static func applies(target: String, text: String) -> Bool {
        guard text.contains("@Test") || text.contains("@Suite") else { return false }
        return systemTargets.contains(target) || markers.contains { text.contains($0) }
    }

    /// What breaks the rule in one file; `limitedSuites` are the suites with a
    /// limit anywhere (a file of tests in an `extension` of one of them is covered).
    static func violations(target: String, text: String, limitedSuites: Set<String>) -> [String] {
        guard applies(target: target, text: text) else { return [] }
        let suites = suites(in: text)
        var problems = suites.filter { !$0.limited }.map { "@Suite on \($0.type) has no .timeLimit" }
        if suites.isEmpty && text.contains("@Test") {
            let extended = text.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("extension ") else { return nil }
                return line.dropFirst(10).prefix { identifierByte($0.asciiValue ?? 0) }.description
            }
            if !extended.contains(where: limitedSuites.contains) {
                problems.append("tests outside a @Suite with a .timeLimit")
            }
        }
        return problems
    }

    private static func identifierByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }

    /// The index after the parenthesis that closes the one at `open` (string literals skipped).
    private static func closingParenthesis(_ bytes: [UInt8], from open: Int) -> Int {
        var depth = 0
        var inString = false
        var i = open
        while i < bytes.count {
            let byte = bytes[i]
            if inString {
                if byte == UInt8(ascii: "\\") { i += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { return i + 1 }
            }
            i += 1
        }
        return bytes.count
    }

    /// The name of the type declared after an attribute ending at `start`
    /// (other attributes and modifiers skipped).
    private static func declaredType(_ bytes: [UInt8], from start: Int) -> String? {
        var i = start
        var words: [String] = []
        while i < bytes.count && words.count < 12 {
            if bytes[i] == UInt8(ascii: "@") {
                i += 1
                while i < bytes.count && identifierByte(bytes[i]) { i += 1 }
                if i < bytes.count && bytes[i] == UInt8(ascii: "(") { i = closingParenthesis(bytes, from: i) }
            } else if identifierByte(bytes[i]) {
                let wordStart = i
                while i < bytes.count && identifierByte(bytes[i]) { i += 1 }
                words.append(String(decoding: bytes[wordStart..<i], as: UTF8.self))
                if let last = words.dropLast().last, ["struct", "class", "enum", "actor"].contains(last) { return words.last }
            } else {
                i += 1
            }
        }
        return nil
    }
}

@Suite(.timeLimit(.minutes(10))) struct TimeLimitRuleTests {
    /// Every Swift file under `directory`, as paths relative to it.
    static func swiftFiles(under directory: String, prefix: String = "") -> [String] {
        ((try? FileIO.list(directory)) ?? []).flatMap { name -> [String] in
            let path = directory + "/" + name
            if name.hasSuffix(".swift") { return [prefix + name] }
            // Not a directory (or unreadable): nothing under it.
            guard (try? FileIO.list(path)) != nil else { return [] }
            return swiftFiles(under: path, prefix: prefix + name + "/")
        }
    }

    @Test func everySuiteThatCouldHangHasATimeLimit() throws {
        let tests = PackagePaths.path("Tests")
        // This file's samples break the rule on purpose.
        let files = Self.swiftFiles(under: tests).filter {
            !$0.hasPrefix("TestSupport/") && !$0.hasSuffix("/TimeLimitRuleTests.swift")
        }
        try #require(files.count > 100, "found \(files.count) test files under \(tests)")
        let texts = files.map { (file: $0, text: FileIO.text(tests + "/" + $0) ?? "") }
        let limited = Set(texts.flatMap { TimeLimitRule.suites(in: $0.text) }.filter(\.limited).map(\.type))
        var problems: [String] = []
        var covered = 0
        for (file, text) in texts {
            let target = String(file.prefix { $0 != "/" })
            if TimeLimitRule.applies(target: target, text: text) { covered += 1 }
            problems += TimeLimitRule.violations(target: target, text: text, limitedSuites: limited).map { "Tests/\(file): \($0)" }
        }
        #expect(problems.isEmpty, "add .timeLimit(.minutes(N)) to the suite (docs/testing.md, \"Time limits\"):\n\(problems.joined(separator: "\n"))")
        #expect(covered > 100, "the rule covered only \(covered) files")
    }

    @Test func theRuleFindsASuiteWithoutALimitAndTestsWithoutASuite() {
        let unlimited = """
            @Suite(.serialized, .enabled(if: true, "a (note)"))
            final class SocketTests {
                @Test func a() {}
            }
            @Suite(.timeLimit(.minutes(10))) struct Limited {}
            """
        #expect(TimeLimitRule.suites(in: unlimited) == [.init(type: "SocketTests", limited: false), .init(type: "Limited", limited: true)])
        #expect(TimeLimitRule.violations(target: "LocationDaemonTests", text: unlimited, limitedSuites: []) == ["@Suite on SocketTests has no .timeLimit"])
        // A pure target's file is covered only when it starts something.
        #expect(TimeLimitRule.violations(target: "LocationCoreTests", text: unlimited, limitedSuites: []).isEmpty)
        #expect(!TimeLimitRule.violations(target: "LocationCoreTests", text: unlimited + "\nlet t = Task { }", limitedSuites: []).isEmpty)
        let bare = "struct PlainTests {\n    @Test func a() {}\n}\n"
        #expect(TimeLimitRule.violations(target: "IntegrationTests", text: bare, limitedSuites: []) == ["tests outside a @Suite with a .timeLimit"])
        let extending = "extension RunTests {\n    @Test func b() {}\n}\n"
        #expect(TimeLimitRule.violations(target: "IntegrationTests", text: extending, limitedSuites: ["RunTests"]).isEmpty)
        #expect(!TimeLimitRule.violations(target: "IntegrationTests", text: extending, limitedSuites: []).isEmpty)
    }
}
