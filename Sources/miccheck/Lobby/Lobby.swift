import ArgumentParser
import Foundation
import MicCheck
import MicCheckCall
import MicCheckLive
import MicCheckLivePulse
import MicCheckTerminal
import Synchronization

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
            and Join Call. t tests the microphone: it records 5 s, plays them back through the default \
            output, and says how your voice came through. Enter joins; q or Esc closes. In the call: a tile \
            per participant with a border while they speak, your controls, and "You are muted. Unmute (m)" \
            when you speak while muted (n: don't show it again in this call); q leaves. p turns push-to-talk \
            on: the microphone stays muted, with no notice, and space opens it for one utterance (the \
            terminal cannot see a key's release). When the call allows audio or video that this \
            machine cannot give, a prompt offers o (Open Settings: the steps that grant access) and d \
            (Dismiss, remembered for the call in $XDG_STATE_HOME/miccheck/permission-prompts.json). A microphone \
            plugged in while the lobby is open is offered: w switches to it, i ignores it; when the one in use \
            goes away, the lobby falls back to the default source and says so.

            --demo needs no microphone and no server: the bundled sample (speech, pauses, typing) plays \
            as your microphone, in a loop, in a demo call of three people who take turns speaking.
            """
    )

    @Flag(help: "The embedded demo: the bundled sample as the microphone and a demo call of three people.")
    var demo = false

    @OptionGroup var microphone: MicrophoneOptions

    @Option(help: "Your name on your tile (default: $USER).")
    var name: String?

    @Option(help: "A call as JSON: its id, capabilities and participants (see Guides/Lobby.md).")
    var call: String?

    @Option(help: "Participant tiles: default, or microphone (the example custom view factory).")
    var tiles: TileStyle = .default

    @Option(help: "Also write what happens (keys, speech, notices, prompts) as JSON Lines to this file.")
    var events: String?

    func validate() throws {
        if demo && microphone.isNamed {
            throw ValidationError("--demo does not use a server or a source.")
        }
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--name needs a name.") }
    }

    func run() throws {
        let description = try loadCall()
        let log = try openLog()
        let clock = CallTimeline()
        var permissions = Permissions(camera: CameraProbe.probe())
        let (source, microphonePermission, microphones) = try openSource()
        permissions.microphone = microphonePermission
        var loop = LobbyLoop(
            call: description, log: log, clock: clock,
            factory: tiles == .microphone ? MicrophoneTileFactory() : DefaultCallViewFactory())
        let dismissed = loop.store.dismissed(inCall: description.id) { loop.warnings.append("miccheck: \($0).") }
        var session = CallSession(
            call: description, localUser: me, permissions: permissions, dismissed: dismissed,
            microphoneName: source?.label ?? "no microphone (\(microphonePermission.reason ?? "refused"))",
            at: clock.now)
        if let inUse = microphones?.inUse { session.setMicrophoneInUse(inUse) }
        let test = LiveMicrophoneTest()
        let audio = source.map { LiveAnalysis(source: $0, configuration: .init(sampleTap: test.tap)) }
        let tester = MicrophoneTester.playing(test, server: microphone.server)
        let signal = try loop.run(&session, audio: audio, microphones: microphones, tester: tester)
        for warning in loop.warnings { printError(warning) }
        if signal != 0 { throw ExitCode(128 + signal) }
        if case .finished(let joined) = session.phase {
            print(joined ? "miccheck: you left the call." : "miccheck: the lobby was closed without joining.")
        }
    }

    /// The person using the lobby: --name, else the login name, else "You".
    private var me: Participant {
        Participant(
            id: "me",
            name: name ?? ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "You",
            isLocalUser: true)
    }

    /// The event log of --events, or nil; one that cannot be written ends the command with the reason.
    private func openLog() throws -> EventLog? {
        try events.map { path in
            do throws(EventLog.OpenError) { return try EventLog(path: path) } catch {
                throw CommandFailure(
                    message: "miccheck: \(path): the event log cannot be written (\(error.reason)).",
                    status: ExitStatus.runtimeFailure)
            }
        }
    }

    private func loadCall() throws -> CallDescription {
        guard let call else {
            return demo
                ? .demo : CallDescription(id: "local", capabilities: [.sendAudio, .sendVideo], participants: [])
        }
        return try loadCallFile(call)
    }

    /// The microphone, the permission it gives, and the microphones that come and go around it: granted
    /// when a record stream opens; denied when the server refuses (the lobby still opens and prompts); any
    /// other failure ends here.
    private func openSource() throws -> ((any AudioSource)?, Permission, MicrophoneFollower?) {
        var granted = Permission()
        granted.resolve(granted: true)
        do {
            if demo { return (try BundledSample.source(pacing: .realTime, loop: true), granted, nil) }
            #if canImport(MicCheckPulse)
                // Watching is a bonus: a lobby whose watcher cannot connect still has its microphone.
                let devices = try? MicrophoneDevices(server: microphone.server)
                let mic = try PulseAudioSource(
                    source: microphone.source, server: microphone.server, reconnectWindow: .seconds(10)
                ) {
                    devices?.noticed($0)
                }
                devices?.noticed(inUse: mic.microphone.source)
                let follower = devices.map { devices in
                    MicrophoneFollower(
                        inUse: devices.inUse, take: devices.take,
                        switchTo: { mic.microphone.switchSource(to: $0.id) })
                }
                return (mic, granted, follower)
            #else
                throw AudioSourceError(
                    .noServer, "live capture needs PulseAudio, which this build of miccheck does not include")
            #endif
        } catch  where error.kind == .accessDenied {
            var denied = Permission()
            denied.resolve(granted: false, reason: "the sound server refused to record (\(error.message))")
            return (nil, denied, nil)
        } catch {
            throw sourceFailure(error, sample: "miccheck lobby --demo")
        }
    }
}

extension MicrophoneTester {
    /// A tester that plays recordings back through PulseAudio's default output (nothing is played, and the
    /// verdict shows at once, without a server or in a build without PulseAudio).
    static func playing(_ test: LiveMicrophoneTest, server: String?) -> MicrophoneTester {
        let ended = PlaybackEnded()
        return MicrophoneTester(
            test: test,
            play: { result in
                ended.flag.store(false, ordering: .releasing)
                #if canImport(MicCheckPulse)
                    return PulsePlayback.start(result.recording, sampleRate: result.sampleRate, server: server) { _ in
                        ended.flag.store(true, ordering: .releasing)
                    }
                #else
                    ended.flag.store(true, ordering: .releasing)
                    return {}
                #endif
            },
            playedBack: { ended.flag.exchange(false, ordering: .acquiringAndReleasing) })
    }
}

/// Set by the playback's thread when it ends.
private final class PlaybackEnded: Sendable {
    let flag = Atomic<Bool>(false)
}

/// Microphones that come and go, for the lobby's loop: the one in use, what changed, and how to switch.
struct MicrophoneFollower {
    let inUse: MicrophoneDevice?
    let take: () -> [MicrophoneDeviceChange]
    let switchTo: (MicrophoneDevice) -> Void
}

/// JSON Lines of what happened in the lobby, `clock` in seconds since it started, flushed per line.
/// The path may be a FIFO or a terminal as well as a file. A write that fails (a full disk) ends the log with
/// one warning; the lobby goes on.
final class EventLog {
    struct OpenError: Error { var reason: String }
    private let fd: Int32
    private var failed = false

    init(path: String) throws(OpenError) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OpenError(reason: createFailureReason(errno)) }
    }

    deinit { close(fd) }

    func write(_ fields: [(String, JSONValue)], clock: Double) {
        guard !failed else { return }
        let line = JSONLines.object(fields + [("clock", .number(clock, decimals: 3))]) + "\n"
        if let code = Array(line.utf8).withUnsafeBytes({ writeAll(fd, $0) }) {
            failed = true
            printError("miccheck: the event log stopped: \(systemReason(code)).")
        }
    }
}
