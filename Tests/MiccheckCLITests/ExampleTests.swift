import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// `Examples/MutedNotice`, built with the package: an app on the public API alone.
let mutedNotice = binary.deletingLastPathComponent().appendingPathComponent("muted-notice")

/// Runs the example to its end.
func runMutedNotice(_ args: [String]) throws -> Run {
    let p = Process()
    p.executableURL = mutedNotice
    p.arguments = args
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: "")
}

@Suite(
    "Examples/MutedNotice",
    .enabled(if: FileManager.default.fileExists(atPath: mutedNotice.path), "build the example first"))
struct ExampleTests {
    @Test("from a WAV file: \"You are muted.\" at each utterance outside the cooldown, nothing for typing")
    func fromAFile() throws {
        let rate = 16_000
        let room = { (s: Double) in Signals.pinkNoise(rmsDB: -60, seconds: s, sampleRate: rate) }
        let clicks = Signals.applause(clapsPerSecond: 8, rmsDB: -30, seconds: 2, sampleRate: rate)
        let voice = Signals.voice(rmsDB: -24, seconds: 1.5, sampleRate: rate)
        let audio = room(1) + voice + room(8) + voice + room(1) + clicks + room(1)
        let path = writeWAV(
            tempDir(), "talk.wav",
            WAVWriter.file(interleaved: audio, sampleRate: rate, channels: 1, encoding: .signedInt16))
        let r = try runMutedNotice([path])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(r.stdout)")
        #expect(lines.allSatisfy { $0.hasSuffix("You are muted.") })
        let times = lines.compactMap { Double($0.split(separator: " ").first ?? "") }
        #expect(times.count == 2 && (1...1.5).contains(times[0]) && (10.5...11).contains(times[1]), "\(times)")
    }

    @Test("a file that is not there is one sentence and a failure status")
    func missingFile() throws {
        let r = try runMutedNotice(["/nonexistent/talk.wav"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("muted-notice: /nonexistent/talk.wav: "))
    }
}

/// An example's executable, built with the package beside `miccheck`.
func example(_ name: String) -> URL { binary.deletingLastPathComponent().appendingPathComponent(name) }

/// The events `miccheck analyze` finds in `path`, as "T NAME" lines with two decimals.
func analyzedEvents(_ path: String) throws -> [String] {
    try miccheck(["analyze", "--format", "jsonl", path]).stdout.split(separator: "\n").compactMap { line in
        guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let name = o["event"] as? String, let t = o["t"] as? Double
        else { return nil }
        return String(format: "%.2f %@", t, name)
    }
}

@Suite(
    "Examples: the kernel alone, fed audio, the microphone test on a file",
    .enabled(if: FileManager.default.fileExists(atPath: example("core-only").path), "build the examples first"))
struct MoreExampleTests {
    /// Speech over a quiet room, then the room: 16 kHz, 16-bit.
    static let talk: [Float] = {
        let room = { (s: Double) in Signals.pinkNoise(rmsDB: -62, seconds: s, sampleRate: 16_000) }
        return room(1) + Signals.voice(rmsDB: -26, seconds: 2.5, sampleRate: 16_000) + room(2)
    }()

    @Test("core-only: raw PCM in, the same events as miccheck analyze")
    func coreOnly() throws {
        let wav = WAVWriter.file(interleaved: Self.talk, sampleRate: 16_000, channels: 1, encoding: .signedInt16)
        let path = writeWAV(tempDir(), "talk.wav", wav)
        let r = try run(example("core-only"), [], input: Data(wav.dropFirst(44)))
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: " s  ", with: " ") }
        let expected = try analyzedEvents(path)
        #expect(!expected.isEmpty && lines == expected, "\(r.stdout)")
    }

    @Test("fed-audio: a file fed at full speed loses nothing and gives analyze's events; a folder is a sentence")
    func fedAudio() throws {
        let path = writeWAV(
            tempDir(), "talk.wav",
            WAVWriter.file(interleaved: Self.talk, sampleRate: 16_000, channels: 1, encoding: .signedInt16))
        let r = try run(example("fed-audio"), [path])
        #expect(r.status == 0)
        var lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.popLast() == "fed \(Self.talk.count) of \(Self.talk.count) samples", "\(r.stdout)")
        let expected = try analyzedEvents(path).map { $0.replacingOccurrences(of: " ", with: " s ") }
        #expect(!expected.isEmpty && lines == expected, "\(r.stdout)")
        let folder = tempDir().path
        let bad = try run(example("fed-audio"), [folder])
        #expect(bad.status == 1 && bad.stdout == "fed-audio: \(folder): is a directory, not an audio file.\n")
    }

    @Test("mic-test-file: a clear voice is clear; a quiet one is not (status 2); a folder is a sentence")
    func micTestFile() throws {
        let dir = tempDir()
        let clear = writeWAV(
            dir, "clear.wav",
            WAVWriter.file(interleaved: Self.talk, sampleRate: 16_000, channels: 1, encoding: .signedInt16))
        let r = try run(example("mic-test-file"), [clear])
        #expect(r.status == 0 && r.stdout.hasPrefix("Your voice came through clearly"), "\(r.stdout)")
        let quiet = writeWAV(
            dir, "quiet.wav",
            WAVWriter.file(
                interleaved: Self.talk.map { $0 * 0.01 }, sampleRate: 16_000, channels: 1, encoding: .signedInt16))
        let q = try run(example("mic-test-file"), [quiet])
        #expect(q.status == 2 && !q.stdout.hasPrefix("Your voice came through clearly"), "\(q.stdout)")
        let bad = try run(example("mic-test-file"), [dir.path])
        #expect(bad.status == 1 && bad.stdout == "mic-test-file: \(dir.path): is a directory, not an audio file.\n")
    }

    #if os(Linux)
        @Test("apps on files and fed audio link neither libpulse nor webrtc-audio-processing; a live one does")
        func nativeLibraries() throws {
            func linked(_ name: String) throws -> String {
                try run(URL(fileURLWithPath: "/usr/bin/ldd"), [example(name).path]).stdout
            }
            for name in ["core-only", "fed-audio", "mic-test-file"] {
                let libraries = try linked(name)
                #expect(!libraries.isEmpty && !libraries.contains("libpulse"), "\(name): \(libraries)")
                #expect(!libraries.contains("webrtc"), "\(name): \(libraries)")
            }
            let live = try linked("muted-notice")
            #expect(live.contains("libpulse") && live.contains("webrtc_audio_processing"), "\(live)")
            #expect(!(try linked("core-only")).contains("Foundation"), "the kernel alone needs no Foundation")
        }
    #endif
}

#if os(Linux)
    @Suite(
        "Examples/MutedNotice on PulseAudio", .serialized, .tags(.live),
        .enabled(if: FileManager.default.fileExists(atPath: mutedNotice.path), "build the example first"))
    struct ExampleLiveTests {
        @Test("from the default PulseAudio source: speech played into the microphone raises \"You are muted.\"")
        func fromPulseAudio() throws {
            let dir = tempDir()
            guard let wav = try corpusExcerpt(seconds: 4, in: dir) else { return }
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let p = try LiveProcess([], environment: server.environment, executable: mutedNotice)
            Thread.sleep(forTimeInterval: 1)
            try server.play(wav)
            #expect(
                p.wait(timeout: 15) { p.lines.contains { $0.hasSuffix("You are muted.") } }, "\(p.lines) \(p.stderr)")
            _ = p.finish(timeout: 0)
        }
    }
#endif
