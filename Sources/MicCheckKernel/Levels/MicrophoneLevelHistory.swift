/// The microphone checker's view of the level: the last few levels and their display values.
///
/// Call SDKs keep the last 3 levels and map -50…0 dBFS linearly onto 0…1 for a level bar. This type
/// does the same, with the count configurable. It judges nothing about a dead device: that is
/// ``SilentMicrophoneDetector``'s job, which waits for evidence rather than reading "silent" from one
/// quiet pause.
public struct MicrophoneLevelHistory: Sendable, Equatable {
    /// How many levels are kept.
    public let capacity: Int
    /// The level that maps to 0 on the display.
    public static let displayFloorDB: Float = -50

    private var ring: [Float]
    private var next = 0
    private var filled = 0

    /// A history that keeps the last `capacity` levels (positive; 3 by default, as call SDKs keep).
    public init(capacity: Int = 3) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        ring = [Float](repeating: Decibels.floor, count: capacity)
    }

    /// Adds the newest level (dBFS), dropping the oldest when full.
    public mutating func append(_ levelDB: Float) {
        ring[next] = levelDB
        next = (next + 1) % capacity
        filled = min(filled + 1, capacity)
    }

    /// The kept levels, oldest first.
    public var levels: [Float] {
        (0..<filled).map { ring[(next - filled + $0 + capacity) % capacity] }
    }

    /// The kept levels mapped onto 0…1 for a level bar, oldest first.
    public var displayValues: [Float] { levels.map(Self.displayValue) }

    /// The newest level, if any.
    public var latest: Float? { filled == 0 ? nil : ring[(next - 1 + capacity) % capacity] }

    /// Whether any kept level is above `thresholdDB` (the call-SDK "someone is making sound" rule).
    public func anyAbove(_ thresholdDB: Float = displayFloorDB) -> Bool {
        for i in 0..<filled where ring[(next - 1 - i + capacity) % capacity] > thresholdDB { return true }
        return false
    }

    /// The loudest kept level, if any.
    public var loudest: Float? {
        guard filled > 0 else { return nil }
        var m = -Float.infinity
        for i in 0..<filled { m = max(m, ring[(next - 1 - i + capacity) % capacity]) }
        return m
    }

    /// Maps a level in dBFS onto 0…1: -50 dB and below is 0, 0 dB and above is 1.
    public static func displayValue(_ levelDB: Float) -> Float {
        min(1, max(0, (levelDB - displayFloorDB) / -displayFloorDB))
    }
}
