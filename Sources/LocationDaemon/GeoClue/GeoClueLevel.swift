/// GeoClue's accuracy levels (`RequestedAccuracyLevel`, `AvailableAccuracyLevel`)
/// and what locationd makes of them (docs/geoclue.md, "Accuracy levels"): every
/// level is served from the receiver; the question is only full or reduced.
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

    /// A new client object's `RequestedAccuracyLevel` until its app sets one: CITY, as GeoClue 2.6's.
    static let requestedByDefault = city

    /// The levels GeoClue defines, COUNTRY up.
    private static let defined = [country, city, neighborhood, street, exact]

    /// The level a client object asking for `requested` is served at, as GeoClue 2.6 maps it at
    /// `Start`: below COUNTRY (NONE included) is COUNTRY, above EXACT is EXACT, and a value between
    /// two defined levels is the lower one (2 and 3 COUNTRY, 7 STREET). The property reads back as
    /// the app set it, as GeoClue's does.
    static func served(_ requested: UInt32) -> UInt32 {
        let clamped = min(max(requested, country), exact)
        return defined.last { $0 <= clamped } ?? country
    }

    /// Whether an app asking for `level` gets no more than the reduced position: COUNTRY, CITY
    /// and NEIGHBORHOOD (a grid of about 2 km is the nearest the model has to "about a
    /// neighbourhood"); STREET and EXACT need the full position, a street cannot be found on that
    /// grid. The person's choice still caps it: a client set to reduced gets reduced at every level.
    static func wantsReduced(_ level: UInt32) -> Bool {
        served(level) <= neighborhood
    }
}
