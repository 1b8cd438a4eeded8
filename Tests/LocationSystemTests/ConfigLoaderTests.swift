#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationSystem
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(10))) struct ConfigLoaderTests {
    private func loadError(_ path: String) throws -> ConfigError {
        do {
            _ = try ConfigLoader.load(path: path, environment: [:])
        } catch {
            #expect(error.errors.count == 1)
            return try #require(error.errors.first)
        }
        Issue.record("loading \(path) succeeded")
        throw ConfigErrors([])
    }

    @Test func loadsARealFileAndAppliesTheEnvironment() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locationd.conf", "[client.logger]\nlog = logger.jsonl\n")
        let config = try ConfigLoader.load(path: path, environment: ["LOGS_DIRECTORY": dir.path])
        #expect(config.file == path)
        #expect(config.logPath(forClient: "logger") == dir.file("logger.jsonl"))
    }

    @Test func missingFileSaysHowToFixIt() throws {
        let dir = try ScratchDirectory()
        let error = try loadError(dir.file("absent.conf"))
        #expect(error.kind == .unreadable)
        #expect(error.description == """
            \(dir.file("absent.conf")): cannot read the configuration: No such file or directory; \
            create it (locationd.conf(5) describes the format) or pass --config PATH
            """)
    }

    @Test func directoryInsteadOfAFileIsRefused() throws {
        let dir = try ScratchDirectory()
        let error = try loadError(dir.path)
        #expect(error.description.contains("is a directory, not a configuration file"))
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let dir = try ScratchDirectory()
        #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
        let error = try loadError(dir.file("fifo"))
        #expect(error.description.contains("is not a regular file"))
    }

    @Test func invalidUTF8NamesTheLine() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("bad.conf", Array("[daemon]\nfsync = always\n".utf8) + [0x75, 0x73, 0xFF, 0x0A])
        let error = try loadError(path)
        #expect(error.description == "\(path):3: is not valid UTF-8 text: save the file as UTF-8")
    }

    @Test func oversizedFileIsRefused() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("huge.conf", [UInt8](repeating: 0x23, count: ConfigLoader.maximumSize + 1))
        let error = try loadError(path)
        #expect(error.description.contains("is larger than 1024 KiB"))
    }

    @Test func parseErrorsComeBackAllTogether() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locationd.conf", "[daemon]\nfsync = sometimes\nservices = maybe\n")
        do {
            _ = try ConfigLoader.load(path: path, environment: [:])
            Issue.record("a bad file loaded")
        } catch {
            #expect(error.errors.map(\.line) == [2, 3])
            #expect(error.errors.allSatisfy { $0.file == path })
        }
    }
}
