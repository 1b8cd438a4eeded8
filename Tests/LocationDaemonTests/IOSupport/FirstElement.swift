/// The first element of `stream`, or `nil` if the stream finishes or nothing
/// comes within `seconds` (a safety bound, not a timing assertion).
func firstElement<T: Sendable>(of stream: AsyncStream<T>, within seconds: Double = 5) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
