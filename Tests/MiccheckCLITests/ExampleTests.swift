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
