import LocationValues

/// Each receiver's sky as gpsd listed it last. gpsd sends two kinds of SKY:
/// one with the satellite list (after the receiver's GSV cycle, or its
/// binary equivalent) and, between them, ones with DOPs alone (after a GSA).
/// A DOPs-only SKY says nothing about the satellites, so the list and counts
/// of the receiver's last SKY that had them stand, with the new DOPs (a DOP
/// it leaves out is unknown, not the previous one's) — unless that list is
/// more than `staleAfter` seconds of receiver time older, or either view has
/// no time.
///
/// Pure; one per gpsd connection, on its reader thread.
public struct GPSDSkyViews: Sendable {
    /// Seconds of receiver time after which a satellite list no longer stands for a DOPs-only SKY.
    public static let staleAfter = 5.0
    /// Receivers remembered at most (gpsd serves a few); more are not merged.
    public static let maximumReceivers = 16

    private var listed: [String: SkyView] = [:]

    /// Nothing seen yet.
    public init() {}

    /// `view` (one SKY, its `device` set) as the receiver's sky now.
    public mutating func take(_ view: SkyView) -> SkyView {
        let device = view.device ?? ""
        if !view.satellites.isEmpty || view.satellitesVisible != nil {
            if listed[device] != nil || listed.count < Self.maximumReceivers { listed[device] = view }
            return view
        }
        guard let last = listed[device], let time = view.time, let listedAt = last.time,
            time >= listedAt, time - listedAt <= Self.staleAfter
        else { return view }
        var merged = last
        merged.time = view.time
        merged.hdop = view.hdop
        merged.pdop = view.pdop
        merged.vdop = view.vdop
        return merged
    }
}
