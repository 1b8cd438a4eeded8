// Engine decisions per second: one decision is one (fix, client) pair through
// the delivery steps of docs/authorization.md §4. Run in release: swift run -c release EngineBenchmark
import Glibc
import LocationConfig
import LocationCore
import LocationValues

/// CPU time of this thread: what the engine costs, unaffected by other processes on a shared machine.
func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// A walk at about 1.4 m/s with a fix a second and metre-level receiver jitter:
/// a 5 m distance filter passes roughly one fix in four.
func makeTrack(count: Int, seed: UInt64) -> [Fix] {
    var random = Xoshiro256(seed: seed)
    var lat = 35.681199, lon = 139.767066
    let start = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 50, second: 0)
    var heading = 0.0
    var fixes: [Fix] = []
    fixes.reserveCapacity(count)
    for k in 0..<count {
        let (g1, g2) = random.nextGaussianPair()
        heading += 0.1 * g1
        let north = 1.4 * cos(heading), east = 1.4 * sin(heading)
        lat += north / 111_000
        lon += east / (111_000 * cos(lat * .pi / 180))
        let jitter = 0.8 * g2
        fixes.append(
            Fix(
                time: start + Double(k), mode: .threeD, latitude: lat + jitter / 111_000, longitude: lon,
                altitude: 40, horizontalError: 4 + abs(g1), verticalError: 8, speed: 1.4, course: heading))
    }
    return fixes
}

struct Result {
    var decisionsPerSecond: Double
    var delivered: Int
}

func measure(clients count: Int, fixes: [Fix], filter: Double?, precise: Bool = true, reuseBuffer: Bool = true) -> Result {
    let clients = (0..<count).map { k in
        ClientSettings(
            name: "client\(k)", distanceFilter: filter, desiredAccuracy: .hundredMeters, usage: "benchmark",
            precise: precise, authorization: .always, updating: true, inUse: true)
    }
    var best = 0.0
    var delivered = 0
    for _ in 0..<5 {
        var engine = Engine(settings: EngineSettings(clients: clients), saved: nil, seed: 1)
        var n = 0
        var buffer = EffectList()
        buffer.reserveCapacity(4 * count)
        let t0 = cpuSeconds()
        if reuseBuffer {
            // What the daemon does: one effect list, emptied after each input is carried out.
            for fix in fixes {
                engine.handle(.fix(fix), now: fix.time ?? 0, into: &buffer)
                n &+= buffer.deliveries
                buffer.removeAll(keepingCapacity: true)
            }
        } else {
            for fix in fixes {
                let effects = engine.handle(.fix(fix), now: fix.time ?? 0)
                for effect in effects { if case .deliver = effect { n &+= 1 } }
            }
        }
        let elapsed = cpuSeconds() - t0
        best = max(best, Double(fixes.count * count) / elapsed)
        delivered = n
    }
    return Result(decisionsPerSecond: best, delivered: delivered)
}

func measureGeodesic(pairs: Int) -> Double {
    let track = makeTrack(count: pairs + 1, seed: 7)
    var sum = 0.0
    let t0 = cpuSeconds()
    for k in 0..<pairs {
        let a = track[k], b = track[k + 1]
        sum += Geodesy.distance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
    }
    let elapsed = cpuSeconds() - t0
    if sum.isNaN { print("impossible: NaN distance") }
    return Double(pairs) / elapsed
}

func millions(_ x: Double) -> String {
    let tenths = (x / 100_000).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10) M/s"
}

print("locationd engine benchmark: decisions (fixes × clients) per CPU second, best of 5 runs")
let long = makeTrack(count: 1_000_000, seed: 1)
let short = Array(long.prefix(100_000))
let tiny = Array(long.prefix(10_000))
for (label, clients, fixes) in [("1 client ", 1, long), ("10 clients", 10, short), ("100 clients", 100, tiny)] {
    let withFilter = measure(clients: clients, fixes: fixes, filter: 5)
    let without = measure(clients: clients, fixes: fixes, filter: nil)
    print(
        "\(label): distance filter 5 m \(millions(withFilter.decisionsPerSecond)) (\(withFilter.delivered / clients) of \(fixes.count) fixes delivered per client); no filter \(millions(without.decisionsPerSecond))"
    )
}
let fresh = measure(clients: 1, fixes: long, filter: 5, reuseBuffer: false)
print("1 client , distance filter 5 m, a new [Effect] per input: \(millions(fresh.decisionsPerSecond))")
let reduced = measure(clients: 1, fixes: long, filter: 5, precise: false)
print("1 client, reduced accuracy: \(millions(reduced.decisionsPerSecond)) (\(reduced.delivered) delivered)")
print("Geodesy.distance (Vincenty, full solve): \(millions(measureGeodesic(pairs: 1_000_000)))")
