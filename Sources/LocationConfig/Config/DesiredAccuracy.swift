/// Core Location's `desiredAccuracy`: fixes with a larger horizontal error estimate are not delivered.
public enum DesiredAccuracy: Sendable, Hashable, CustomStringConvertible {
    /// `kCLLocationAccuracyBestForNavigation`: no accuracy gate.
    case bestForNavigation
    /// `kCLLocationAccuracyBest`: no accuracy gate.
    case best
    /// `kCLLocationAccuracyNearestTenMeters`: 10 m.
    case tenMeters
    /// `kCLLocationAccuracyHundredMeters`: 100 m.
    case hundredMeters
    /// `kCLLocationAccuracyKilometer`: 1000 m.
    case kilometer
    /// `kCLLocationAccuracyThreeKilometers`: 3000 m.
    case threeKilometers
    /// A number of metres.
    case meters(Double)
    /// `kCLLocationAccuracyReduced`: the app wants no more than the reduced position, whatever
    /// accuracy the person allowed (docs/authorization.md §6); no gate on the estimate.
    case reduced

    /// The largest horizontal error estimate that passes, or `nil` for no gate.
    public var limit: Double? {
        switch self {
        case .bestForNavigation, .best, .reduced: nil
        case .tenMeters: 10
        case .hundredMeters: 100
        case .kilometer: 1000
        case .threeKilometers: 3000
        case .meters(let m): m
        }
    }

    /// The config-file word (`kilometer`, `best`, or the number of metres).
    public var description: String {
        switch self {
        case .bestForNavigation: "best-for-navigation"
        case .best: "best"
        case .tenMeters: "ten-meters"
        case .hundredMeters: "hundred-meters"
        case .kilometer: "kilometer"
        case .threeKilometers: "three-kilometers"
        case .reduced: "reduced"
        case .meters(let m): m == m.rounded() && abs(m) < 1e15 ? String(Int64(m)) : String(m)
        }
    }

    /// The accepted config words, for error messages.
    public static let words = [
        "best-for-navigation", "best", "ten-meters", "hundred-meters", "kilometer", "three-kilometers", "reduced",
    ]

    /// Parses a config word or a non-negative number of metres.
    public init?(word: String) {
        switch word {
        case "best-for-navigation": self = .bestForNavigation
        case "best": self = .best
        case "ten-meters": self = .tenMeters
        case "hundred-meters": self = .hundredMeters
        case "kilometer": self = .kilometer
        case "three-kilometers": self = .threeKilometers
        case "reduced": self = .reduced
        default:
            guard let m = Double(word), m.isFinite, m >= 0 else { return nil }
            self = .meters(m)
        }
    }
}
