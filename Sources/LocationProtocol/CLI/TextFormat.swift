import LocationValues

/// Small formatting pieces the renderers share.
package enum TextFormat {
    /// `2 s`, `45 s`, `3 min`, `1 h 5 min`, `2 d 3 h`.
    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let s = Int(max(0, seconds).rounded())
        if s < 90 { return "\(s) s" }
        let minutes = s / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }

    /// `±4.8 m` (one decimal below 100 m, whole metres above).
    package static func error(_ metres: Double) -> String {
        guard metres.isFinite else { return "±? m" }
        let digits = metres < 100 ? 1 : 0
        return "±" + (FixedDecimal.format(metres, decimals: digits) ?? "?") + " m"
    }

    /// `23:50:01` (UTC).
    package static func clock(_ seconds: Double) -> String {
        guard UTCTime.isWritable(seconds) else { return "--:--:--" }
        let text = UTCTime.format(seconds, fractionDigits: 0)
        let start = text.index(text.startIndex, offsetBy: 11)
        return String(text[start..<text.index(start, offsetBy: 8)])
    }

    /// `2026-03-14 23:50:01 UTC`.
    package static func dateTime(_ seconds: Double) -> String {
        guard UTCTime.isWritable(seconds) else { return "unknown time" }
        let text = UTCTime.format(seconds, fractionDigits: 0)
        return text.replacingFirst("T", with: " ").dropLast() + " UTC"
    }

    /// `52.3765432,4.8954321`.
    package static func position(latitude: Double, longitude: Double) -> String {
        (FixedDecimal.format(latitude, decimals: 7) ?? "?") + "," + (FixedDecimal.format(longitude, decimals: 7) ?? "?")
    }

    /// `while-using (once), full accuracy`.
    package static func authorization(_ a: ClientAuthorization) -> String {
        a.statusDescription + ", " + accuracy(a.accuracy)
    }

    /// `full accuracy`, `reduced accuracy`, `temporary full accuracy (survey)`.
    package static func accuracy(_ accuracy: AccuracyAuthorization) -> String {
        switch accuracy {
        case .full: "full accuracy"
        case .reduced: "reduced accuracy"
        case .temporaryFull(let purpose): "temporary full accuracy (\(purpose))"
        }
    }

    /// `locationctl answer logger allow-once | allow-while-using | deny`.
    package static func answers(_ prompt: Prompt) -> String {
        Command.answerLine(prompt, separator: " | ")
    }

    /// What a prompt asks, for people.
    package static func promptKind(_ kind: PromptKind) -> String {
        switch kind {
        case .whileUsing: "while-using authorization"
        case .always: "always authorization"
        case .alwaysUpgrade: "change to always"
        case .fullAccuracy: "temporary full accuracy"
        case .share: "the location button, first use"
        }
    }
}

extension String {
    /// The string with the first `target` replaced.
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let i = firstIndex(of: target) else { return self }
        return String(self[..<i]) + replacement + String(self[index(after: i)...])
    }
}
