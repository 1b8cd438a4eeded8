#if canImport(Glibc)
import Glibc
#endif

/// A fresh private directory under the temporary directory, removed with
/// everything in it when the value goes away.
public final class ScratchDirectory: Sendable {
    /// The directory.
    public let path: String

    /// Makes `locationd-LABEL-XXXXXX` in the temporary directory.
    public init(_ label: String = "io") throws(SupportError) {
        path = try FileIO.makeTemporaryDirectory(label)
    }

    deinit {
        FileIO.removeTree(path)
    }

    /// `path/name`.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `bytes` to `name`, replacing it; returns the file's path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws(SupportError) -> String {
        let target = file(name)
        try FileIO.write(target, bytes)
        return target
    }

    /// Writes UTF-8 `text` to `name`, replacing it; returns the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws(SupportError) -> String {
        try write(name, Array(text.utf8))
    }

    /// The bytes of `name` (relative to the directory, or absolute).
    public func read(_ name: String) throws(SupportError) -> [UInt8] {
        try FileIO.read(resolve(name))
    }

    /// The UTF-8 text of `name`.
    public func text(_ name: String) throws(SupportError) -> String {
        String(decoding: try read(name), as: UTF8.self)
    }

    /// Whether something exists at `name`.
    public func exists(_ name: String) -> Bool {
        FileIO.exists(resolve(name))
    }

    /// The names in the directory, sorted.
    public func entries() throws(SupportError) -> [String] {
        try FileIO.list(path)
    }

    private func resolve(_ name: String) -> String {
        name.hasPrefix("/") ? name : file(name)
    }
}
