/// A calendar day (days since 1970-01-01) and the time of day it was given
/// with: what carries the date to epochs whose sentences have none.
struct NMEADateReference: Sendable, Hashable {
    var day: Int
    var timeOfDay: Int64

    /// The day of `timeOfDay`, taken as the instant nearest to this
    /// reference: more than 12 h earlier in the day means the next day (the
    /// clock passed midnight), more than 12 h later means the previous day.
    func day(for timeOfDay: Int64) -> Int {
        let half: Int64 = 43_200 * 1_000_000_000
        let delta = timeOfDay - self.timeOfDay
        if delta < -half { return day + 1 }
        if delta > half { return day - 1 }
        return day
    }
}
