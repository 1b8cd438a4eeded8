#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(10))) struct StateStoreTests {
    /// 2026-03-14T23:50:01Z
    private let now = 1_773_532_201.0

    /// The caller's side of a load: decode as JSON, set aside what does not decode.
    private func decode(_ store: StateStore) -> (JSONValue?, StateStore.SetAside?) {
        switch store.load(now: now) {
        case .missing: return (nil, nil)
        case .setAside(let aside): return (nil, aside)
        case .bytes(let bytes):
            do {
                return (try JSONValue.parse(bytes), nil)
            } catch {
                return (nil, store.setAside(reason: "\(error)", now: now))
            }
        }
    }

    @Test func missingFileMeansFirstStart() throws {
        let dir = try ScratchDirectory()
        #expect(StateStore(directory: dir.path).load() == .missing)
    }

    @Test func savedStateLoadsBackAndReplacesTheOldOne() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.file("state"))
        try store.save(Array(#"{"version":1}"#.utf8))
        try store.save(Array(#"{"version":2}"#.utf8))
        #expect(store.load() == .bytes(Array(#"{"version":2}"#.utf8)))
        #expect(try dir.entries() == ["state"])
        #expect(try FileIO.list(dir.file("state")) == ["state.json"], "no temporary file is left")
        var info = stat()
        #expect(stat(store.path, &info) == 0)
        #expect(info.st_mode & 0o777 & ~0o640 == 0)
        #expect(stat(dir.file("state"), &info) == 0)
        #expect(info.st_mode & 0o777 & ~0o750 == 0)
    }

    /// Only `state.json` and what the test put there: no temporary file left behind.
    private func onlyStateFile(_ dir: ScratchDirectory, besides planted: Set<String> = []) throws -> Bool {
        Set(try dir.entries()).subtracting(planted) == ["state.json"]
    }

    @Test func whatIsPlantedAtTheOldFixedTemporaryNameNeitherStopsASaveNorIsTouched() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        try store.save(Array("old".utf8))
        // state.json.tmp was the fixed temporary name: a link or directory there made every save fail.
        try dir.write("victim", "untouched")
        #expect(symlink(dir.file("victim"), store.path + ".tmp") == 0)
        #expect(mkdir(dir.file(".state.json.tmp"), 0o755) == 0)
        try store.save(Array("new".utf8))
        #expect(store.load() == .bytes(Array("new".utf8)))
        #expect(try dir.text("victim") == "untouched")
        #expect(try onlyStateFile(dir, besides: ["victim", "state.json.tmp", ".state.json.tmp"]))
    }

    @Test func aSymlinkAsTheStateFileIsSetAsideNotReadAndASaveReplacesTheLinkNotItsTarget() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        try dir.write("victim", #"{"version":1}"#)
        #expect(symlink(dir.file("victim"), store.path) == 0)
        guard case .setAside(let aside) = store.load(now: now) else {
            Issue.record("a symbolic link was read as the state file")
            return
        }
        #expect(aside.reason.contains("symbolic link"))
        #expect(symlink(dir.file("victim"), store.path) == 0)
        try store.save(Array("new".utf8))
        #expect(try dir.text("victim") == #"{"version":1}"#)
        #expect(store.load() == .bytes(Array("new".utf8)))
    }

    @Test func aFailedRenameRemovesTheTemporaryFile() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        #expect(mkdir(store.path, 0o755) == 0)
        try dir.write("state.json/keep", "a non-empty directory cannot be replaced by a file")
        let error = try #require(throws: SystemError.self) { try store.save(Array("new".utf8)) }
        #expect(error.errno == EISDIR)
        #expect(try dir.entries() == ["state.json"], "no temporary file is left")
    }

    @Test func aFailedWriteKeepsTheOldState() async throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        try store.save(Array("old".utf8))
        // A file-size limit makes the write itself fail; set it in a child, not in the test process.
        await #expect(processExitsWith: .success) { [directory = dir.path as String] in
            SignalSource.ignoreBenignSignals()
            var limit = rlimit(rlim_cur: 1024, rlim_max: rlim_t.max)
            try #require(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0)
            let store = StateStore(directory: directory)
            let error = try #require(throws: SystemError.self) { try store.save([UInt8](repeating: 0x20, count: 4096)) }
            #expect(error.errno == EFBIG)
        }
        #expect(store.load() == .bytes(Array("old".utf8)))
        #expect(try onlyStateFile(dir), "no temporary file is left")
    }

    @Test func aStateDirectoryThatIsAFileFailsTheSave() throws {
        let dir = try ScratchDirectory()
        try dir.write("state", "not a directory")
        let error = try #require(throws: SystemError.self) { try StateStore(directory: dir.file("state")).save([0x7B, 0x7D]) }
        #expect(error.errno == ENOTDIR)
    }

    @Test(arguments: [
        ("truncated", Array(#"{"clients":{"logger":{"status":"alw"#.utf8)),
        ("binary garbage", [0x00, 0xFF, 0x13, 0x37]),
        ("half a write of zeros", [UInt8](repeating: 0, count: 512)),
    ] as [(String, [UInt8])])
    func contentTheCallerCannotDecodeIsSetAside(shape: String, contents: [UInt8]) throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        try dir.write("state.json", contents)
        let (value, aside) = decode(store)
        #expect(value == nil, "\(shape)")
        let moved = try #require(aside?.movedTo)
        #expect(moved == store.path + ".corrupt-20260314T235001Z")
        #expect(try dir.read(moved) == contents, "the bad file is kept for a person to look at")
        #expect(store.load() == .missing, "the next start begins afresh")
    }

    @Test func emptyFileIsSetAsideWithAClearMessage() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        try dir.write("state.json", [])
        guard case .setAside(let aside) = store.load(now: now) else {
            Issue.record("an empty state file was not set aside")
            return
        }
        #expect(aside.description == """
            state file \(store.path) cannot be used (it is empty); moved it to \(store.path).corrupt-20260314T235001Z; \
            starting from the configuration's initial values
            """)
        #expect(aside.level == .warning)
        #expect(try dir.entries() == ["state.json.corrupt-20260314T235001Z"])
    }

    @Test func aDirectoryWhereTheStateFileShouldBeIsSetAside() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        #expect(mkdir(store.path, 0o755) == 0)
        guard case .setAside(let aside) = store.load(now: now) else {
            Issue.record("a directory was not set aside")
            return
        }
        #expect(aside.reason.hasPrefix("it is a directory, not a regular file"))
        #expect(aside.movedTo != nil)
        try store.save(Array("{}".utf8))
        #expect(store.load() == .bytes(Array("{}".utf8)))
    }

    @Test func oversizedFileIsSetAside() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        try dir.write("state.json", "{")
        #expect(truncate(store.path, off_t(StateStore.maximumSize + 1)) == 0)
        guard case .setAside(let aside) = store.load(now: now) else {
            Issue.record("an oversized state file was not set aside")
            return
        }
        #expect(aside.reason == "it is larger than 16 MiB")
    }

    @Test func settingAsideTwiceInOneSecondKeepsBothFiles() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(directory: dir.path)
        try dir.write("state.json", "first")
        #expect(store.setAside(reason: "test", now: now).movedTo == store.path + ".corrupt-20260314T235001Z")
        try dir.write("state.json", "second")
        #expect(store.setAside(reason: "test", now: now).movedTo == store.path + ".corrupt-20260314T235001Z-2")
        #expect(try dir.text("state.json.corrupt-20260314T235001Z") == "first")
        #expect(try dir.text("state.json.corrupt-20260314T235001Z-2") == "second")
    }

    @Test func failedSetAsideSaysSo() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(path: dir.file("absent/state.json"))
        let aside = store.setAside(reason: "it is empty", now: now)
        #expect(aside.movedTo == nil && aside.renameError?.errno == ENOENT)
        #expect(aside.level == .error)
        #expect(aside.description.contains("could not move it aside (rename "))
    }

    @Test func replayStateFileCanLiveAnywhere() throws {
        let dir = try ScratchDirectory()
        let store = StateStore(path: dir.file("replay-state.json"))
        #expect(store.directory == dir.path)
        try store.save(Array("{}".utf8))
        #expect(try dir.entries() == ["replay-state.json"])
    }
}
