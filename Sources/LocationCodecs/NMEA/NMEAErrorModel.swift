/// The receiver's error estimates as gpsd derives them for NMEA receivers
/// (`gpsd_error_model()` in gpsd 3.22): a dilution of precision times a
/// user-equivalent range error (UERE) in metres at 95 % confidence, smaller
/// when the fix is differential.
///
/// gpsd does not use GST's standard deviations for `eph` (3.22 and later
/// alike: GST only feeds its own `GST` report), so neither do we: matching
/// gpsd's `eph` is what `desired_accuracy` thresholds written for gpsd expect.
enum NMEAErrorModel {
    /// Horizontal: gpsd multiplies HDOP by its "P" (position) UERE.
    static let horizontalUERE = 19.0
    /// Horizontal, differential fix.
    static let horizontalUEREDifferential = 4.75
    /// Vertical: VDOP times this.
    static let verticalUERE = 23.0
    /// Vertical, differential fix.
    static let verticalUEREDifferential = 5.75

    /// gpsd's `eph` in metres from HDOP, or `nil` without a usable HDOP.
    static func horizontalError(hdop: Double?, differential: Bool) -> Double? {
        guard let hdop, hdop > 0, hdop.isFinite else { return nil }
        return hdop * (differential ? horizontalUEREDifferential : horizontalUERE)
    }

    /// gpsd's `epv` in metres from VDOP, or `nil` without a usable VDOP.
    static func verticalError(vdop: Double?, differential: Bool) -> Double? {
        guard let vdop, vdop > 0, vdop.isFinite else { return nil }
        return vdop * (differential ? verticalUEREDifferential : verticalUERE)
    }
}
