import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system's temporary directory, removed with
/// everything in it when the value goes away. Used by the IO tests.
final class ScratchDirectory {
    let path: String

    init(_ label: String = "io") throws {
        var template = Array("\(NSTemporaryDirectory())/locationd-\(label)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        path = String(cString: made)
    }

    deinit {
        // Tests may leave read-only or odd entries; make them removable first.
        _ = try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/name`.
    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `bytes` to `name`, replacing it.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Writes UTF-8 `text` to `name`, replacing it.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// The bytes of `name` (relative to the directory, or absolute).
    func read(_ name: String) throws -> [UInt8] {
        try fileBytes(name.hasPrefix("/") ? name : file(name))
    }

    /// The UTF-8 text of `name`.
    func text(_ name: String) throws -> String {
        String(decoding: try read(name), as: UTF8.self)
    }

    /// Whether something exists at `name`.
    func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(name.hasPrefix("/") ? name : file(name), &info) == 0
    }

    /// The names in the directory, sorted.
    func entries() throws -> [String] {
        try Self.list(path)
    }

    /// The names in any directory, sorted.
    static func list(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }
}

/// The bytes of the file at `path`.
func fileBytes(_ path: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
}
