public import MicCheck
import MicCheckCall
public import MicCheckLive

/// Where a report goes: records on standard output, sentences for the person on standard error. `miccheck`'s
/// writer buffers standard output and notices a reader that went away; tests collect the lines.
public protocol ReportOutput: AnyObject {
    /// A record: one line (a newline follows).
    func line(_ s: String)
    /// A frame record as a JSON Lines line (`JSONLines.appendFrame(_:to:)`).
    func write(frame: AnalysisFrame)
    /// Text as it is, with no newline, shown at once: a line redrawn in place.
    func raw(_ s: String)
    /// A sentence for the person, apart from the records (standard error).
    func message(_ s: String)
}

/// What `miccheck listen` shows of a live session: JSON Lines records, or a timeline with a live meter redrawn
/// in place below it on a terminal (``LiveMeterLine``), and "You are muted." when a muted person starts to
/// speak (`MutedSpeechNotice`). Feed it the session's records, the microphones that come and go, and the
/// sentences for the person; it writes each where it belongs, keeping the meter clear of everything else.
///
/// ```swift
/// let display = LiveDisplay(output: output, format: .text, muted: true, terminal: isatty(1) == 1)
/// let ending = session.run { record in display.record(record) }
/// display.finish(input: source.label, dropped: source.droppedSamples, rate: source.sampleRate,
///                ending: ending == .ended ? "the sample ended" : "stopped")
/// ```
///
/// Not thread-safe: one thread (the session's) feeds it.
public final class LiveDisplay {
    /// What the display writes: a timeline for people, or JSON Lines for programs.
    public enum Format: String, Sendable, CaseIterable {
        /// The timeline of events, with the meter on a terminal and the summary on standard output.
        case text
        /// A frame record every 10 ms and event records; the summary goes to standard error.
        case jsonl
    }

    private let output: any ReportOutput
    private let format: Format
    private let terminal: Bool
    private var notice: MutedSpeechNotice
    private var level: Float = Decibels.floor
    private var speaking = false
    private var now = 0.0
    private var lastDraw = -1.0
    private var meterShown = false
    /// The source listened to, named in warnings that suggest changing its volume.
    public var source: String?
    /// The summary of the records so far.
    public private(set) var summary = AnalysisSummary()

    /// - Parameters:
    ///   - muted: the person is muted: "You are muted." when they start to speak (text only).
    ///   - terminal: standard output is a terminal: the text format redraws the meter there (at most 10 times
    ///     a second of audio, and on ``tick()``).
    public init(output: any ReportOutput, format: Format, muted: Bool, terminal: Bool) {
        self.output = output
        self.format = format
        self.terminal = format == .text && terminal
        notice = MutedSpeechNotice(isMuted: muted)
    }

    /// How many times "You are muted." was shown.
    public var mutedNoticesShown: Int { notice.count }

    /// A record of the live session.
    public func record(_ live: LiveRecord) {
        switch live {
        case .analysis(let record): self.record(record)
        case .idle: tick()
        case .audioStarted, .restarted: break
        }
    }

    /// A frame or an event of the analysis.
    public func record(_ record: AnalysisOutput) {
        summary.add(record)
        switch record {
        case .frame(let f):
            now = f.time
            level = f.levelDB
            speaking = f.isSpeaking
            if format == .jsonl {
                output.write(frame: f)
            } else if terminal && now - lastDraw >= 0.1 {
                drawMeter()
            }
        case .event(let e):
            if format == .jsonl {
                output.line(JSONLines.event(e))
                return
            }
            above(Timeline.line(e, source: source))
            if case .speechStarted(let t, _) = e, notice.speechStarted(at: t) {
                above(Timeline.at(t, "You are muted."))
            }
        }
    }

    /// A microphone came or went: `source_added`, `source_removed` and `source_lost` records in jsonl (at the
    /// analysis time of the last frame, so that records stay in time order), a sentence in text.
    public func device(_ change: MicrophoneDeviceChange) {
        let t: (String, JSONValue) = ("t", .number(now, decimals: 2))
        switch change {
        case .appeared(let d):
            if format == .jsonl {
                output.line(JSONLines.object([("event", .string("source_added")), t] + described(d)))
            } else {
                message(
                    "miccheck: a new microphone is available: \(d.label); `miccheck listen --source \(d.id)` listens to it."
                )
            }
        case .removed(let d):
            if format == .jsonl {
                output.line(JSONLines.object([("event", .string("source_removed")), t] + described(d)))
            } else {
                message("miccheck: the microphone \(d.label) was removed.")
            }
        case .fellBack(let lost, let fallback):
            // The sentence came with the microphone's own notice.
            if format == .jsonl {
                output.line(
                    JSONLines.object([
                        ("event", .string("source_lost")), t, ("name", .string(lost.id)),
                        ("fallback", .string(fallback.id)),
                        ("fallback_description", .string(fallback.name)),
                    ]))
            }
        case .switched, .switchFailed:
            break  // listen never switches
        }
    }

    /// A microphone's fields in a device record: its system name and the name people read.
    private func described(_ d: MicrophoneDevice) -> [(String, JSONValue)] {
        [("name", .string(d.id)), ("description", .string(d.name))]
    }

    /// Nothing arrived for a while: the meter is redrawn, so that it stays honest.
    public func tick() { if terminal { drawMeter() } }

    /// A sentence for the person, kept clear of the meter.
    public func message(_ s: String) {
        clearMeter()
        output.message(s)
        if terminal && meterShown { drawMeter() }
    }

    /// The session ended: the ``summary``, then how it ended (`ending`, e.g. "stopped by Ctrl-C"), what was
    /// listened to, the frames dropped (of `dropped` samples at `rate`) and the muted notices shown; on
    /// standard output in text, on standard error in jsonl.
    public func finish(input: String, dropped: Int, rate: Int, ending: String) {
        clearMeter()
        let framesDropped = dropped / max(1, rate / LevelMeter.framesPerSecond)
        let shown = notice.count
        let tail =
            "  \(ending); listened to \(input); \(framesDropped) frame\(framesDropped == 1 ? "" : "s") dropped"
            + (shown > 0 ? "; \"You are muted.\" shown \(shown) time\(shown == 1 ? "" : "s")" : "")
        if format == .text {
            output.line(Timeline.summary(summary))
            output.line(tail)
        } else {
            output.message(Timeline.summary(summary))
            output.message(tail)
        }
    }

    private func above(_ line: String) {
        clearMeter()
        output.line(line)
        if terminal { drawMeter() }
    }

    private func clearMeter() {
        guard terminal, meterShown else { return }
        output.raw("\r\u{1B}[K")
    }

    private func drawMeter() {
        lastDraw = now
        meterShown = true
        let meter = LiveMeterLine(time: now, levelDB: level, speaking: speaking, mutedNotice: notice.isVisible(at: now))
        output.raw("\r\u{1B}[K" + meter.text)
    }
}
