import Testing
@testable import LocationCore
@testable import LocationValues

@Suite struct FixedDecimalTests {
    // Expected values are the exact binary value of each literal rounded by
    // hand (Python's Decimal(float) shows e.g. 1.00000005 is 1.0000000499999…).
    @Test(arguments: [
        (35.681199, "35.6811990"),
        (139.7670669, "139.7670669"),
        (-0.00000004, "0.0000000"),
        (0.00000005, "0.0000000"),
        (1.00000005, "1.0000000"),
        (52.37654325, "52.3765432"),
        (-33.86785005, "-33.8678501"),
        (4.89543215, "4.8954322"),
        (89.99999995, "90.0000000"),
        (179.99999996, "180.0000000"),
        (-179.99999996, "-180.0000000"),
        (-0.0, "0.0000000"),
        (0, "0.0000000"),
        (-90, "-90.0000000"),
        (1e-7, "0.0000001"),
        (-1.5e-7, "-0.0000001"),  // -1.4999999999999999e-7
    ])
    func roundsCoordinatesFromTheExactBinaryValue(value: Double, expected: String) {
        #expect(FixedDecimal.format(value, decimals: 7) == expected)
    }

    @Test func trimsTrailingZerosToTheMinimum() {
        #expect(FixedDecimal.format(40, decimals: 3, minimumDecimals: 1) == "40.0")
        #expect(FixedDecimal.format(0.26, decimals: 3, minimumDecimals: 1) == "0.26")
        #expect(FixedDecimal.format(17.1, decimals: 3, minimumDecimals: 1) == "17.1")
        #expect(FixedDecimal.format(1.0005, decimals: 3, minimumDecimals: 1) == "1.0")  // 1.000499999…
        #expect(FixedDecimal.format(-0.0004, decimals: 3, minimumDecimals: 1) == "0.0")
        #expect(FixedDecimal.format(12345.6789, decimals: 3, minimumDecimals: 1) == "12345.679")
    }

    @Test func roundsMagnitudesJustBelowHalfDown() {
        // -0.5 + 2^-54: `product - floor(product)` rounds to 0.5 here, which once gave "-1".
        #expect(FixedDecimal.format(-0.49999999999999994, decimals: 0) == "0")
        #expect(FixedDecimal.format(0.49999999999999994, decimals: 0) == "0")
        #expect(FixedDecimal.format(-0.5, decimals: 0) == "-1")
    }

    @Test func neverWritesNonFiniteValues() {
        #expect(FixedDecimal.format(.nan, decimals: 7) == nil)
        #expect(FixedDecimal.format(.infinity, decimals: 7) == nil)
        #expect(FixedDecimal.format(-.infinity, decimals: 3) == nil)
        var out: [UInt8] = []
        #expect(!FixedDecimal.append(.nan, decimals: 7, to: &out))
        #expect(out.isEmpty)
    }

    @Test func neverUsesAnExponent() {
        for value in [1e-7, 3e-8, 123456789.123, -9e-9, 1e12] {
            let text = FixedDecimal.format(value, decimals: 7) ?? ""
            #expect(!text.contains("e"), "\(value) → \(text)")
        }
    }

    @Test func agreesWithIntegerRoundingOnManyValues() {
        // Values that are exact in binary (multiples of 2^-10) have exact
        // decimal expansions; compare against rounding done in integers.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let k = Int64(bitPattern: state >> 20) % 200_000_000
            let value = Double(k) / 1024  // exact
            // value * 1000 exact as k*1000/1024 = k*125/128; round half away from zero.
            let numerator = k * 125
            let q = numerator / 128
            let r = numerator % 128
            var units = q
            if abs(r) * 2 >= 128 { units += numerator < 0 ? -1 : 1 }
            #expect(FixedDecimal.scaled(value, decimals: 3) == units, "\(value)")
        }
    }
}
