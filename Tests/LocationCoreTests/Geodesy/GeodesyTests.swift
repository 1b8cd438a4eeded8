import Glibc
import Testing
import TestSupport
@testable import LocationCore
@testable import LocationValues

/// One GeographicLib vector from `Vectors/geodesic.csv` (made by `make_geodesic_vectors.py`).
struct GeodesicVector: Sendable, CustomStringConvertible {
    var kind: String
    var lat1, lon1, lat2, lon2, s12: Double

    var description: String { "\(kind) (\(lat1), \(lon1)) → (\(lat2), \(lon2)) = \(s12) m" }

    /// The vectors file, beside these tests in the package (no Bundle, no Foundation).
    static let path = PackagePaths.path("Tests/LocationCoreTests/Vectors/geodesic.csv")

    static func load() -> [GeodesicVector] {
        let text = FileIO.text(path) ?? ""
        var vectors: [GeodesicVector] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count == 6, !line.hasPrefix("#"), fields[0] != "case" else { continue }
            let numbers = fields.dropFirst().compactMap { Double($0) }
            guard numbers.count == 5 else { continue }
            vectors.append(
                GeodesicVector(
                    kind: String(fields[0]), lat1: numbers[0], lon1: numbers[1], lat2: numbers[2], lon2: numbers[3],
                    s12: numbers[4]))
        }
        return vectors
    }
}

@Suite struct GeodesyTests {
    static let vectors = GeodesicVector.load()

    func distance(_ v: GeodesicVector) -> Double {
        Geodesy.distance(fromLatitude: v.lat1, longitude: v.lon1, toLatitude: v.lat2, longitude: v.lon2)
    }

    @Test func vectorFileIsPresentAndCoversEveryCase() {
        let kinds = Set(Self.vectors.map(\.kind))
        #expect(kinds == ["short", "tiny", "equator", "meridian", "antimeridian", "pole", "long", "antipodal"])
        #expect(Self.vectors.count > 2000, "\(GeodesicVector.path)")
    }

    @Test(arguments: ["short", "tiny", "equator", "meridian", "antimeridian", "pole"])
    func agreesWithGeographicLibWithinAMillimetreUpTo100Kilometres(_ kind: String) {
        let vectors = Self.vectors.filter { $0.kind == kind }
        #expect(!vectors.isEmpty)
        var worst = 0.0
        for v in vectors {
            let d = distance(v)
            #expect(abs(d - v.s12) <= 0.001, "\(v): got \(d)")
            worst = max(worst, abs(d - v.s12))
        }
        // Vincenty is far better than the bar; a regression to a spherical formula would be metres off.
        #expect(worst < 0.0001)
    }

    @Test func agreesWithGeographicLibOnLongLinesWhereVincentyConverges() {
        for v in Self.vectors where v.kind == "long" {
            let d = distance(v)
            #expect(abs(d - v.s12) <= 0.001 || abs(d - v.s12) / v.s12 <= 0.005, "\(v): got \(d)")
        }
    }

    @Test func nearlyAntipodalPairsAreFiniteAndClose() {
        for v in Self.vectors where v.kind == "antipodal" {
            let d = distance(v)
            #expect(d.isFinite && d >= 0, "\(v)")
            #expect(abs(d - v.s12) / v.s12 <= 0.005, "\(v): got \(d)")
        }
    }

    @Test func isSymmetricAndZeroForTheSamePoint() {
        for v in Self.vectors.prefix(300) {
            let back = Geodesy.distance(fromLatitude: v.lat2, longitude: v.lon2, toLatitude: v.lat1, longitude: v.lon1)
            #expect(abs(back - distance(v)) <= 1e-6)
        }
        #expect(Geodesy.distance(fromLatitude: 10, longitude: 20, toLatitude: 10, longitude: 20) == 0)
        #expect(Geodesy.distance(fromLatitude: 90, longitude: 0, toLatitude: 90, longitude: 123) < 1e-6)
        #expect(Geodesy.distance(fromLatitude: 0, longitude: 180, toLatitude: 0, longitude: -180) == 0)
    }

    @Test func neverNaNNeverStuckOnAwkwardInputs() {
        var random = Xoshiro256(seed: 5)
        func u() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        let specials: [Double] = [0, 90, -90, 180, -180, 89.999_999_999, -0.0, 1e-300, 360, 540, -720]
        for a in specials {
            for b in specials {
                let d = Geodesy.distance(fromLatitude: max(-90, min(90, a)), longitude: b, toLatitude: -a, longitude: b + 180)
                #expect(d.isFinite && d >= 0, "\(a), \(b)")
            }
        }
        for _ in 0..<20_000 {
            let d = Geodesy.distance(
                fromLatitude: u() * 180 - 90, longitude: u() * 720 - 360, toLatitude: u() * 180 - 90,
                longitude: u() * 720 - 360)
            #expect(d.isFinite && d >= 0 && d <= 20_004_000)
        }
        #expect(Geodesy.distance(fromLatitude: .nan, longitude: 0, toLatitude: 0, longitude: 0) == .infinity)
        #expect(Geodesy.distance(fromLatitude: 0, longitude: .infinity, toLatitude: 0, longitude: 0) == .infinity)
    }

    @Test func thresholdDecisionsMatchTheExactDistance() {
        // Pairs spread around each threshold, including inside the chord/arc band.
        var random = Xoshiro256(seed: 8)
        func u() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        for meters in [0.0, 0.5, 5, 25, 100, 1000, 50_000, 2_000_000] {
            let threshold = GeodesicThreshold(meters: meters)
            for _ in 0..<2000 {
                let lat = u() * 179.98 - 89.99, lon = u() * 360 - 180
                let bearing = u() * 2 * .pi
                // Relative offsets from the threshold spread log-uniformly over 10⁻¹⁰ … 10⁻², either side,
                // so that the chord/arc band is hit often.
                let delta = pow(10, -10 + 8 * u()) * (u() < 0.5 ? -1 : 1)
                let scale = meters == 0 ? u() : meters * (1 + delta)
                var dLat = scale * cos(bearing) / 111_000
                var dLon = scale * sin(bearing) / (111_000 * max(cos(lat * .pi / 180), 0.01))
                let a = EarthPoint(latitude: lat, longitude: lon)
                // Rescale the offset until the exact distance is the intended one.
                for _ in 0..<4 where scale > 0 {
                    let d = a.distance(to: EarthPoint(latitude: max(-90, min(90, lat + dLat)), longitude: lon + dLon))
                    guard d > 0 else { break }
                    dLat *= scale / d
                    dLon *= scale / d
                }
                let b = EarthPoint(latitude: max(-90, min(90, lat + dLat)), longitude: lon + dLon)
                #expect(threshold.isReached(from: a, to: b) == (a.distance(to: b) >= meters), "\(meters) m at \(lat), \(lon)")
            }
        }
    }

    @Test func chordNeverExceedsTheGeodesic() {
        for v in Self.vectors where v.kind != "antipodal" {
            let a = EarthPoint(latitude: v.lat1, longitude: v.lon1)
            let b = EarthPoint(latitude: v.lat2, longitude: v.lon2)
            #expect(a.squaredChord(to: b).squareRoot() <= v.s12 + 1e-6, "\(v)")
        }
    }
}

@Suite struct IncrementalSinCosTests {
    @Test func followsSlowlyMovingAnglesToTheLastBitsAndJumpsExactly() {
        var random = Xoshiro256(seed: 12)
        var trig = IncrementalSinCos()
        var x = 0.6
        var worst = 0.0
        for k in 0..<200_000 {
            let (g, _) = random.nextGaussianPair()
            // Mostly steps of a few metres, sometimes a jump (a new receiver position, the antimeridian).
            x += k % 5000 == 4999 ? 2 : g * 1e-6
            let (s, c) = trig(x)
            worst = max(worst, abs(s - sin(x)), abs(c - cos(x)))
        }
        #expect(worst < 1e-14)
    }
}
