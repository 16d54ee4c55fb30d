import Foundation
import MicCheck
import MicCheckCall
import Synchronization

/// The lobby's microphone: a thread that reads a live input, analyses it, and leaves the latest level,
/// speech state and events for the screen to take.
final class LobbyAudio: Sendable {
    struct Snapshot {
        var levelDB: Float = Decibels.floor
        var isSpeaking = false
        /// Events since the last `take()`, in order.
        var events: [AnalysisEvent] = []
        /// Frames since the last `take()`.
        var frames = 0
        /// The clock reading at which the first samples arrived.
        var startedAt: Double?
        /// Why the input stopped delivering, once it has.
        var failure: String?
    }

    private let input: any LiveInput
    private let clock: ContinuousCallClock
    private let state = Mutex(Snapshot())
    private let configuration: Analyzer.Configuration

    init(input: any LiveInput, clock: ContinuousCallClock, configuration: Analyzer.Configuration) {
        self.input = input
        self.clock = clock
        self.configuration = configuration
    }

    var label: String { input.label }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "miccheck lobby audio"
        thread.start()
    }

    func stop() { input.stop() }

    /// What arrived since the last call.
    func take() -> Snapshot {
        state.withLock { s in
            defer { s.events.removeAll(keepingCapacity: true); s.frames = 0 }
            return s
        }
    }

    private func run() {
        var analyzer = Analyzer(inputRate: input.sampleRate, configuration: configuration)
        var buffer = [Float](repeating: 0, count: 8_192)
        let emit: (AnalysisOutput) -> Void = { [self] output in
            state.withLock { s in
                switch output {
                case .frame(let f):
                    s.levelDB = f.levelDB
                    s.isSpeaking = f.isSpeaking
                    s.frames += 1
                case .event(let e):
                    // A screen that stopped taking (it is closing) must not grow this without end.
                    if s.events.count < 1_000 { s.events.append(e) }
                }
            }
        }
        while true {
            let read: LiveRead
            do {
                read = try buffer.withUnsafeMutableBufferPointer { try input.read(into: $0, timeout: 0.1) }
            } catch {
                let sentence = liveFailure(error).sentence
                state.withLock { $0.failure = sentence }
                return
            }
            switch read {
            case .samples(let n):
                let now = clock.now
                state.withLock { s in if s.startedAt == nil { s.startedAt = now } }
                buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n]), emit: emit) }
            case .idle:
                continue
            case .restarted:
                analyzer.finish(emit: emit)
                analyzer = Analyzer(inputRate: input.sampleRate, configuration: configuration, startTime: analyzer.endTime)
            case .stopped:
                return
            case .ended:
                state.withLock { $0.failure = "the microphone input ended" }
                return
            }
        }
    }
}
