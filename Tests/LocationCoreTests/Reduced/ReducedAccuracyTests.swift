import Glibc
import Testing
@testable import LocationCore
@testable import LocationValues

/// docs/authorization.md §6: offset, drift, grid snap, what a reduced fix may carry, and the seedable random source.
@Suite struct ReducedAccuracyTests {
    @Test func sameSeedSameSequenceAndDifferentSeedsDiffer() {
        var a = Xoshiro256(seed: 42), b = Xoshiro256(seed: 42), c = Xoshiro256(seed: 43)
        let sa = (0..<8).map { _ in a.next() }
        #expect(sa == (0..<8).map { _ in b.next() })
        #expect(sa != (0..<8).map { _ in c.next() })
        #expect(Xoshiro256(state: (0, 0, 0, 0)) == nil)
    }

    @Test func gaussianPairsHaveUnitSpreadAndAreNeverNaN() {
        var random = Xoshiro256(seed: 3)
        var sum = 0.0, sumSq = 0.0
        let n = 100_000
        for _ in 0..<n / 2 {
            let (x, y) = random.nextGaussianPair()
            #expect(x.isFinite && y.isFinite)
            sum += x + y
            sumSq += x * x + y * y
        }
        #expect(abs(sum / Double(n)) < 0.02)
        #expect(abs(sumSq / Double(n) - 1) < 0.02)
    }

    @Test func offsetSpreadIsAQuarterGridAndDriftKeepsIt() {
        // Many clients' offsets, drifted over a year of hours: the spread stays σ = 1 (grid / 4 in metres).
        var sumSq = 0.0, sumSqDrifted = 0.0, correlation = 0.0
        let clients = 4000
        for k in 0..<clients {
            var state = ReducedAccuracyState(random: Xoshiro256(seed: UInt64(k)))
            let start = state.offsetEast
            sumSq += state.offsetEast * state.offsetEast
            state.advance(toTime: 0)
            for hour in 1...24 { state.advance(toTime: Double(hour) * 3600) }
            correlation += start * state.offsetEast
            state.advance(toTime: 365 * 86400)
            sumSqDrifted += state.offsetEast * state.offsetEast
            #expect(state.offset(grid: 2000).east == state.offsetEast * 500)
        }
        #expect(abs(sumSq / Double(clients) - 1) < 0.08)
        #expect(abs(sumSqDrifted / Double(clients) - 1) < 0.08)
        // After 24 hourly steps the offset is still mostly itself: ρ²⁴ ≈ 0.989.
        #expect(correlation / Double(clients) > 0.9)
    }

    @Test func driftHappensOncePerHourOnlyAndNotBackwards() {
        var state = ReducedAccuracyState(random: Xoshiro256(seed: 1))
        state.advance(toTime: 7200)
        let first = state
        state.advance(toTime: 7200 + 3599)
        #expect(state == first)
        state.advance(toTime: 100)
        #expect(state == first)
        state.advance(toTime: 10800)
        #expect(state.offsetEast != first.offsetEast)
        #expect(state.driftHour == 3)
    }

    @Test(arguments: [
        (35.681199, 139.767066), (0.0, 0.0), (-33.9, 18.4), (0.0, 179.9999), (0.0, -179.9999),
        (89.9995, 10.0), (-89.9995, -170.0), (71.0, -8.0),
    ])
    func obfuscatedFixIsOnTheGridAndCarriesOnlyACoarsePosition(_ lat: Double, _ lon: Double) throws {
        for grid in [200.0, 2000, 10_000] {
            var state = ReducedAccuracyState(random: Xoshiro256(seed: 9))
            let fix = Fix(
                time: 1_773_532_201, mode: .threeD, latitude: lat, longitude: lon, altitude: 40, horizontalError: 4,
                verticalError: 8, speed: 3, course: 90, satellitesUsed: 10)
            let out = ReducedAccuracy.obfuscate(fix, state: &state, grid: grid)
            #expect(out.altitude == nil && out.verticalError == nil && out.speed == nil && out.course == nil)
            #expect(out.horizontalError == grid)
            #expect(out.time == fix.time)
            #expect(out.isUsable)
            // Snapping is idempotent: the output is a grid node.
            let (again, againLon) = ReducedAccuracy.snap(latitude: out.latitude, longitude: out.longitude, grid: grid)
            #expect(abs(again - out.latitude) < 1e-9 && abs(againLon - out.longitude) < 1e-9)
            // Within offset + one cell of the truth (σ = grid/4, so 6σ + a cell diagonal is generous).
            let d = Geodesy.distance(fromLatitude: lat, longitude: lon, toLatitude: out.latitude, longitude: out.longitude)
            #expect(d < 1.5 * grid + 2 * grid, "\(d) m at grid \(grid)")
        }
    }

    @Test func gridIsNeverBelowTheMinimum() {
        var state = ReducedAccuracyState(random: Xoshiro256(seed: 2))
        let fix = Fix(time: 0, mode: .twoD, latitude: 10, longitude: 10)
        #expect(ReducedAccuracy.obfuscate(fix, state: &state, grid: 10).horizontalError == 200)
    }

    @Test func cellsDivideEachParallelEvenlySoTheAntimeridianIsNoSeam() {
        for lat in stride(from: -89.0, through: 89.0, by: 7.3) {
            let (snappedLat, west) = ReducedAccuracy.snap(latitude: lat, longitude: -179.99999, grid: 2000)
            let (_, east) = ReducedAccuracy.snap(latitude: lat, longitude: 179.99999, grid: 2000)
            #expect(west == east || abs(abs(west - east) - 360) < 1e-9, "at \(snappedLat)")
        }
    }

    @Test func positionsNearAPoleComeDownTheOtherSide() {
        let (lat, lon) = ReducedAccuracy.shift(latitude: 89.9999, longitude: 10, east: 0, north: 100)
        #expect(lat < 90 && lat > 89.999)
        #expect(abs(lon - -170) < 1e-9)
    }
}
