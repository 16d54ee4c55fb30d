import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// `miccheck mic-test` on files and the bundled sample: the verdict as a sentence or JSON, and its errors.
@Suite("miccheck mic-test")
struct MicTestCommandTests {
    @Test("the bundled sample came through clearly; text on stdout, what happens on stderr")
    func sample() throws {
        let r = try miccheck(["mic-test", "--sample"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Your voice came through clearly: "), "\(r.stdout)")
        #expect(r.stderr.contains("testing the first 5.00 s of sample.wav"), "\(r.stderr)")
        #expect(!r.stderr.contains("say a sentence"), "a file is not asked to speak: \(r.stderr)")
    }

    @Test("a dead file as JSON: the verdict's fields and the source; --fail-unless-clear exits 1 on a quiet voice")
    func jsonAndStatus() throws {
        let dir = tempDir()
        let dead = writeWAV(
            dir, "dead.wav",
            WAVWriter.file(
                interleaved: [Float](repeating: 0, count: 16_000 * 6), sampleRate: 16_000, channels: 1,
                encoding: .signedInt16))
        let r = try miccheck(["mic-test", "--input", dead, "--format", "json"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(o["verdict"] as? String == "dead" && o["reason"] as? String == "digital_silence")
        #expect(o["recorded_seconds"] as? Double == 5 && o["source"] as? String == dead)

        let quiet = writeWAV(
            dir, "quiet.wav",
            WAVWriter.file(
                interleaved: Signals.voice(rmsDB: -55, seconds: 6, sampleRate: 16_000), sampleRate: 16_000, channels: 1,
                encoding: .signedInt16))
        let q = try miccheck(["mic-test", "--input", quiet, "--fail-unless-clear", "--seconds", "3"])
        #expect(q.status == 1 && q.stdout.contains("too quietly"), "\(q.stdout) \(q.stderr)")
    }

    @Test("bad options and a missing file: one sentence and the documented status")
    func badInput() throws {
        for (args, status, text) in [
            (["--seconds", "60"], 64, "--seconds must be from 1 to 10"),
            (["--seconds", "nan"], 64, "--seconds must be from 1 to 10"),
            (["--sample", "--input", "x.wav"], 64, "use one of --input, --sample"),
            (["--input", "/nonexistent/x.wav"], 66, "/nonexistent/x.wav"),
        ] as [([String], Int32, String)] {
            let r = try miccheck(["mic-test"] + args)
            #expect(r.status == status && r.stderr.contains(text), "\(args): \(r.status) \(r.stderr)")
        }
    }
}

#if os(Linux)
    @Suite("miccheck mic-test against a private PulseAudio server", .serialized, .tags(.live))
    struct MicTestLiveTests {
        @Test("records the virtual microphone, says the voice came through, and plays it back before it exits")
        func recordsAndPlaysBack() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let folder = tempDir()
            try server.play(MicrophoneTestLobbyTests.voiceFile(folder, voiceDB: -24, roomDB: -62))
            let start = Date()
            let r = try miccheck(["mic-test", "--seconds", "3"], environment: server.environment)
            let took = Date().timeIntervalSince(start)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("Your voice came through clearly"), "\(r.stdout)")
            #expect(r.stderr.contains("recording 3.00 s from VirtualMic (virtmic)"), "\(r.stderr)")
            #expect(r.stderr.contains("playing back your recording…"), "\(r.stderr)")
            #expect(took > 5.5, "3 s recorded and 3 s played back took \(took) s")
            let silent = try miccheck(["mic-test", "--seconds", "1", "--no-playback"], environment: server.environment)
            #expect(!silent.stderr.contains("playing back"))
        }
    }
#endif
