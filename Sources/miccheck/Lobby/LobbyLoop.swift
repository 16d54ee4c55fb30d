import ArgumentParser
import Foundation
import MicCheck
import MicCheckCall
import MicCheckLive
import MicCheckTerminal

/// The lobby's microphone test: the recorder that the session's sample tap feeds, and the playback.
struct MicrophoneTester {
    let test: LiveMicrophoneTest
    /// Starts playing a recording on a thread of its own; returns a function that stops it.
    let play: (MicrophoneTestResult) -> @Sendable () -> Void
    /// Whether the playback started last has ended since the last call (it may also have failed to start).
    let playedBack: () -> Bool
}

/// The lobby's screen loop: keys and the microphone's analysis in, the session's view out, what happens
/// logged; dismissals saved.
struct LobbyLoop {
    let call: CallDescription
    let log: EventLog?
    let clock: CallTimeline<ContinuousClock>
    let factory: any CallViewFactory
    let store: any PromptDismissalStore
    /// Sentences for stderr once the screen is gone.
    var warnings: [String] = []
    private var reportedStart = false
    private var failureShown = false
    private var lastSpeechStart: Double?
    /// Stops the microphone test's playback while it plays.
    private var stopPlayback: (@Sendable () -> Void)?

    init(
        call: CallDescription, log: EventLog?, clock: CallTimeline<ContinuousClock>, factory: any CallViewFactory,
        store: any PromptDismissalStore = PermissionPromptDismissals.standard()
    ) {
        (self.call, self.log, self.clock, self.factory, self.store) = (call, log, clock, factory, store)
    }

    /// Runs until the session finishes or a signal comes; returns the signal (0: none).
    mutating func run(
        _ session: inout CallSession, audio: LiveAnalysis?, microphones: MicrophoneFollower? = nil,
        tester: MicrophoneTester? = nil
    ) throws -> Int32 {
        #if canImport(CTerminal)
            let screen: TerminalScreen
            do {
                screen = try TerminalScreen()
            } catch {
                throw CommandFailure(
                    message:
                        "miccheck: lobby needs a terminal (stdin and stdout a terminal, and TERM set to a known one); `miccheck listen` works without.",
                    status: ExitStatus.usage)
            }
            let snapshots = LiveSnapshots(clock: { [clock] in clock.now })
            audio?.start(onRecord: snapshots.consume, onEnd: snapshots.ended)
            defer { audio?.stop() }
            log?.write(
                [
                    ("event", .string("started")), ("call", .string(call.id)), ("width", .int(screen.size.width)),
                    ("height", .int(screen.size.height)),
                ], clock: clock.now)
            var signal: Int32 = 0
            while !session.isFinished {
                signal = screen.takeSignal()
                if signal != 0 { break }
                let input = screen.read(timeout: 0.05)
                let now = clock.now
                var happened: [SessionEvent] = []
                switch input {
                case .key(let key): happened += session.handle(key, at: now)
                case .resized:
                    log?.write(
                        [
                            ("event", .string("resized")), ("width", .int(screen.size.width)),
                            ("height", .int(screen.size.height)),
                        ], clock: now)
                case .none: break
                }
                if audio != nil { happened += microphone(snapshots.take(), session: &session, at: now) }
                if let microphones {
                    for change in microphones.take() { happened += self.change(change, session: &session, at: now) }
                }
                if let tester { happened += testing(tester, session: &session, at: now) }
                happened += session.advance(to: now)
                for event in happened {
                    record(event, at: now)
                    if case .microphoneSwitchRequested(let device) = event { microphones?.switchTo(device) }
                    if let tester { follow(event, tester: tester) }
                }
                if session.isFinished { break }
                let size = screen.size
                screen.paint(
                    render(
                        session.view(factory: factory), width: size.width, height: size.height, glyphs: screen.glyphs))
            }
            stopPlayback?()
            tester?.test.discard()
            screen.stop()
            if signal != 0 {
                log?.write([("event", .string("signal")), ("signal", .int(Int(signal)))], clock: clock.now)
            }
            return signal
        #else
            throw CommandFailure(
                message: "miccheck: this build of miccheck has no terminal UI (it needs ncurses).",
                status: ExitStatus.unavailable)
        #endif
    }

    /// What the microphone's analysis brought since the last look.
    private mutating func microphone(
        _ s: LiveSnapshots.Snapshot, session: inout CallSession, at now: Double
    ) -> [SessionEvent] {
        var happened: [SessionEvent] = []
        if let started = s.startedAt, !reportedStart {
            reportedStart = true
            log?.write([("event", .string("audio_started"))], clock: started)
        }
        if s.frames > 0 { session.microphoneFrame(levelDB: s.levelDB, isSpeech: s.isSpeaking, at: now) }
        for event in s.events {
            log?.write(JSONLines.eventFields(event), clock: now)
            if case .speechStarted = event { lastSpeechStart = event.time }
            happened += session.microphoneEvent(event, at: now)
        }
        if let ending = s.ending, !failureShown, let failure = failureSentence(ending) {
            failureShown = true
            warnings.append(failure)
            log?.write([("event", .string("microphone_failed")), ("message", .string(failure))], clock: now)
        }
        return happened
    }

    /// The microphone test's steps that the recorder and the playback report: the recording judged (or cut
    /// short when the audio stopped 2 s past its end), the playback over.
    private func testing(_ tester: MicrophoneTester, session: inout CallSession, at now: Double) -> [SessionEvent] {
        guard case .lobby(let lobby) = session.phase else { return [] }
        switch lobby.microphoneTest.step {
        case .recording(let since, let seconds):
            if case .done(let result) = tester.test.phase {
                return session.microphoneTestRecorded(result.verdict, at: now)
            }
            if now > since + seconds + 2, let result = tester.test.finishEarly() {
                return session.microphoneTestRecorded(result.verdict, at: now)
            }
        case .playingBack:
            if tester.playedBack() { return session.microphoneTestPlayedBack(at: now) }
        case .idle, .done:
            break
        }
        return []
    }

    /// What the recorder and the playback do on the session's events.
    private mutating func follow(_ event: SessionEvent, tester: MicrophoneTester) {
        switch event {
        case .microphoneTestStarted:
            tester.test.start()
        case .microphoneTestRecorded(_, let playsBack):
            if playsBack, let result = tester.test.phase.result {
                stopPlayback = tester.play(result)
            }
            if !playsBack { tester.test.discard() }
        case .microphoneTestPlayedBack:
            stopPlayback = nil
            tester.test.discard()
        case .microphoneTestCancelled:
            stopPlayback?()
            stopPlayback = nil
            tester.test.discard()
        default:
            break
        }
    }

    /// A microphone came, went, or took over.
    private func change(
        _ change: MicrophoneDeviceChange, session: inout CallSession, at now: Double
    ) -> [SessionEvent] {
        switch change {
        case .appeared(let device): return session.microphoneAppeared(device, at: now)
        case .removed(let device): return session.microphoneRemoved(device, at: now)
        case .switched(let device): return session.microphoneSwitched(to: device, at: now)
        case .fellBack(let lost, let fallback): return session.microphoneFellBack(lost: lost, to: fallback, at: now)
        case .switchFailed(let device, let reason):
            log?.write(
                [
                    ("event", .string("microphone_switch_failed")), ("microphone", .string(device.id)),
                    ("reason", .string(reason)),
                ], clock: now)
            return session.advance(to: now)
        }
    }

    private func failureSentence(_ ending: LiveEnding) -> String? {
        switch ending {
        case .failed(let error): sourceFailure(error).message
        case .ended: "the microphone input ended"
        case .stopped, .durationReached: nil
        }
    }

    private mutating func record(_ event: SessionEvent, at now: Double) {
        var f = fields(of: event)
        // The notice's cause: the analysis time of the speech that raised it.
        if event == .mutedNoticeShown, let lastSpeechStart { f.append(("t", .number(lastSpeechStart, decimals: 2))) }
        log?.write(f, clock: now)
        if case .promptDismissed(let kind) = event {
            do {
                try store.dismiss(kind, inCall: call.id) { warnings.append("miccheck: \($0).") }
            } catch {
                warnings.append(
                    "miccheck: \(store.location): the dismissal could not be saved (\(error.localizedDescription)).")
            }
        }
    }

    private func fields(of event: SessionEvent) -> [(String, JSONValue)] {
        var f: [(String, JSONValue)] = [("event", .string(event.name))]
        switch event {
        case .toggled(let control, let on):
            f += [("control", .string(control.rawValue)), ("on", .bool(on))]
        case .toggleRefused(let control): f.append(("control", .string(control.rawValue)))
        case .joined(let s):
            f += [("audio", .bool(s.audioOn)), ("video", .bool(s.videoOn)), ("speaker", .bool(s.speakerOn))]
        case .promptShown(let kind), .promptDismissed(let kind): f.append(("prompt", .string(kind.rawValue)))
        case .microphoneWarningShown(let kind), .microphoneWarningCleared(let kind):
            f.append(("warning", .string(kind.rawValue)))
        case .microphoneOffered(let d), .microphoneOfferIgnored(let d), .microphoneOfferExpired(let d),
            .microphoneOfferWithdrawn(let d), .microphoneSwitchRequested(let d), .microphoneSwitched(let d):
            f += [("microphone", .string(d.id)), ("description", .string(d.name))]
        case .microphoneDisconnected(let lost, let fallback):
            f += [("microphone", .string(lost.id)), ("fallback", .string(fallback.id))]
        case .microphoneTestStarted(let seconds): f.append(("seconds", .number(seconds, decimals: 1)))
        case .pushToTalkChanged(let on): f.append(("on", .bool(on)))
        case .mutedByHost(let name): f.append(("by", .string(name)))
        case .microphoneTestRecorded(let verdict, let playsBack):
            f += verdict.jsonFields() + [("plays_back", .bool(playsBack))]
        default: break
        }
        return f
    }
}
