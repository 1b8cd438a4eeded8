import LocationValues

/// The one rule for a GeoClue desktop id, wherever one comes from: a
/// `[client.NAME] geoclue_id` in the configuration, a bus client's
/// `DesktopId` property (checked before the face copies it), an app read back
/// from `geoclue-apps.json`.
///
/// A desktop id is an app's `.desktop` file name without `.desktop`
/// (`org.gnome.Maps`): 1 to 255 bytes of UTF-8 (a file name's limit), with
/// no `/`, no space and no control, format or separator character.
public enum DesktopId {
    /// The longest desktop id, in bytes of UTF-8.
    public static let maximumBytes = 255

    /// The rule in words, for a refusal's message.
    public static let rule =
        "a desktop id is the app's .desktop file name without .desktop: 1 to \(maximumBytes) bytes, "
        + "no '/', spaces or control characters"

    /// Whether `text` is a desktop id.
    public static func isValid(_ text: String) -> Bool {
        let count = text.utf8.count
        return count > 0 && count <= maximumBytes && !text.unicodeScalars.contains(where: isRefused)
    }

    /// Whether `length` bytes could be a desktop id: what the bus face checks before it copies
    /// a `DesktopId` at all.
    public static func fits(length: Int) -> Bool { length > 0 && length <= maximumBytes }

    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "/" || scalar.value <= 0x20 || scalar.properties.isWhitespace || PeerText.isHidden(scalar)
    }
}
