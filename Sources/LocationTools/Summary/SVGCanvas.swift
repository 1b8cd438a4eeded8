import LocationValues

/// The bytes of an SVG document being written, with the pieces every part of a plot uses: text
/// as it is, text escaped for XML, numbers to a tenth of a pixel, `<text>` elements.
struct SVGCanvas {
    /// The document so far, UTF-8.
    private(set) var bytes: [UInt8] = []

    /// An empty document with room for `capacity` bytes.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Markup, as it is.
    mutating func raw(_ text: String) { ByteText.append(text, to: &bytes) }

    /// Content, escaped for XML.
    mutating func xml(_ text: String) { ByteText.appendXML(text, to: &bytes) }

    /// A coordinate or length, to one decimal (0 for one that is not finite).
    mutating func number(_ value: Double) { _ = FixedDecimal.append(value.isFinite ? value : 0, decimals: 1, to: &bytes) }

    /// One byte of markup (`"`, `>`, a space, a newline).
    mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    /// `<text x="…" y="…"ATTRIBUTES>CONTENT</text>`, the content escaped for XML.
    mutating func text(_ content: String, x: Double, y: Double, attributes: String = "") {
        raw(#"<text x=""#)
        number(x)
        raw(#"" y=""#)
        number(y)
        byte(UInt8(ascii: "\""))
        raw(attributes)
        byte(UInt8(ascii: ">"))
        xml(content)
        raw("</text>")
    }

    /// A name on the map, with a white halo that keeps it readable over the track, and a newline.
    mutating func label(_ content: String, x: Double, y: Double) {
        let halo = ##" font-size="13" fill="#222222" stroke="#ffffff" stroke-width="3" paint-order="stroke""##
        text(content, x: x, y: y, attributes: halo)
        byte(0x0A)
    }
}
