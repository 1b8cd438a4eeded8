/// The version of locationd and locationctl, reported by `--version` and `hello`.
public enum LocationdVersion {
    /// Semantic version of this build.
    public static let string = "0.1.0"
}
