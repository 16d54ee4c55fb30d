import MicCheck

/// The one-line live meter that `miccheck listen` redraws in place on a terminal: the time, a level bar
/// for -60…0 dBFS, the level, whether the user is speaking, and "You are muted." in bold while the
/// muted notice shows. A plain line with SGR escapes for the bold, no cursor movement: the caller
/// returns to the line's start and clears it before writing it.
public struct LiveMeterLine: Sendable, Equatable {
    /// Cells of the level bar.
    public static let barWidth = 30
    /// The bottom of the bar (dBFS): quieter levels show an empty bar.
    public static let floorDB: Float = -60

    /// Seconds from the start of the capture.
    public var time: Double
    /// The frame's level, dBFS.
    public var levelDB: Float
    /// The user is speaking in this frame.
    public var speaking: Bool
    /// "You are muted." is showing.
    public var mutedNotice: Bool

    /// Makes a meter line; `mutedNotice` is false by default.
    public init(time: Double, levelDB: Float, speaking: Bool, mutedNotice: Bool = false) {
        self.time = time
        self.levelDB = levelDB
        self.speaking = speaking
        self.mutedNotice = mutedNotice
    }

    /// Full cells of the bar: the level's share of -60…0 dBFS, rounded.
    public var filledCells: Int {
        let share = levelDB.isNaN ? 0 : max(0, min(1, (levelDB - Self.floorDB) / -Self.floorDB))
        return Int((share * Float(Self.barWidth)).rounded())
    }

    /// "1.50 s  [███···]  -30.0 dBFS  speaking" (the level right-aligned in six columns, "-inf" at the floor of
    /// `Decibels`; ten spaces in place of "  speaking" so that the line keeps its length).
    public var text: String {
        let filled = filledCells
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: Self.barWidth - filled)
        let db = levelDB <= Decibels.floor ? "-inf" : fixed(Double(levelDB), 1)
        let pad = String(repeating: " ", count: max(0, 6 - db.count))
        var line = formatSeconds(time) + "  [" + bar + "] " + pad + db + " dBFS"
        line += speaking ? "  speaking" : "          "
        if mutedNotice { line += "  \u{1B}[1mYou are muted.\u{1B}[0m" }
        return line
    }
}
