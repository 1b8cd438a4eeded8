/// A coding-path element that `JSONValueEncoder` and `JSONValueDecoder` make
/// themselves: an array position, or `super`.
struct JSONIndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
