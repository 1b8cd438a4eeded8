/// The Swift side of a library a shim opens on first use rather than links
/// (CSupport's csupport_library.h: libmosquitto for `MQTTLibrary`, libgps for
/// `GPSDLibrary`): a shim's load or check call, which leaves its reason in a
/// buffer when it fails.
enum LoadedLibrary {
    /// Calls `body` with a message buffer and its capacity; its result, and the
    /// message the shim wrote (empty when it wrote none).
    static func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (result: Int32, message: String) {
        var message = [CChar](repeating: 0, count: 512)
        let result = message.withUnsafeMutableBufferPointer { buffer in body(buffer.baseAddress!, buffer.count) }
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (result, text)
    }
}
