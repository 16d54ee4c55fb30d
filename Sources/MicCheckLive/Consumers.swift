public import MicCheck
import Synchronization

extension MutedSpeechNotice {
    /// Follows a live analysis: returns true when `record` makes "You are muted." show (a speech start
    /// while muted, outside the cooldown).
    public mutating func consume(_ record: LiveRecord) -> Bool {
        guard case .analysis(.event(.speechStarted(let t, _))) = record else { return false }
        return speechStarted(at: t)
    }
}

/// The latest state of a live analysis, for a screen that polls (a terminal or a UI frame loop): the
/// analysis thread hands records in with ``consume(_:)``; the screen takes what arrived with ``take()``.
public final class LiveSnapshots: Sendable {
    /// What a screen draws: the latest level and speaking, and what happened since it last looked.
    public struct Snapshot: Sendable, Equatable {
        /// The last frame's level (dBFS).
        public var levelDB: Float = Decibels.floor
        /// Whether an utterance is in progress (`AnalysisFrame.isSpeaking`).
        public var isSpeaking = false
        /// Events since the last ``LiveSnapshots/take()``, in order (at most 1,000 wait).
        public var events: [AnalysisEvent] = []
        /// Frames since the last ``LiveSnapshots/take()``.
        public var frames = 0
        /// The clock reading at which the first samples arrived.
        public var startedAt: Double?
        /// How the session ended, once it has.
        public var ending: LiveEnding?
    }

    private let clock: @Sendable () -> Double
    private let state = Mutex(Snapshot())

    /// - Parameter clock: the screen's clock, read when the first samples arrive.
    public init(clock: @escaping @Sendable () -> Double) { self.clock = clock }

    /// Takes in one record, on the analysis thread: a frame's level and speaking, an event, the audio's start.
    public func consume(_ record: LiveRecord) {
        let now: Double? = record == .audioStarted ? clock() : nil
        state.withLock { s in
            switch record {
            case .analysis(.frame(let f)):
                s.levelDB = f.levelDB
                s.isSpeaking = f.isSpeaking
                s.frames += 1
            case .analysis(.event(let e)):
                // A screen that stopped taking (it is closing) must not grow this without end.
                if s.events.count < 1_000 { s.events.append(e) }
            case .audioStarted:
                if s.startedAt == nil { s.startedAt = now }
            case .idle, .restarted:
                break
            }
        }
    }

    /// Records how the session ended, for the next `take()`.
    public func ended(_ ending: LiveEnding) { state.withLock { $0.ending = ending } }

    /// What arrived since the last call.
    public func take() -> Snapshot {
        state.withLock { s in
            defer {
                s.events.removeAll(keepingCapacity: true)
                s.frames = 0
            }
            return s
        }
    }
}
