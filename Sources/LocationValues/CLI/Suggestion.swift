/// "Did you mean …?": the accepted word closest to a mistyped one.
package enum Suggestion {
    /// The candidate nearest to `word` by edit distance (a swap of two
    /// neighbouring letters counts as one edit), if it is near enough to be a
    /// plausible typo, or the only candidate `word` is a prefix of.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased().utf8)
        guard !typed.isEmpty else { return nil }
        var best: (word: String, distance: Int)?
        var tied = false
        for candidate in candidates {
            let d = distance(typed, Array(candidate.utf8))
            let current = best?.distance ?? Int.max
            if d < current {
                best = (candidate, d)
                tied = false
            } else if d == current, let held = best {
                // Equally near: a candidate the word begins ("of" → "off") wins; otherwise it is a guess.
                let heldIsPrefixed = held.word.utf8.starts(with: typed)
                let isPrefixed = candidate.utf8.starts(with: typed)
                if isPrefixed && !heldIsPrefixed {
                    best = (candidate, d)
                    tied = false
                } else if isPrefixed == heldIsPrefixed {
                    tied = true
                }
            }
        }
        if let best, !tied, best.distance > 0, best.distance <= max(1, min(3, typed.count / 3)) { return best.word }
        let prefixed = candidates.filter { $0.utf8.starts(with: typed) }
        if typed.count >= 2, prefixed.count == 1 { return prefixed[0] }
        return nil
    }

    /// ` (did you mean "x"?)`, or an empty string when nothing is close.
    package static func phrase(for word: String, among candidates: [String]) -> String {
        guard let match = closest(to: word, among: candidates) else { return "" }
        return " (did you mean \"\(match)\"?)"
    }

    /// Optimal string alignment distance: insertions, deletions,
    /// substitutions and transpositions of neighbours each cost one.
    package static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, previous2[j - 2] + 1) }
                current[j] = d
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
