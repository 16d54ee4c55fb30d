import Logging
import MicCheckTerminal
import Synchronization
import Testing

@Suite("SentenceLogHandler: a library's log as lines for the person at the terminal")
struct SentenceLogHandlerTests {
    final class Lines: Sendable {
        let kept = Mutex<[String]>([])
        var all: [String] { kept.withLock { $0 } }
        func add(_ line: String) { kept.withLock { $0.append(line) } }
    }

    @Test("each message is one line with the tool's name and one full stop; below the level, nothing")
    func lines() {
        let lines = Lines()
        let logger = Logger.sentences(level: .info) { lines.add($0) }
        logger.warning("the ducking journal /s/1.json is damaged", metadata: ["ducking.journal": "/s/1.json"])
        logger.info("listening to USB Microphone (usb) now.")
        logger.debug("ducking Music by 30 dB")
        #expect(
            lines.all == [
                "miccheck: the ducking journal /s/1.json is damaged.",
                "miccheck: listening to USB Microphone (usb) now.",
            ])
    }

    @Test("another tool's name, and a level set later on the logger")
    func prefixAndLevel() {
        let lines = Lines()
        var logger = Logger.sentences(label: "myapp", level: .error) { lines.add($0) }
        logger.warning("not shown")
        logger.logLevel = .debug
        logger.debug("shown")
        #expect(lines.all == ["myapp: shown."])
    }
}
