#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

/// Nothing planted at a path the daemon writes redirects a write (#9):
/// `SafeFile` under the log writer, the audit log, the state store and
/// `AtomicFileWriter`.
@Suite(.timeLimit(.minutes(10))) struct SafeFileTests {
    /// A torn line the tail repair would cut, if it ever touched the file.
    static let victimText = "someone else's file\nwith a torn last line"

    @Test(arguments: ["logger.jsonl", "audit.jsonl"])
    func aSymlinkAtALogsNameIsRefusedAndItsTargetUntouched(name: String) throws {
        let dir = try ScratchDirectory()
        let victim = try dir.write("victim", Self.victimText)
        #expect(symlink(victim, dir.file(name)) == 0)
        let error = try #require(throws: SystemError.self) {
            if name == "audit.jsonl" {
                _ = try AuditLog(path: dir.file(name))
            } else {
                _ = try LogWriter(path: dir.file(name), fsync: .always)
            }
        }
        #expect(error.errno == ELOOP)
        #expect(error.description == "refused \(dir.file(name)): it is a symbolic link, and locationd never writes through one; remove the link")
        #expect(try dir.text("victim") == Self.victimText)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func aHardLinkToAnotherUsersFileIsRefused() throws {
        let dir = try ScratchDirectory()
        let victim = try dir.write("victim", Self.victimText)
        #expect(chown(victim, 65534, 65534) == 0)
        #expect(link(victim, dir.file("logger.jsonl")) == 0)
        let error = try #require(throws: SystemError.self) { _ = try LogWriter(path: dir.file("logger.jsonl"), fsync: .always) }
        #expect(error.errno == EPERM)
        #expect(error.description.contains("it is owned by uid 65534, not by uid 0 that locationd runs as"))
        #expect(try dir.text("victim") == Self.victimText)
    }

    @Test func aFIFOOrADirectoryAtALogsNameIsRefusedWithoutWaiting() throws {
        let dir = try ScratchDirectory()
        #expect(mkfifo(dir.file("fifo.jsonl"), 0o600) == 0)
        let fifo = try #require(throws: SystemError.self) { _ = try LogWriter(path: dir.file("fifo.jsonl"), fsync: .always) }
        #expect(fifo.description.contains("it is a FIFO, not a regular file"))
        #expect(mkdir(dir.file("dir.jsonl"), 0o755) == 0)
        let directory = try #require(throws: SystemError.self) { _ = try LogWriter(path: dir.file("dir.jsonl"), fsync: .always) }
        #expect(directory.errno == EISDIR)
    }

    @Test func aSymlinkPlantedBetweenRotationAndReopenIsRefusedAndTheOldFileKeepsEveryLine() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .always)
        #expect(writer.append(logRecord(1)) == nil)
        // logrotate renames the log; before SIGHUP someone plants a link at the name.
        #expect(rename(path, dir.file("logger.jsonl.1")) == 0)
        let victim = try dir.write("victim", Self.victimText)
        #expect(symlink(victim, path) == 0)
        let error = try #require(throws: SystemError.self) { try writer.reopen() }
        #expect(error.errno == ELOOP)
        #expect(writer.append(logRecord(2)) == nil)
        #expect(try dir.text("victim") == Self.victimText)
        #expect(recordNumbers(try dir.read("logger.jsonl.1")) == [1, 2])
    }

    @Test func temporariesHaveNamesOfTheirOwnAndNoneIsLeftBehind() throws {
        let dir = try ScratchDirectory()
        let target = dir.file("state.json")
        let first = try AtomicFileWriter(path: target, mode: 0o640)
        let second = try AtomicFileWriter(path: target, mode: 0o640)
        #expect(first.temporaryPath != second.temporaryPath)
        #expect(FileSystem.fileName(of: first.temporaryPath).hasPrefix(".state.json."))
        try first.write(Array("one".utf8))
        try first.commit()
        try second.write(Array("two".utf8))
        try second.commit()
        #expect(try dir.entries() == ["state.json"])
        #expect(try dir.text("state.json") == "two")
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 & ~0o640 == 0)
    }

    @Test func anAbandonedTemporaryIsRemoved() throws {
        let dir = try ScratchDirectory()
        do {
            let writer = try AtomicFileWriter(path: dir.file("export.gpx"))
            try writer.write(Array("half".utf8))
        }
        #expect(try dir.entries().isEmpty)
    }

    @Test func directoriesOthersCanWriteIntoAreReported() throws {
        let dir = try ScratchDirectory()
        #expect(SafeFile.directoryProblem(dir.path) == nil)
        #expect(mkdir(dir.file("open"), 0o755) == 0)
        #expect(chmod(dir.file("open"), 0o1777) == 0)
        let open = try #require(SafeFile.directoryProblem(dir.file("open")))
        #expect(open.contains("is writable by everyone (mode 1777)"))
        if getuid() == 0 {
            #expect(mkdir(dir.file("theirs"), 0o755) == 0)
            #expect(chown(dir.file("theirs"), 65534, 65534) == 0)
            let theirs = try #require(SafeFile.directoryProblem(dir.file("theirs")))
            #expect(theirs.contains("is owned by uid 65534, not by uid 0 that locationd runs as"))
        }
        let problems = SafeFile.directoryProblems(of: [dir.file("open/a.jsonl"), dir.file("open/b.jsonl"), dir.file("c.jsonl")])
        #expect(problems == [open], "one line per directory")
    }

    @Test func theDaemonDoesNotStartOnASymlinkedLogAndSaysWhy() async throws {
        let dir = try ScratchDirectory()
        let config = try daemonConfig(in: dir)
        #expect(mkdir(dir.file("log"), 0o755) == 0)
        let victim = try dir.write("victim", Self.victimText)
        #expect(symlink(victim, dir.file("log/logger.jsonl")) == 0)
        let error = try #require(throws: DaemonCore.StartError.self) {
            _ = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        }
        #expect(error.description.contains("it is a symbolic link, and locationd never writes through one"), "\(error)")
        #expect(try dir.text("victim") == Self.victimText)
    }
}
