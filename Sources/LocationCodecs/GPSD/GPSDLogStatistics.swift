/// Counts of what a `GPSDLogParser` has read, for `locationd replay`'s summary.
///
/// Every line is counted once, by what it was, so that `lines == blank + tpv
/// + sky + otherClasses + nmea + comments + unreadable + cutOff`; the TPVs
/// are then counted by what became of them in the epoch assembly.
public struct GPSDLogStatistics: Sendable, Hashable {
    /// Lines read (the last one too when the file does not end with a line end).
    public var lines = 0
    /// Lines of nothing but white space.
    public var blank = 0
    /// TPV reports read.
    public var tpv = 0
    /// SKY reports read.
    public var sky = 0
    /// Reports of the classes not used, by class name (VERSION, DEVICES, DEVICE, WATCH, GST, PPS…).
    public var classes: [String: Int] = [:]
    /// NMEA sentences beside the JSON (`gpspipe -w -r`): not read, the reports are.
    public var nmea = 0
    /// `#` comment lines.
    public var comments = 0
    /// Lines that are not a gpsd report (not JSON, no class, a member of the wrong type, an unreadable time).
    public var unreadable = 0
    /// A last line without a line end that is not a whole report (the recording was cut off): 0 or 1.
    public var cutOff = 0
    /// Of the TPVs, those with a value no receiver can mean (their epochs are not usable).
    public var outOfRange = 0
    /// Of the TPVs, those without a time (never a fix).
    public var timeless = 0
    /// Of the TPVs, those for an epoch already delivered (dropped).
    public var late = 0
    /// Epochs turned into fixes (any mode).
    public var epochs = 0
    /// Of those, fixes that are usable (2D/3D, position, time, values in their domain).
    public var usableFixes = 0
    /// Epochs per receiver, in the order the receivers first reported (the receiver as the fixes name it).
    public var receivers: [Receiver] = []

    /// One receiver's epochs.
    public struct Receiver: Sendable, Hashable {
        /// The receiver (TPV `device`, or the log's path for a TPV naming none; "" on standard input).
        public var device: String
        /// Its epochs turned into fixes.
        public var epochs: Int
        /// Of those, usable ones.
        public var usableFixes: Int

        /// A receiver's counts.
        public init(device: String, epochs: Int, usableFixes: Int) {
            self.device = device
            self.epochs = epochs
            self.usableFixes = usableFixes
        }
    }

    /// All zero.
    public init() {}

    /// Reports of the classes not used, all together.
    public var otherClasses: Int { classes.values.reduce(0, +) }

    /// Whether every line is counted once: the sum above holds.
    public var addsUp: Bool {
        lines == blank + tpv + sky + otherClasses + nmea + comments + unreadable + cutOff
    }

    /// The counts of two logs together (a replay of several recordings).
    public static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.lines += rhs.lines
        sum.blank += rhs.blank
        sum.tpv += rhs.tpv
        sum.sky += rhs.sky
        sum.classes.merge(rhs.classes, uniquingKeysWith: +)
        sum.nmea += rhs.nmea
        sum.comments += rhs.comments
        sum.unreadable += rhs.unreadable
        sum.cutOff += rhs.cutOff
        sum.outOfRange += rhs.outOfRange
        sum.timeless += rhs.timeless
        sum.late += rhs.late
        sum.epochs += rhs.epochs
        sum.usableFixes += rhs.usableFixes
        for receiver in rhs.receivers {
            if let i = sum.receivers.firstIndex(where: { $0.device == receiver.device }) {
                sum.receivers[i].epochs += receiver.epochs
                sum.receivers[i].usableFixes += receiver.usableFixes
            } else {
                sum.receivers.append(receiver)
            }
        }
        return sum
    }
}
