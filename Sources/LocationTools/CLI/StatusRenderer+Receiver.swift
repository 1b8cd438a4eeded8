import LocationProtocol
import LocationValues

/// The receiver's own lines of `locationctl status`: where it is (for those
/// allowed to see it) and what it says about its sky.
extension StatusRenderer {
    /// Seconds after which the sky line says how old it is.
    static let skyAgeShown = 5.0

    /// ` (/dev/ttyACM0)`: the receiver a line's figures come from, when several are known
    /// (with one, every line is its); `""` when one is, or the line does not say whose.
    static func naming(_ device: String?, _ status: EngineStatus) -> String {
        guard status.receivers.count > 1, let device else { return "" }
        return device.isEmpty ? " (the unnamed receiver)" : " (\(device))"
    }

    /// `position: 52.3765432,4.8954321, altitude 3.3 m` for a reader who may see it;
    /// `position: not shown — …` (why) for one who may not; `nil` without a fix.
    static func positionLine(_ status: EngineStatus) -> String? {
        guard let fix = status.lastFix, fix.mode == .twoD || fix.mode == .threeD else { return nil }
        let label = (status.source == .fix ? "position" : "last position") + naming(fix.device, status)
        // `lastFix` always had a position: without one, the daemon withheld it (Disclosure).
        guard fix.latitude.isFinite, fix.longitude.isFinite else {
            let why = status.services
                ? "only root and members of the socket group see it" : "no one sees it while Location Services are off"
            return "\(label): not shown — \(why)"
        }
        var line = "\(label): " + TextFormat.position(latitude: fix.latitude, longitude: fix.longitude)
        if let altitude = fix.altitude, altitude.isFinite, fix.mode == .threeD {
            line += ", altitude " + (FixedDecimal.format(altitude, decimals: 1) ?? "?") + " m"
        }
        return line
    }

    /// `sky: 9 of 14 satellites used, HDOP 0.87, PDOP 1.67, VDOP 1.42` (with its age when
    /// older than `skyAgeShown`); `nil` when the source reported no sky view.
    static func skyLine(_ report: StatusReport) -> String? {
        guard let sky = report.sky, !sky.isEmpty else { return nil }
        var line = "sky\(naming(sky.device, report.status)): " + skyCounts(sky)
        if let age = report.skyAge, age >= skyAgeShown { line += " (\(TextFormat.duration(age)) ago)" }
        return line
    }

    /// `9 of 14 satellites used, HDOP 0.87, PDOP 1.67, VDOP 1.42`, each part when known.
    static func skyCounts(_ sky: SkyView) -> String {
        var parts: [String] = []
        switch (sky.satellitesUsed, sky.satellitesVisible) {
        case (let used?, let seen?): parts.append("\(used) of \(seen) satellites used")
        case (let used?, nil): parts.append("\(used) satellite\(used == 1 ? "" : "s") used")
        case (nil, let seen?): parts.append("\(seen) satellite\(seen == 1 ? "" : "s") in view")
        case (nil, nil): break
        }
        for (name, value) in [("HDOP", sky.hdop), ("PDOP", sky.pdop), ("VDOP", sky.vdop)] {
            if let value { parts.append("\(name) " + (FixedDecimal.format(value, decimals: 2) ?? "?")) }
        }
        return parts.joined(separator: ", ")
    }
}
