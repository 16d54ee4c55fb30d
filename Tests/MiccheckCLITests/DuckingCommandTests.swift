#if os(Linux)
import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// A private server playing a long tone on the speaker, and a state folder of the test's own.
struct DuckingScene {
    let server: PrivatePulseServer
    let state = tempDir()
    let tone: String

    init() throws {
        server = try PrivatePulseServer()
        let samples = Signals.sine(frequency: 440, rmsDB: -20, seconds: 60, sampleRate: 16_000).flatMap { [$0, $0] }
        tone = writeWAV(state, "tone.wav", WAVWriter.file(interleaved: samples, sampleRate: 16_000, channels: 2,
                                                            encoding: .signedInt16))
    }

    var environment: [String: String] {
        var env = server.environment
        env["XDG_STATE_HOME"] = state.path
        return env
    }

    var journals: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("miccheck/ducking").path)) ?? []
    }

    /// Starts the tone; returns its sink input's index once the server lists it.
    func playTone() throws -> Int {
        let before = Set(try volumes().keys)
        try server.play(tone, sink: "speaker")
        var found: Int?
        _ = poll(timeout: 5) { found = (try? volumes().keys.first { !before.contains($0) }) ?? nil; return found != nil }
        return try #require(found)
    }

    /// Each sink input's per-channel volume, from `pactl list sink-inputs`.
    func volumes() throws -> [Int: [Int]] {
        var result: [Int: [Int]] = [:]
        var current: Int?
        for line in try server.pactl(["list", "sink-inputs"]).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Sink Input #") { current = Int(text.dropFirst("Sink Input #".count)) }
            if text.hasPrefix("Volume:"), let current {
                // "Volume: front-left: 44649 /  68% / -10.00 dB,   front-right: 44649 / ..."
                result[current] = text.split(separator: ",").compactMap { part in
                    part.split(separator: ":").dropFirst().last.flatMap { Int($0.split(separator: "/")[0].trimmingCharacters(in: .whitespaces)) }
                }
            }
        }
        return result
    }

    func volume(_ index: Int) -> [Int]? { (try? volumes())?[index] }
}


/// PulseAudio's volume for 100 % lowered by 10, 20 and 30 dB (cubic scale; what pactl shows).
let full = 65_536, minus10 = 44_649, minus20 = 30_419, minus30 = 20_724

/// Processes whose command line holds `text`.
func processes(containing text: String) -> [Int32] {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return ids.compactMap(Int32.init).filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(text)
    }
}

@Suite("listen --duck-others, against a private PulseAudio server", .serialized,
       .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
struct DuckingCommandTests {
    @Test("ducks playing and newly started streams by the level, and restores them exactly")
    func duckAndRestore() throws {
        let scene = try DuckingScene()
        defer { scene.server.stop() }
        let first = try scene.playTone()
        let p = try LiveProcess(["listen", "--format", "jsonl", "--duration", "3", "--duck-others", "min"],
                                environment: scene.environment)
        #expect(poll(timeout: 3) { scene.volume(first) == [minus10, minus10] }, "\(String(describing: scene.volume(first)))")
        #expect(scene.journals.count == 1)
        let later = try scene.playTone()
        #expect(poll(timeout: 2) { scene.volume(later) == [minus10, minus10] }, "a stream that started later is ducked too")
        #expect(p.finish(timeout: 10) == 0, "\(p.stderr)")
        #expect(scene.volume(first) == [full, full] && scene.volume(later) == [full, full])
        #expect(p.stderr.contains("restored the volume of 2 playback streams"), "\(p.stderr)")
        #expect(scene.journals.isEmpty)
    }

    @Test("a volume changed while ducked is kept")
    func userChangeKept() throws {
        let scene = try DuckingScene()
        defer { scene.server.stop() }
        let stream = try scene.playTone()
        let p = try LiveProcess(["listen", "--format", "jsonl", "--duration", "3", "--duck-others", "max"],
                                environment: scene.environment)
        #expect(poll(timeout: 3) { scene.volume(stream) == [minus30, minus30] })
        try scene.server.pactl(["set-sink-input-volume", String(stream), "50%"])
        #expect(p.finish(timeout: 10) == 0)
        #expect(scene.volume(stream) == [32_768, 32_768], "the user's 50 % is kept: \(String(describing: scene.volume(stream)))")
        #expect(p.stderr.contains("was changed during ducking"), "\(p.stderr)")
    }

    @Test("SIGKILL while ducked: the guard restores the volume", arguments: [SIGKILL, SIGTERM, SIGINT])
    func killedWhileDucked(signal: Int32) throws {
        let scene = try DuckingScene()
        defer { scene.server.stop() }
        let stream = try scene.playTone()
        let p = try LiveProcess(["listen", "--format", "jsonl", "--duck-others", "mid"], environment: scene.environment)
        #expect(poll(timeout: 3) { scene.volume(stream) == [minus20, minus20] })
        kill(p.process.processIdentifier, signal)
        #expect(poll(timeout: 3) { scene.volume(stream) == [full, full] }, "\(String(describing: scene.volume(stream)))")
        _ = p.finish(timeout: 5)
        #expect(poll(timeout: 2) { scene.journals.isEmpty })
        #expect(poll(timeout: 2) { processes(containing: "duck-guard --journal \(scene.state.path)").isEmpty }, "the guard has ended")
    }

    @Test("guard and listen both killed: the next command restores from the journal")
    func journalRestoresOnNextStart() throws {
        let scene = try DuckingScene()
        defer { scene.server.stop() }
        let stream = try scene.playTone()
        let p = try LiveProcess(["listen", "--format", "jsonl", "--duck-others", "max"], environment: scene.environment)
        #expect(poll(timeout: 3) { scene.volume(stream) == [minus30, minus30] })
        let guards = processes(containing: "duck-guard --journal \(scene.state.path)")
        #expect(guards.count == 1)
        guards.forEach { kill($0, SIGKILL) }
        kill(p.process.processIdentifier, SIGKILL)
        _ = p.finish(timeout: 5)
        #expect(scene.volume(stream) == [minus30, minus30], "nothing restored it yet")
        #expect(scene.journals.count == 1)

        // A damaged journal beside it is set aside with a warning, never a crash.
        let folder = scene.state.appendingPathComponent("miccheck/ducking")
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("1.json").path, contents: Data("{not json".utf8))
        let r = try miccheck(["devices", "--server", scene.server.address], environment: scene.environment)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(scene.volume(stream) == [full, full])
        #expect(r.stderr.contains("restored the volume of 1 playback stream that an earlier miccheck run left ducked"), "\(r.stderr)")
        #expect(r.stderr.contains("damaged"))
        #expect(scene.journals == ["1.json.corrupt"])
    }

    @Test("advanced ducking: 10 dB more while you speak")
    func advancedDucking() throws {
        let scene = try DuckingScene()
        defer { scene.server.stop() }
        let stream = try scene.playTone()
        let speech = try #require(try corpusExcerpt(seconds: 6, in: scene.state), "needs ../shared/corpus")
        let p = try LiveProcess(["listen", "--format", "jsonl", "--duration", "8", "--duck-others", "default",
                                 "--advanced-ducking"], environment: scene.environment)
        #expect(poll(timeout: 3) { scene.journals.count == 1 })
        #expect(scene.volume(stream) == [full, full], "default: no steady attenuation")
        try scene.server.play(speech)
        #expect(poll(timeout: 5) { !p.events("speech_started").isEmpty })
        #expect(poll(timeout: 1) { scene.volume(stream) == [minus10, minus10] }, "\(String(describing: scene.volume(stream)))")
        #expect(p.finish(timeout: 15) == 0)
        #expect(scene.volume(stream) == [full, full])
    }

    @Test("bad ducking options: exit 64", arguments: [
        ["listen", "--advanced-ducking"], ["listen", "--sample", "--duck-others", "min"],
        ["listen", "--duck-others", "loud"],
    ])
    func badOptions(args: [String]) throws {
        #expect(try miccheck(args).status == 64)
    }
}
#endif

#if os(Linux)
@Suite("listen --voice-processing, against a private PulseAudio server with an echo path", .serialized,
       .enabled(if: CorpusAudio.isPresent, "needs ../shared/corpus"),
       .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
struct VoiceProcessingListenTests {
    /// A server whose speaker output reaches the microphone 40 ms later, 10 dB down (a loopback),
    /// as a laptop's loudspeaker reaches its microphone.
    static func echoServer() throws -> PrivatePulseServer {
        let server = try PrivatePulseServer()
        try server.pactl(["load-module", "module-loopback", "source=speaker.monitor", "sink=micsink",
                          "latency_msec=40", "source_dont_move=true", "sink_dont_move=true"])
        // The loopback's playback stream: the only one there is ("INDEX<tab>SINK<tab>CLIENT<tab>DRIVER...").
        var loopback: String?
        poll(timeout: 5) {
            loopback = (try? server.pactl(["list", "sink-inputs", "short"]))?.split(separator: "\n")
                .first { $0.contains("module-loopback") }
                .flatMap { $0.split(separator: "\t").first.map(String.init) }
            return loopback != nil
        }
        try server.pactl(["set-sink-input-volume", try #require(loopback), "-10dB"])
        return server
    }

    /// A corpus voice, whole, written for paplay.
    static func voice(_ name: String, in dir: URL) throws -> String {
        let samples = try #require(try CorpusAudio.mono(name, seconds: 12))
        return writeWAV(dir, "\(name).wav", WAVWriter.file(interleaved: samples, sampleRate: 16_000, channels: 1,
                                                           encoding: .signedInt16))
    }

    @Test("speech from the loudspeaker alone raises speech_started without voice processing, and not with it",
          arguments: [false, true])
    func loudspeakerEcho(voiceProcessing: Bool) throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let far = try Self.voice("clean_01_asterisk-en-allison", in: server.directory)
        let p = try LiveProcess(["listen", "--format", "jsonl", "--duration", "14"] + (voiceProcessing ? ["--voice-processing"] : []),
                                environment: server.environment)
        #expect(poll(timeout: 5) { p.lastFrameTime != nil })
        try server.play(far, sink: "speaker")
        #expect(p.finish(timeout: 30) == 0, "\(p.stderr)")
        let starts = p.events("speech_started").count
        if voiceProcessing {
            #expect(starts == 0, "the loudspeaker's speech started speech \(starts) times: \(p.events("speech_started")) \(p.stderr)")
            #expect(p.stderr.contains("through voice processing, echo reference speaker"))
            // The closing note says what the canceller measured.
            #expect(p.stderr.contains("miccheck: voice processing: "), "\(p.stderr)")
            #expect(p.stderr.contains("frames without the echo reference"), "\(p.stderr)")
        } else {
            #expect(starts >= 2, "the echo path carries speech (\(starts) starts without voice processing)")
        }
    }

    @Test("the user's own speech still raises speech_started, with the loudspeaker silent or talking too",
          arguments: [false, true])
    func ownSpeech(doubleTalk: Bool) throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let near = try Self.voice("clean_00_hedgewars-British", in: server.directory)
        if doubleTalk { try server.play(try Self.voice("clean_01_asterisk-en-allison", in: server.directory), sink: "speaker") }
        let p = try LiveProcess(["listen", "--format", "jsonl", "--duration", "8", "--voice-processing"],
                                environment: server.environment)
        #expect(poll(timeout: 5) { p.lastFrameTime != nil })
        try server.play(near)
        #expect(poll(timeout: 8) { !p.events("speech_started").isEmpty }, "\(p.stderr)")
        #expect(p.finish(timeout: 20) == 0)
    }
}
#endif
