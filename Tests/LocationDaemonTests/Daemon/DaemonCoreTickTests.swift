#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The tick's `fsync = interval` syncs are made outside the engine's lock, so
/// the reader thread writes a fix that comes meanwhile at once.
@Suite struct DaemonCoreTickTests {
    /// A core with `fsync = interval` that has written one fix's line and
    /// whose interval has passed, so its next tick has a sync to make.
    private func coreWithOneLineToSync() throws -> (ScratchDirectory, ManualClock, DaemonCore) {
        let dir = try ScratchDirectory("core-tick")
        let config = try daemonConfig(in: dir, fsync: "interval")
        let clock = ManualClock()
        let core = try DaemonCore(config: config, seed: 1, clock: clock.clock)
        core.ingest(.state(.connected, detail: "connected to gpsd"))
        clock.advance(1)
        core.ingest(.fix(walkFix(0)))
        core.writeBatchedLines()
        clock.advance(1.5)
        return (dir, clock, core)
    }

    @Test func theTicksSyncRunsWithTheLockFreeAndAFixMeanwhileIsWrittenAtOnce() throws {
        let (dir, clock, core) = try coreWithOneLineToSync()
        let log = dir.file("log/logger.jsonl")
        var lockFree: [Bool] = []
        var linesDuringSync = -1
        core.tick { sync in
            // Under the lock this would be nil (the lock is not recursive).
            let free = core.owner.withLockIfAvailable { _ in true } ?? false
            lockFree.append(free)
            guard free else { return sync.perform() }
            // A fix the reader thread brings while the disk syncs.
            core.ingest(.fix(walkFix(1, metres: 50)))
            core.writeBatchedLines()
            linesDuringSync = (try? logRecords(log).count) ?? -1
            return sync.perform()
        }
        #expect(lockFree == [true], "one sync, made with the lock free")
        #expect(linesDuringSync == 2, "the fix that came during the sync is in the log before the sync ends")
        // The line written during the sync waits for the next one.
        var later = 0
        clock.advance(1.5)
        core.tick { later += 1; return $0.perform() }
        #expect(later == 1)
        core.shutdown()
        #expect(try logRecords(log).count == 2)
    }

    @Test func aSyncThatFailedIsMadeAgainAtTheNextTick() throws {
        let (dir, clock, core) = try coreWithOneLineToSync()
        var attempts = 0
        core.tick { sync in
            attempts += 1
            _ = sync.perform()
            return SystemError("fdatasync test", errno: EIO)
        }
        #expect(attempts == 1)
        clock.advance(1.5)
        core.tick { attempts += 1; return $0.perform() }
        #expect(attempts == 2, "nothing was written since, but the failed sync is made again")
        clock.advance(1.5)
        core.tick { attempts += 1; return $0.perform() }
        #expect(attempts == 2, "synced: nothing left to sync")
        core.shutdown()
        withExtendedLifetime(dir) {}
    }
}
