import MicCheck
import MicCheckTerminal
import Testing

@Suite struct LiveMeterLineTests {
    @Test("-30 dBFS fills half the bar; the level is right-aligned in six columns")
    func halfLevel() {
        let line = LiveMeterLine(time: 1.5, levelDB: -30, speaking: false)
        #expect(line.filledCells == 15)
        #expect(
            line.text == "1.50 s  [" + String(repeating: "█", count: 15) + String(repeating: "·", count: 15)
                + "]  -30.0 dBFS          ")
    }

    @Test("speaking at full scale with the muted notice showing")
    func speakingWhileMuted() {
        let line = LiveMeterLine(time: 12.345, levelDB: 0, speaking: true, mutedNotice: true)
        #expect(
            line.text == "12.35 s  [" + String(repeating: "█", count: 30)
                + "]    0.0 dBFS  speaking  \u{1B}[1mYou are muted.\u{1B}[0m")
    }

    @Test("silence below the bar: an empty bar, -inf at the floor, the same length as a line with a level")
    func floor() {
        let quiet = LiveMeterLine(time: 0, levelDB: -75.25, speaking: false)
        #expect(quiet.filledCells == 0)
        #expect(quiet.text == "0.00 s  [" + String(repeating: "·", count: 30) + "]  -75.3 dBFS          ")
        let dead = LiveMeterLine(time: 0, levelDB: Decibels.floor, speaking: false)
        #expect(dead.text == "0.00 s  [" + String(repeating: "·", count: 30) + "]   -inf dBFS          ")
        #expect(dead.text.count == quiet.text.count)
        // A cell is 2 dB, rounded.
        #expect(LiveMeterLine(time: 0, levelDB: -0.5, speaking: false).filledCells == 30)
        #expect(LiveMeterLine(time: 0, levelDB: -2, speaking: false).filledCells == 29)
    }
}
