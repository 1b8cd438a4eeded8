import Testing
@testable import LocationCore
@testable import LocationProtocol

/// The ranking rule (docs/sources.md, "Several receivers") as a table: mode first, then the
/// horizontal estimate; "clearly better" needs a factor of 2 and 5 m, or a mode or an estimate step.
@Suite struct ReceiverRankTests {
    typealias Q = ReceiverQuality

    static let table: [(challenger: Q, current: Q, above: Bool, verdict: ReceiverRank.Verdict)] = [
        (Q(mode: .threeD, horizontalError: 30), Q(mode: .twoD, horizontalError: 3), true, .clearlyBetter(metres: nil)),
        (Q(mode: .twoD, horizontalError: 3), Q(mode: .threeD, horizontalError: 30), false, .notBetter),
        (Q(mode: .threeD, horizontalError: 3), Q(mode: .threeD, horizontalError: 12), true, .clearlyBetter(metres: 9)),
        (Q(mode: .threeD, horizontalError: 5), Q(mode: .threeD, horizontalError: 10), true, .clearlyBetter(metres: 5)),
        // A factor of 2 but under 5 m: not worth a jump in the track.
        (Q(mode: .threeD, horizontalError: 1.2), Q(mode: .threeD, horizontalError: 2.6), true, .slightlyBetter),
        // 5 m but not a factor of 2.
        (Q(mode: .threeD, horizontalError: 20), Q(mode: .threeD, horizontalError: 26), true, .slightlyBetter),
        (Q(mode: .threeD, horizontalError: 8), Q(mode: .threeD, horizontalError: 8), false, .notBetter),
        (Q(mode: .threeD, horizontalError: 9), Q(mode: .threeD, horizontalError: 8), false, .notBetter),
        // An estimate beats none (DOP 0.00 or empty); none never beats an estimate.
        (Q(mode: .threeD, horizontalError: 40), Q(mode: .threeD, horizontalError: nil), true, .clearlyBetter(metres: nil)),
        (Q(mode: .threeD, horizontalError: nil), Q(mode: .threeD, horizontalError: 40), false, .notBetter),
        (Q(mode: .threeD, horizontalError: nil), Q(mode: .threeD, horizontalError: nil), false, .notBetter),
        (Q(mode: .threeD, horizontalError: nil), Q(mode: .twoD, horizontalError: 2), true, .clearlyBetter(metres: nil)),
    ]

    @Test(arguments: table.indices)
    func ranksByModeThenEstimate(row: Int) {
        let r = Self.table[row]
        #expect(ReceiverRank.ranksAbove(r.challenger, r.current) == r.above, "row \(row)")
        #expect(ReceiverRank.compare(r.challenger, with: r.current) == r.verdict, "row \(row)")
    }

    @Test(arguments: table.indices)
    func clearlyBetterImpliesRankingAbove(row: Int) {
        let r = Self.table[row]
        if case .clearlyBetter = ReceiverRank.compare(r.challenger, with: r.current) {
            #expect(ReceiverRank.ranksAbove(r.challenger, r.current))
        }
    }
}
