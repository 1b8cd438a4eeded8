/// What `summary --reference` and `plot --reference` measure fixes from:
/// a surveyed mark, or each receiver's own mean position (precision without a survey).
public enum SurveyReference: Sendable, Hashable {
    /// A surveyed mark: degrees north and east (WGS-84), metres above mean sea level when given.
    case mark(latitude: Double, longitude: Double, altitude: Double?)
    /// Each receiver's mean position (see `ReceiverAccuracy`).
    case mean

    /// The reference `text` names (`LAT,LON[,ALT]` or `mean`), or a sentence saying what is wrong.
    public static func parse(_ text: String) -> Result<SurveyReference, ReferenceError> {
        if text.lowercased() == "mean" { return .success(.mean) }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Self.trimmed($0) }
        guard parts.count == 2 || parts.count == 3 else {
            return .failure(ReferenceError("--reference must be LAT,LON[,ALT] in degrees (and metres) or mean, not \"\(text)\""))
        }
        let numbers = parts.map { Double($0) }
        guard let lat = numbers[0], lat.isFinite, abs(lat) <= 90 else {
            return .failure(ReferenceError("--reference: latitude must be a number of degrees from -90 to 90, not \"\(parts[0])\""))
        }
        guard let lon = numbers[1], lon.isFinite, abs(lon) <= 180 else {
            return .failure(ReferenceError("--reference: longitude must be a number of degrees from -180 to 180, not \"\(parts[1])\""))
        }
        var alt: Double?
        if parts.count == 3 {
            guard let value = numbers[2], value.isFinite, abs(value) < 100_000 else {
                return .failure(ReferenceError("--reference: altitude must be a number of metres, not \"\(parts[2])\""))
            }
            alt = value
        }
        return .success(.mark(latitude: lat, longitude: lon, altitude: alt))
    }

    /// Why a `--reference` value was refused.
    public struct ReferenceError: Error, Sendable, Hashable {
        /// The sentence for the user.
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// `part` without the blanks around it (`35.68, 139.76` is accepted).
    static func trimmed(_ part: Substring) -> String {
        var s = part
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
