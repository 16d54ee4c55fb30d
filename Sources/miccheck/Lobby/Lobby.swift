import ArgumentParser
import Foundation
import MicCheck
import MicCheckCall
import MicCheckTerminal
#if canImport(MicCheckPulse)
import MicCheckPulse
#endif
#if canImport(CTerminal)
import CTerminal
#endif

enum TileStyle: String, ExpressibleByArgument, CaseIterable {
    case `default`, microphone
}

struct Lobby: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The call's pre-join lobby and call screen, full screen in the terminal.",
        discussion: """
            Lobby: your tile, a live microphone meter with the "microphone doesn't seem to be working" \
            warning, the toggles m (microphone), v (camera) and s (speaker), who is already in the call, \
            and Join Call. Enter joins; q or Esc closes. In the call: a tile per participant with a \
            border while they speak, your controls, and "You are muted." when you speak while muted \
            (n: don't show it again in this call); q leaves. When the call allows audio or video that this \
            machine cannot give, a prompt offers o (Open Settings: the steps that grant access) and d \
            (Dismiss, remembered for the call in $XDG_STATE_HOME/miccheck/permission-prompts.json).

            --demo needs no microphone and no server: the bundled sample (speech, pauses, typing) plays \
            as your microphone, in a loop, in a demo call of three people who take turns speaking.
            """
    )

    @Flag(help: "The embedded demo: the bundled sample as the microphone and a demo call of three people.")
    var demo = false

    @Option(help: "The source to capture from (a name from `miccheck devices`); default: the server's default source.")
    var source: String?

    @Option(help: "The PulseAudio server to use (default: PULSE_SERVER, then the user's own server).")
    var server: String?

    @Option(help: "Your name on your tile (default: $USER).")
    var name: String?

    @Option(help: "A call as JSON: its id, capabilities and participants (see Guides/Lobby.md).")
    var call: String?

    @Option(help: "Participant tiles: default, or microphone (the example custom view factory).")
    var tiles: TileStyle = .default

    @Option(help: "Also write what happens (keys, speech, notices, prompts) as JSON Lines to this file.")
    var events: String?

    func validate() throws {
        if demo && (source != nil || server != nil) { throw ValidationError("--demo does not use a server or a source.") }
        if let source, source.isEmpty { throw ValidationError("--source needs a source name.") }
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--name needs a name.") }
    }

    func run() throws {
        let description = try loadCall()
        let log = try events.map { path in
            guard let log = EventLog(path: path) else {
                throw reported(("miccheck: \(path): cannot be written.", ExitStatus.noInput))
            }
            return log
        }
        var warnings: [String] = []
        let store = PermissionPromptDismissals.standard()
        let dismissed = store.dismissed(inCall: description.id) { warnings.append("miccheck: \($0).") }

        let clock = ContinuousCallClock()
        var permissions = Permissions(camera: CameraProbe.probe())
        let (input, microphonePermission) = try openInput()
        permissions.microphone = microphonePermission
        let audio = input.map { LobbyAudio(input: $0, clock: clock, configuration: Analyzer.Configuration()) }

        let me = Participant(id: "me", name: name ?? ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "You",
                             isLocalUser: true)
        var session = CallSession(call: description, localUser: me, permissions: permissions, dismissed: dismissed,
                                  microphoneName: audio?.label ?? "no microphone (\(microphonePermission.reason ?? "refused"))",
                                  at: clock.now)
        let factory: any CallViewFactory = tiles == .microphone ? MicrophoneTileFactory() : DefaultCallViewFactory()
        // An output's monitor is no microphone: the check says so from the start.
        if let monitor = input?.monitorSource { _ = session.microphoneEvent(.wrongSource(time: 0, source: monitor), at: clock.now) }

        #if canImport(CTerminal)
        let screen: TerminalScreen
        do {
            screen = try TerminalScreen()
        } catch {
            audio?.stop()
            throw reported(("miccheck: lobby needs a terminal (stdin and stdout a terminal, and TERM set to a known one); `miccheck listen` works without.", ExitStatus.usage))
        }
        audio?.start()
        log?.write([("event", .string("started")), ("call", .string(description.id)), ("width", .int(screen.size.width)), ("height", .int(screen.size.height))], clock: clock.now)
        var signal: Int32 = 0
        var reportedStart = false
        var failureShown = false
        var lastSpeechStart: Double?
        while !session.isFinished {
            signal = screen.takeSignal()
            if signal != 0 { break }
            let input = screen.read(timeout: 0.05)
            let now = clock.now
            var happened: [SessionEvent] = []
            switch input {
            case .key(let key): happened += session.handle(key, at: now)
            case .resized: log?.write([("event", .string("resized")), ("width", .int(screen.size.width)), ("height", .int(screen.size.height))], clock: now)
            case .none: break
            }
            if let audio {
                let s = audio.take()
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
                if let failure = s.failure, !failureShown {
                    failureShown = true
                    warnings.append(failure)
                    log?.write([("event", .string("microphone_failed")), ("message", .string(failure))], clock: now)
                }
            }
            happened += session.advance(to: now)
            for event in happened {
                var f = fields(of: event)
                // The notice's cause: the analysis time of the speech that raised it.
                if event == .mutedNoticeShown, let lastSpeechStart { f.append(("t", .number(lastSpeechStart, decimals: 2))) }
                log?.write(f, clock: now)
                if case .promptDismissed(let kind) = event {
                    do {
                        try store.dismiss(kind, inCall: description.id) { warnings.append("miccheck: \($0).") }
                    } catch {
                        warnings.append("miccheck: \(store.path): the dismissal could not be saved (\(error.localizedDescription)).")
                    }
                }
            }
            if session.isFinished { break }
            let size = screen.size
            screen.paint(render(session.view(factory: factory), width: size.width, height: size.height, glyphs: screen.glyphs))
        }
        screen.stop()
        audio?.stop()
        if signal != 0 { log?.write([("event", .string("signal")), ("signal", .int(Int(signal)))], clock: clock.now) }
        warnings.forEach { printError($0) }
        if signal != 0 { throw ExitCode(128 + signal) }
        if case .finished(let joined) = session.phase {
            print(joined ? "miccheck: you left the call." : "miccheck: the lobby was closed without joining.")
        }
        #else
        throw reported(("miccheck: this build of miccheck has no terminal UI (it needs ncurses).", ExitStatus.unavailable))
        #endif
    }

    private func loadCall() throws -> CallDescription {
        guard let call else {
            return demo ? .demo : CallDescription(id: "local", capabilities: [.sendAudio, .sendVideo], participants: [])
        }
        guard let data = FileManager.default.contents(atPath: call) else {
            let why = FileManager.default.fileExists(atPath: call) ? "cannot be read" : "no such file"
            throw reported(("miccheck: \(call): \(why).", ExitStatus.noInput))
        }
        do {
            return try CallDescription.decode(data)
        } catch {
            throw reported(("miccheck: \(call): not a usable call: \(error.description).", ExitStatus.dataError))
        }
    }

    /// The microphone, and the permission it gives: granted when a record stream opens; denied when
    /// the server refuses (the lobby still opens and prompts); any other failure ends here.
    private func openInput() throws -> ((any LiveInput)?, Permission) {
        var granted = Permission()
        granted.resolve(granted: true)
        if demo {
            switch openSample() {
            case .success(let reader):
                return (SampleInput(reader: reader, reopen: { try? openSample().get() }), granted)
            case .failure(let f):
                throw reported((f.sentence, f.status))
            }
        }
        #if canImport(MicCheckPulse)
        do {
            let mic = try PulseMicrophone(source: source, server: server, reconnectWindow: 10) { _ in }
            return (PulseInput(microphone: mic), granted)
        } catch where error.kind == .accessDenied {
            var denied = Permission()
            denied.resolve(granted: false, reason: "the sound server refused to record (\(error.message))")
            return (nil, denied)
        } catch {
            let failure = pulseFailure(error)
            throw reported((failure.sentence.replacingOccurrences(of: "`miccheck listen --sample`", with: "`miccheck lobby --demo`"),
                            failure.status))
        }
        #else
        throw reported(("miccheck: live capture needs PulseAudio, which this build of miccheck does not include; `miccheck lobby --demo` works.", ExitStatus.unavailable))
        #endif
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
        case .microphoneWarningShown(let kind), .microphoneWarningCleared(let kind): f.append(("warning", .string(kind.rawValue)))
        default: break
        }
        return f
    }
}

/// JSON Lines of what happened in the lobby, `clock` in seconds since it started, flushed per line.
final class EventLog {
    private let handle: FileHandle

    init?(path: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else { return nil }
        handle = h
    }

    func write(_ fields: [(String, JSONValue)], clock: Double) {
        handle.write(Data((JSONLines.object(fields + [("clock", .number(clock, decimals: 3))]) + "\n").utf8))
    }
}
