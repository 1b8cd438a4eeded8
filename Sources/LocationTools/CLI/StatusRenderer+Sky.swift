import LocationProtocol
import LocationValues

/// `locationctl status --sky`: each receiver's satellites as a table, as
/// cgps lists them, or why there is none.
extension StatusRenderer {
    /// A heading and a table per receiver (PRN, constellation and number,
    /// elevation, azimuth, SNR, used), or a sentence saying why there is none.
    public static func renderSky(_ report: StatusReport) -> String {
        guard report.status.services else {
            return "no satellites shown: Location Services are off, and no one sees them then (\(Command.services(on: true).commandLine))\n"
        }
        guard !report.skies.isEmpty else {
            return "no satellites: the source has sent no sky view yet\n"
        }
        // `lastFix` always has a position: without one, the daemon withheld it, and the satellites with it.
        let withheld = report.status.lastFix.map { !$0.latitude.isFinite || !$0.longitude.isFinite } ?? false
        var lines: [String] = []
        for sky in report.skies {
            if !lines.isEmpty { lines.append("") }
            lines.append(heading(sky))
            if sky.view.satellites.isEmpty {
                lines.append(
                    withheld
                        ? "  satellites not shown — only root and members of the socket group see them (their geometry narrows the position)"
                        : "  no satellites listed (the receiver reported none, or they are withheld: only root and members of the socket group see them)")
                continue
            }
            lines.append("    PRN  gnss          el    az   SNR  used")
            for satellite in sky.view.satellites { lines.append(row(satellite)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `receiver /dev/ttyACM0 (2 s ago): 9 of 14 satellites used, HDOP 0.87`.
    static func heading(_ sky: SkyReport) -> String {
        var line = "receiver " + ((sky.view.device ?? "").isEmpty ? "(unnamed)" : sky.view.device ?? "")
        if let age = sky.age, age >= skyAgeShown { line += " (\(TextFormat.duration(age)) ago)" }
        let counts = skyCounts(sky.view)
        return counts.isEmpty ? line : line + ": " + counts
    }

    /// One satellite: numbers right-aligned, unknown values as `-`.
    static func row(_ satellite: Satellite) -> String {
        func cell(_ value: Double?, _ width: Int) -> String {
            pad(value.map { FixedDecimal.format($0, decimals: 0) ?? "?" } ?? "-", width)
        }
        var gnss = "-"
        if let id = satellite.gnssID, let sv = satellite.svID { gnss = "\(constellation(id)) \(sv)" }
        var row = pad(String(satellite.prn), 7) + "  " + gnss
        row += String(repeating: " ", count: max(0, 12 - gnss.count))
        row += cell(satellite.elevation, 4)
        row += cell(satellite.azimuth, 6)
        row += cell(satellite.snr, 6)
        return row + "  " + (satellite.used ? "yes" : "no")
    }

    /// u-blox's constellation ids by name.
    static func constellation(_ id: Int) -> String {
        switch id {
        case 0: "GPS"
        case 1: "SBAS"
        case 2: "Galileo"
        case 3: "BeiDou"
        case 4: "IMES"
        case 5: "QZSS"
        case 6: "GLONASS"
        case 7: "NavIC"
        default: "gnss \(id)"
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
