import Testing
import TestSupport

/// docs/ARCHITECTURE.md, "Layers": which of the package's modules each target
/// under Sources/ may import. Package.swift's dependencies stop most wrong
/// imports (a module a target does not depend on is not built for it), but
/// not one reached through another target's dependencies; this checks every
/// `import` line of every file, and the table is the layers written down.
enum LibraryLayerRule {
    /// Each target under Sources/ and the package's modules it may import.
    /// Modules that are not the package's (Glibc, Synchronization…) are not
    /// layers and are not checked here.
    static let allowed: [String: Set<String>] = [
        // The lowest layer: plain values every other layer shares.
        "LocationValues": [],
        // The codecs, gpsd's drivers: NMEA and gpsd's JSON into fixes.
        "LocationCodecs": ["LocationValues"],
        // The control protocol and the values it carries, libgps's place:
        // both programs speak it, and it knows no engine.
        "LocationProtocol": ["LocationValues"],
        "LocationConfig": ["LocationValues", "LocationProtocol"],
        // The engine, gpsd's daemon core: above the values it takes and gives.
        "LocationCore": ["LocationValues", "LocationProtocol", "LocationConfig"],
        "LocationSystem": ["LocationValues", "LocationConfig", "CSupport"],
        // The clients' side: no engine, no codecs, no daemon.
        "LocationTools": ["LocationValues", "LocationProtocol"],
        "LocationClient": ["LocationValues", "LocationProtocol", "LocationTools", "LocationSystem"],
        "locationctl": [
            "LocationValues", "LocationProtocol", "LocationConfig", "LocationTools", "LocationSystem", "LocationClient",
        ],
        "LocationDaemon": [
            "LocationValues", "LocationCodecs", "LocationProtocol", "LocationConfig", "LocationCore", "LocationSystem",
            "CGPS", "CMQTT", "CBus", "CSupport",
        ],
        "locationd": ["LocationValues", "LocationCore", "LocationSystem", "LocationDaemon"],
    ]

    /// The pure layers: no IO, no clock, no Foundation (Package.swift).
    static let pure: Set<String> = [
        "LocationValues", "LocationCodecs", "LocationProtocol", "LocationConfig", "LocationCore", "LocationTools",
    ]

    /// Modules the pure layers may not import.
    static let impure: Set<String> = ["Foundation", "Dispatch", "CSupport"]

    /// The module each `import` line of a file names (`@testable`, `@_exported`
    /// and kinds such as `import struct` included).
    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let name = words.count >= 3 && kinds.contains(words[1]) ? words[2] : words[1]
            return String(name.prefix { $0 != "." })
        }
    }

    /// Every module `target` reaches through the table, itself left out.
    static func reach(_ target: String) -> Set<String> {
        var seen: Set<String> = []
        var next = Array(allowed[target] ?? [])
        while let module = next.popLast() {
            if seen.insert(module).inserted { next += allowed[module] ?? [] }
        }
        return seen
    }

    /// What breaks the rule in one file of `target`; `modules` are the
    /// package's own (the folders under Sources/).
    static func violations(target: String, text: String, modules: Set<String>) -> [String] {
        guard let may = allowed[target] else { return ["\(target) is in no layer: add it to LibraryLayerRule.allowed"] }
        return imports(in: text).compactMap { module in
            if module == target { return nil }
            if modules.contains(module) && !may.contains(module) { return "\(target) may not import \(module)" }
            if pure.contains(target) && impure.contains(module) { return "\(target) is pure and may not import \(module)" }
            return nil
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct LibraryLayerRuleTests {
    @Test func everyImportFollowsTheLayers() throws {
        let sources = PackagePaths.path("Sources")
        let modules = Set(try FileIO.list(sources))
        try #require(modules.contains("LocationCore") && modules.contains("LocationValues"), "no targets under \(sources)")
        var problems: [String] = []
        var checked = 0
        for target in modules.sorted() {
            let files = TimeLimitRuleTests.swiftFiles(under: sources + "/" + target)
            // The C targets and system libraries have no Swift files.
            guard !files.isEmpty else { continue }
            for file in files {
                let text = FileIO.text(sources + "/" + target + "/" + file) ?? ""
                checked += 1
                problems += LibraryLayerRule.violations(target: target, text: text, modules: modules)
                    .map { "Sources/\(target)/\(file): \($0)" }
            }
        }
        #expect(problems.isEmpty, "docs/ARCHITECTURE.md, \"Layers\":\n\(problems.joined(separator: "\n"))")
        #expect(checked > 300, "checked only \(checked) files")
    }

    /// locationctl speaks the protocol and reads the configuration; the engine,
    /// the codecs and the daemon are the daemon's alone (issue #49).
    @Test func locationctlReachesNeitherTheEngineNorTheCodecs() {
        let reached = LibraryLayerRule.reach("locationctl")
        #expect(reached.isDisjoint(with: ["LocationCore", "LocationCodecs", "LocationDaemon", "CGPS", "CMQTT", "CBus"]), "\(reached)")
        #expect(reached.contains("LocationProtocol"))
        #expect(LibraryLayerRule.reach("LocationProtocol") == ["LocationValues"])
    }

    @Test func theRuleFindsAnImportAcrossTheLayers() {
        let modules: Set<String> = ["LocationValues", "LocationCodecs", "LocationCore", "LocationDaemon", "CSupport"]
        let text = """
            import Glibc
            @testable import LocationCore
            import struct LocationDaemon.DaemonCore
            // import LocationDaemon
            """
        #expect(LibraryLayerRule.imports(in: text) == ["Glibc", "LocationCore", "LocationDaemon"])
        #expect(LibraryLayerRule.violations(target: "LocationCodecs", text: text, modules: modules) == [
            "LocationCodecs may not import LocationCore", "LocationCodecs may not import LocationDaemon",
        ])
        #expect(LibraryLayerRule.violations(target: "LocationDaemon", text: text, modules: modules).isEmpty)
        #expect(LibraryLayerRule.violations(target: "LocationValues", text: "import CSupport", modules: modules) == [
            "LocationValues may not import CSupport",
        ])
        #expect(LibraryLayerRule.violations(target: "LocationCodecs", text: "import Foundation", modules: modules) == [
            "LocationCodecs is pure and may not import Foundation",
        ])
        #expect(LibraryLayerRule.violations(target: "NewTarget", text: "", modules: modules) == [
            "NewTarget is in no layer: add it to LibraryLayerRule.allowed",
        ])
    }
}
