import LocationCore
import LocationSystem
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The core's tick comes only when something is due (`DaemonCore.nextDeadline`, set through
/// `setAlarm`), and `fsync = interval`'s syncs are made on the fix path, as each pause writes,
/// once a second has passed since the last. The deadlines are computed, not waited for.
@Suite(.timeLimit(.minutes(10))) struct DaemonCoreTickTests {
    /// A core with `fsync = interval` on a clock the test moves, the source connected at
    /// monotonic 1000, and every time the core asked its tick to come by.
    private func core(clients: String = DaemonFixtures.logger) throws -> (ScratchDirectory, ManualClock, DaemonCore, Asked) {
        let dir = try ScratchDirectory("core-tick")
        let config = try daemonConfig(in: dir, clients: clients, fsync: "interval")
        let clock = ManualClock()
        let core = try DaemonCore(config: config, seed: 1, clock: clock.clock)
        let asked = Asked()
        core.setAlarm { time in asked.times.withLock { $0.append(time) } }
        core.ingest(.state(.connected, detail: "connected to gpsd"))
        return (dir, clock, core, asked)
    }

    /// Every time the core asked its tick to come by.
    final class Asked: Sendable {
        let times = Mutex<[Double]>([])
    }

    private func syncs(_ core: DaemonCore) -> Int {
        core.owner.withLock { $0.carrier.logs.writer(of: "logger")?.syncs ?? -1 }
    }

    private func now(_ clock: ManualClock) -> Double { clock.clock.monotonic() }

    @Test func atOneEpochASecondEachSecondLineSyncsBothAsItIsWrittenAndNoTickIsDue() throws {
        let (dir, clock, core, asked) = try core()
        let wait = LogWriter.syncInterval + LogWriter.syncSlack
        var outages: [Double] = []
        for n in 0...5 {
            // A receiver's epochs, a hair early as often as late.
            clock.advance(n == 0 ? 1 : n % 2 == 0 ? 1.003 : 0.997)
            core.ingest(.fix(walkFix(n, metres: 10 * Double(n))))
            let standBy = core.writeBatchedLines()
            #expect(syncs(core) == (n + 1) / 2, "epoch \(n): one sync for every two lines, made as the second is written")
            // A line left unsynced is due a second (and the slack) after it was written, the
            // outage 5 s after the fix: the reader stands by for both in its own wait, which
            // the next epoch beats.
            let unsynced = n % 2 == 0 ? now(clock) + wait : nil
            #expect(standBy == unsynced ?? now(clock) + Engine.outageDelay, "epoch \(n)")
            // The core's tick is set for neither: the minute's access counts come next (the wall
            // clock's seconds, mapped to the monotonic clock, keep about a microsecond).
            let next = core.nextDeadline(now: now(clock))
            #expect(unsynced.map { next == $0 } ?? (abs(next - (1000 + 60)) < 1e-5), "epoch \(n): \(next)")
            outages.append(now(clock) + Engine.outageDelay)
        }
        let times = asked.times.withLock { $0 }
        #expect(times.allSatisfy { !outages.contains($0) && !($0 < 1000 + 60 - 1e-5) }, "asked for \(times)")
        core.shutdown()
        #expect(try logRecords(dir.file("log/logger.jsonl")).count == 6)
    }

    @Test func aLineNoOtherFollowsIsSyncedASecondAndTheSlackAfterItByItsReaderOrTheTick() throws {
        let (dir, clock, core, asked) = try core()
        clock.advance(1)
        core.ingest(.fix(walkFix(0)))
        let written = now(clock)
        let due = written + LogWriter.syncInterval + LogWriter.syncSlack
        #expect(core.writeBatchedLines() == due, "the reader stands by for the line's sync")
        #expect(syncs(core) == 0)
        #expect(core.nextDeadline(now: now(clock)) == due)
        clock.advance(0.3)
        core.ingest(.fix(walkFix(1, metres: 10)))
        #expect(core.writeBatchedLines() == due, "the later line does not put it off")
        #expect(syncs(core) == 0, "the oldest line is 0.3 s old")
        #expect(!asked.times.withLock { $0.contains(due) }, "the core's tick is not set for it")
        // The source goes away before its reader's wait is over: the state change sets the tick by the line.
        core.ingest(.state(.connecting, detail: "gpsd went away"))
        #expect(asked.times.withLock { $0.last } == due)
        // The tick comes at the deadline and syncs both lines.
        clock.advance(due - now(clock))
        core.tick()
        #expect(syncs(core) == 1)
        // (ManualClock's wall time at monotonic 1000 starts a minute; the wall clock's seconds, mapped
        // to the monotonic clock, keep about a microsecond.)
        let next = core.nextDeadline(now: now(clock))
        #expect(abs(next - (1000 + 60)) < 1e-5, "synced, the outage begun: the minute's access counts are next, not \(next)")
        core.shutdown()
        withExtendedLifetime(dir) {}
    }

    /// The 5 s without a usable fix: the reader carries them in its wait, and when that wait
    /// runs out with no fix since, its call sets the core's tick for them; the tick starts the outage.
    @Test func fixesThatStopAreAnOutageWhenTheReadersWaitRunsOut() throws {
        let (dir, clock, core, asked) = try core()
        clock.advance(1)
        core.ingest(.fix(walkFix(0)))
        core.writeBatchedLines()
        clock.advance(LogWriter.syncInterval + LogWriter.syncSlack)
        core.tick()
        let outage = now(clock) - LogWriter.syncInterval - LogWriter.syncSlack + Engine.outageDelay
        #expect(core.writeBatchedLines() == outage, "the line synced: the reader stands by for the outage alone")
        #expect(!asked.times.withLock { $0.contains(outage) })
        // The reader's wait runs out.
        clock.advance(outage - now(clock))
        #expect(core.writeBatchedLines() == nil, "nothing more to stand by for")
        #expect(asked.times.withLock { $0.last } == outage, "the core's tick is set for the outage")
        #expect(core.tally.errors[.locationUnknown, default: 0] == 0)
        core.tick()
        #expect(core.tally.errors[.locationUnknown, default: 0] == 1, "the updating client is told location-unknown")
        #expect(core.writeBatchedLines() == nil)
        #expect(core.owner.withLock { $0.nextDeadline(now: now(clock)) } == 1000 + 60, "the outage begun: the minute's counts are next")
        core.shutdown()
        withExtendedLifetime(dir) {}
    }

    /// A pinned receiver's failover (`receiver = DEVICE`): its fixes move it on as they move the
    /// 5 s, so the reader carries it in its wait and the core's tick is never asked for it while
    /// they come; when they stop, the reader's wait running out sets the tick, which starts the
    /// client's outage.
    @Test func aPinnedReceiversFailoverIsStoodByForByItsReaderAndNeverTicksWhileItsFixesCome() throws {
        let (dir, clock, core, asked) = try core(clients: DaemonFixtures.logger + "\nreceiver = A")
        let failover = 3.0  // `[source] failover`'s default
        let wait = LogWriter.syncInterval + LogWriter.syncSlack
        // Its failover before any fix: counted from the engine's start (monotonic 1000).
        var failovers = [now(clock) + failover]
        for n in 0...5 {
            clock.advance(n == 0 ? 1 : n % 2 == 0 ? 1.003 : 0.997)
            var fix = walkFix(n, metres: 10 * Double(n))
            fix.device = "A"
            core.ingest(.fix(fix))
            let standBy = core.writeBatchedLines()
            failovers.append(now(clock) + failover)
            // The reader stands by for the line's sync, else for the failover (before the 5 s).
            let unsynced = n % 2 == 0 ? now(clock) + wait : nil
            #expect(standBy == unsynced ?? now(clock) + failover, "epoch \(n)")
            // The core's tick is set for neither: the minute's access counts come next.
            let next = core.nextDeadline(now: now(clock))
            #expect(unsynced.map { next == $0 } ?? (abs(next - (1000 + 60)) < 1e-5), "epoch \(n): \(next)")
        }
        let times = asked.times.withLock { $0 }
        #expect(times.allSatisfy { time in !failovers.contains(time) && !(time < 1000 + 60 - 1e-5) }, "asked for \(times)")
        // The fixes stop: the last line's sync, then the failover when the reader's wait runs out.
        clock.advance(wait)
        core.tick()
        let due = failovers.last!
        #expect(core.writeBatchedLines() == due)
        clock.advance(due - now(clock))
        #expect(core.writeBatchedLines() == nil, "nothing more to stand by for until the tick")
        #expect(asked.times.withLock { $0.last } == due, "the core's tick is set for the failover")
        #expect(core.tally.errors[.locationUnknown, default: 0] == 0)
        core.tick()
        #expect(core.tally.errors[.locationUnknown, default: 0] == 1, "the pinned client is told location-unknown")
        // In its outage the client has no failover: the reader stands by for the 5 s alone.
        #expect(core.writeBatchedLines() == due - failover + Engine.outageDelay)
        core.shutdown()
        withExtendedLifetime(dir) {}
    }

    @Test func withTheSourceGoneAndNothingPendingTheNextTickIsTheReportsDailyPruning() throws {
        let (dir, clock, core, _) = try core()
        let start = now(clock)
        clock.advance(1)
        core.ingest(.state(.connecting, detail: "gpsd went away"))
        // The outage began at once; no client timer, nothing unsynced, no state save pending.
        #expect(core.nextDeadline(now: now(clock)) == start + 86_400)
        core.shutdown()
        withExtendedLifetime(dir) {}
    }

    @Test func aMinuteWithAccessCountsIsFlushedByATickAtItsEnd() throws {
        let (dir, clock, core, asked) = try core()
        clock.advance(1)
        core.ingest(.fix(walkFix(0)))
        core.writeBatchedLines()
        // ManualClock's wall time at monotonic 1000 starts a minute: the count's minute ends at 1060.
        let minuteEnd = 1000.0 + 60
        #expect(asked.times.withLock { $0.contains(minuteEnd) }, "the first count of the minute asks for its flush")
        // The line's sync comes first.
        clock.advance(LogWriter.syncInterval + LogWriter.syncSlack)
        core.tick()
        #expect(syncs(core) == 1)
        clock.advance(minuteEnd + 1 - now(clock))
        // The fixes stopped almost a minute ago (an outage, then) and the line is synced: the flush is next.
        core.ingest(.state(.connecting, detail: "gpsd went away"))
        #expect(core.nextDeadline(now: now(clock)) == minuteEnd)
        core.tick()
        #expect(core.nextDeadline(now: now(clock)) == 1000 + 86_400, "flushed: the daily pruning is next")
        core.shutdown()
        withExtendedLifetime(dir) {}
    }
}
