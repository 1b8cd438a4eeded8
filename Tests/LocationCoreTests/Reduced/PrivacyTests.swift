import Glibc
import Testing
@testable import LocationCore
@testable import LocationValues

/// docs/authorization.md §14's measurable property: averaging many reduced fixes of a stationary
/// receiver gains an attacker almost nothing. The same check is run on plain
/// independent Gaussian noise, where it must fail, so the check can fail.
@Suite struct PrivacyTests {
    /// How positions are reported for a stationary receiver.
    enum NoiseModel: CustomStringConvertible {
        /// Through the engine: a reduced-accuracy client, one delivery per `reduced_interval`.
        case engineReduced
        /// Independent Gaussian noise of the same spread (σ = grid / 4 per axis) on every fix.
        case independentGaussian

        var description: String { self == .engineReduced ? "engine reduced accuracy" : "independent Gaussian" }
    }

    static let grid = 2000.0
    static let interval = 900.0

    /// 1000 reported positions for seed `seed` and the receiver's true position.
    static func reports(_ model: NoiseModel, seed: UInt64) -> (truth: (Double, Double), positions: [(latitude: Double, longitude: Double)]) {
        var random = Xoshiro256(seed: seed &+ 1000)
        let truth = (35.0 + Double(random.next() % 1000) / 1000, 139.0 + Double(random.next() % 1000) / 1000)
        var positions: [(latitude: Double, longitude: Double)] = []
        switch model {
        case .engineReduced:
            let client = TestEngine.client(
                "coarse", filter: nil, precise: false, authorization: .always, reducedGrid: grid, reducedInterval: interval)
            var engine = TestEngine.engine([client], seed: seed)
            var k = 0.0
            while positions.count < 1000, k < 5000 {
                // A stationary receiver with metre-level jitter, one fix per interval.
                let (jn, je) = random.nextGaussianPair()
                let lat = truth.0 + 2 * jn / 111_000
                let lon = truth.1 + 2 * je / 91_000
                let fix = Fix(time: TestEngine.t0 + k * interval, mode: .threeD, latitude: lat, longitude: lon, horizontalError: 4)
                for d in engine.feed(fix).deliveries { positions.append((d.fix.latitude, d.fix.longitude)) }
                k += 1
            }
        case .independentGaussian:
            for _ in 0..<1000 {
                let (n, e) = random.nextGaussianPair()
                let (lat, lon) = ReducedAccuracy.shift(
                    latitude: truth.0, longitude: truth.1, east: e * grid / 4, north: n * grid / 4)
                positions.append((lat, lon))
            }
        }
        return (truth, positions)
    }

    /// The mean averaging gain over `seeds` seeds, and whether it meets the bar of 0.8 (docs/authorization.md §14).
    static func privacyCheck(_ model: NoiseModel, seeds: Int = 50) -> (gain: Double, passes: Bool) {
        var total = 0.0
        for seed in 0..<seeds {
            let (truth, positions) = reports(model, seed: UInt64(seed))
            #expect(positions.count == 1000, "\(model) seed \(seed)")
            total += AveragingGain.measure(truthLatitude: truth.0, truthLongitude: truth.1, positions: positions)
        }
        let gain = total / Double(seeds)
        return (gain, gain >= 0.8)
    }

    @Test func averagingReducedFixesGainsAnAttackerAlmostNothing() {
        let (gain, passes) = Self.privacyCheck(.engineReduced)
        #expect(passes, "averaging gain \(gain) < 0.8")
    }

    @Test func theSameCheckFailsForIndependentGaussianNoise() {
        let (gain, passes) = Self.privacyCheck(.independentGaussian)
        #expect(!passes, "averaging gain \(gain) ≥ 0.8 for independent noise: the check cannot tell")
        #expect(gain < 0.1, "independent noise scores about 0.03 (docs/authorization.md §14), got \(gain)")
    }

    @Test func averagingGainMeasuresBiasOverSpread() {
        // Four points around the truth: the mean is the truth, gain 0. All at one point: gain 1.
        let d = 0.001
        let around = [(35 + d, 139.0), (35 - d, 139.0), (35.0, 139 + d), (35.0, 139 - d)].map { (latitude: $0.0, longitude: $0.1) }
        #expect(AveragingGain.measure(truthLatitude: 35, truthLongitude: 139, positions: around) < 1e-6)
        let same = Array(repeating: (latitude: 35.01, longitude: 139.01), count: 10)
        #expect(abs(AveragingGain.measure(truthLatitude: 35, truthLongitude: 139, positions: same) - 1) < 1e-12)
        #expect(AveragingGain.measure(truthLatitude: 35, truthLongitude: 139, positions: []) == 0)
    }
}
