/// GeoClue's accuracy levels (`RequestedAccuracyLevel`, `AvailableAccuracyLevel`)
/// and what locationd makes of them (docs/geoclue.md, "Accuracy"): every level is
/// served from the receiver; the question is only full or reduced.
enum GeoClueLevel {
    /// NONE.
    static let none: UInt32 = 0
    /// COUNTRY.
    static let country: UInt32 = 1
    /// CITY.
    static let city: UInt32 = 4
    /// NEIGHBORHOOD.
    static let neighborhood: UInt32 = 5
    /// STREET.
    static let street: UInt32 = 6
    /// EXACT.
    static let exact: UInt32 = 8

    /// Whether an app asking for `level` gets no more than the reduced position: COUNTRY, CITY
    /// and NEIGHBORHOOD (a grid of about 2 km is the nearest the model has to "about a
    /// neighbourhood"); STREET and EXACT need the full position, a street cannot be found on that
    /// grid. The person's choice still caps it: a client set to reduced gets reduced at every level.
    static func wantsReduced(_ level: UInt32) -> Bool {
        level <= neighborhood
    }
}
