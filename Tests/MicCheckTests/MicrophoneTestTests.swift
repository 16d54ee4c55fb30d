import MicCheck
import MicCheckTesting
import Testing

@Suite("Microphone test: the verdict on a recording")
struct MicrophoneTestTests {
    let rate = 16_000

    /// What a person's test recording holds: the room, then 3.5 s of speech at `voiceDB`, then the room again,
    /// 5 s in all; the room is pink noise at `roomDB`.
    func recording(voiceDB: Double = -24, roomDB: Double = -62) -> [Float] {
        let room = Signals.pinkNoise(rmsDB: roomDB, seconds: 5, sampleRate: rate, seed: 9)
        let voice = Signals.voice(rmsDB: voiceDB, seconds: 3.5, sampleRate: rate)
        let start = rate / 2
        var x = room
        for (i, v) in voice.enumerated() { x[start + i] += v }
        return x
    }

    /// The verdict on `samples`, fed in 20 ms blocks as a microphone delivers them.
    func verdict(_ samples: [Float], sampleRate: Int = 16_000, seconds: Double = 5) throws -> MicrophoneTestVerdict {
        var test = try MicrophoneTest(sampleRate: sampleRate, configuration: .init(seconds: seconds))
        var i = 0
        let block = sampleRate / 50
        while i < samples.count, !test.isComplete {
            test.append(Array(samples[i..<min(i + block, samples.count)]))
            i += block
        }
        return test.finish()
    }

    @Test(
        "a voice at a good level in a quiet room came through clearly, with its level and its distance above the room")
    func clear() throws {
        let v = try verdict(recording())
        #expect(v.kind == .clear, "\(v)")
        #expect(v.speechSeconds > 2 && v.speechSeconds < 4.2, "\(v.speechSeconds) s of speech")
        #expect(abs((v.speechLevelDB ?? 0) + 22) < 4, "speech at \(String(describing: v.speechLevelDB))")
        #expect((v.signalToNoiseDB ?? 0) > 30)
        #expect(v.sentence().hasPrefix("Your voice came through clearly: "), "\(v.sentence())")
    }

    @Test("at 48 kHz, the rate of most microphones, the same recording came through clearly")
    func otherRate() throws {
        let x = Signals.resampled(recording(), from: rate, to: 48_000)
        let v = try verdict(x, sampleRate: 48_000)
        #expect(v.kind == .clear, "\(v)")
        #expect(abs(v.recordedSeconds - 5) < 0.01)
    }

    @Test("a voice 30 dB down is too quiet, and the sentence names the source whose volume to raise")
    func tooQuiet() throws {
        let v = try verdict(recording(voiceDB: -52, roomDB: -80))
        #expect(v.kind == .tooQuiet, "\(v)")
        #expect((v.speechLevelDB ?? 0) < -40)
        #expect(v.sentence(source: "Headset (usb)").contains("Raise the input volume of Headset (usb)"))
    }

    @Test(
        "the verdict never contradicts the analysis of the same recording: no dead when a voice was heard, no no-voice with speech, too quiet only under the quiet level (a table of voices, rooms and test lengths)",
        arguments: ["white", "pink", "brown"], [-84.0, -76.0])
    func verdictAgreesWithTheAnalysis(room colour: String, roomDB: Double) throws {
        let c = MicrophoneTest.Configuration()
        for voiceDB in [-58.0, -52.0, -40.0] {
            // The room for 7 s, a voice from 0.5 s for 2 s, then the room alone: the pause after the words is
            // longer than any hiss rule's wait.
            var x: [Float] =
                switch colour {
                case "white": Signals.whiteNoise(rmsDB: roomDB, seconds: 7, sampleRate: rate)
                case "pink": Signals.pinkNoise(rmsDB: roomDB, seconds: 7, sampleRate: rate)
                default: Signals.brownNoise(rmsDB: roomDB, seconds: 7, sampleRate: rate)
                }
            for (i, v) in Signals.voice(rmsDB: voiceDB, seconds: 2, sampleRate: rate).enumerated() {
                x[rate / 2 + i] += v
            }
            for seconds in [5.0, 6.2] {
                let v = try verdict(x.map { ($0 * 32_768).rounded() / 32_768 }, seconds: seconds)
                let heard = v.speechSeconds >= c.minimumSpeech
                let what = "voice \(voiceDB) dBFS, \(colour) room \(roomDB) dBFS, \(seconds) s: \(v)"
                #expect(!(heard && v.kind == .dead), "dead with a voice heard: \(what)")
                #expect(!(heard && v.kind == .noVoice), "no voice with speech: \(what)")
                #expect(heard || v.kind == .noVoice || v.kind == .dead, "a verdict on speech without any: \(what)")
                if v.kind == .tooQuiet { #expect((v.speechLevelDB ?? 0) < c.quietLevel, "\(what)") }
                // Each of these voices is heard: 2 s of words.
                #expect(heard, "the voice was not heard: \(what)")
            }
        }
    }

    @Test(
        "a quiet voice (-64 dBFS) over a flat room at -84 dBFS, the pause after it longer than the hiss rule's wait: too quiet, not dead"
    )
    func quietVoiceOverFlatRoom() throws {
        var x = Signals.whiteNoise(rmsDB: -84, seconds: 6, sampleRate: rate)
        for (i, v) in Signals.voice(rmsDB: -64, seconds: 2, sampleRate: rate).enumerated() { x[rate / 2 + i] += v }
        let v = try verdict(x.map { ($0 * 32_768).rounded() / 32_768 })
        #expect(v.kind == .tooQuiet && v.dead == nil, "\(v)")
        #expect(v.speechSeconds >= 0.5, "\(v)")
    }

    @Test("a voice driven 20 dB into full scale is clipping, with the share cut flat")
    func clipping() throws {
        let x = recording(voiceDB: -4).map { min(1, max(-1, $0 * 3)) }
        let v = try verdict(x)
        #expect(v.kind == .clipping, "\(v)")
        #expect((v.clipping?.share ?? 0) > 0.001)
        #expect(v.sentence(source: "Mic").contains("Lower the input volume of Mic"))
    }

    @Test("a voice 8 dB above a loud fan: the room is noisy, and the sentence says how far below the voice it is")
    func noisy() throws {
        let v = try verdict(recording(voiceDB: -26, roomDB: -34))
        #expect(v.kind == .noisy, "\(v)")
        #expect((v.signalToNoiseDB ?? 99) < 15)
        #expect(v.sentence().contains("dB below your voice"), "\(v.sentence())")
    }

    @Test("a quiet room with no one speaking: no voice heard; a loud fan alone is no voice either, not speech")
    func noVoice() throws {
        let quiet = try verdict(Signals.pinkNoise(rmsDB: -62, seconds: 5, sampleRate: rate))
        #expect(quiet.kind == .noVoice, "\(quiet)")
        #expect(quiet.speechSeconds < 0.5)
        let fan = try verdict(Signals.pinkNoise(rmsDB: -30, seconds: 5, sampleRate: rate))
        #expect(fan.kind == .noVoice, "\(fan)")
        #expect(quiet.sentence(source: "Webcam").contains("check that Webcam is the microphone you speak into"))
    }

    @Test("digital silence and a stuck value are a dead microphone, with why; nothing at all says no audio arrived")
    func dead() throws {
        let zeros = try verdict([Float](repeating: 0, count: 5 * rate))
        #expect(zeros.kind == .dead && zeros.dead == .digitalSilence, "\(zeros)")
        let stuck = try verdict([Float](repeating: 0.3, count: 5 * rate))
        #expect(stuck.kind == .dead && stuck.dead == .constantValue, "\(stuck)")
        let nothing = try verdict([])
        #expect(nothing.kind == .dead && nothing.dead == nil && nothing.recordedSeconds == 0)
        #expect(nothing.sentence().hasPrefix("No audio arrived"))
    }

    @Test("a test cut short (the user left after 2 s) is judged on what it has; samples past the end are not taken")
    func cutShortAndOverfull() throws {
        let x = recording()
        var short = try MicrophoneTest(sampleRate: rate)
        short.append(Array(x[0..<(2 * rate)]))
        #expect(!short.isComplete)
        let v = short.finish()
        #expect(abs(v.recordedSeconds - 2) < 0.001 && v.kind == .clear, "\(v)")

        var full = try MicrophoneTest(sampleRate: rate, configuration: .init(seconds: 1))
        #expect(full.append(x) == rate)
        #expect(full.isComplete && full.append(x) == 0)
        #expect(full.recording == Array(x[0..<rate]))
        var unkept = try MicrophoneTest(sampleRate: rate, keepsRecording: false)
        unkept.append(x)
        #expect(unkept.recording.isEmpty && unkept.recordedSamples == 5 * rate)
    }

    @Test("an unsupported rate is refused")
    func badRate() {
        #expect(throws: AnalysisError.self) { try MicrophoneTest(sampleRate: 1_000) }
    }

    @Test(
        "the public corpus: clean voices came through, dead devices are dead, noise alone is no voice, a voice under a fan at 0 dB is noisy",
        .enabled(if: CorpusAudio.isPresent))
    func corpus() throws {
        let expected: [(String, Set<MicrophoneTestVerdict.Kind>)] = [
            ("clean_00_hedgewars-British", [.clear]), ("clean_01_asterisk-en-allison", [.clear]),
            ("clean_02_espeak-ng-es+f3", [.clear]), ("dead_zeros", [.dead]), ("dead_dc_offset", [.dead]),
            ("dead_hiss", [.dead]), ("noise_01_fan_hum_synth", [.noVoice]), ("noise_04_pink", [.noVoice]),
            ("snr00_fan_hum_synth_klettres-he", [.noisy]), ("snr05_fan_hum_synth_espeak-ng-en+m3", [.noisy]),
        ]
        for (name, kinds) in expected {
            guard let x = try CorpusAudio.mono(name, seconds: 5) else { continue }
            let v = try verdict(x)
            #expect(kinds.contains(v.kind), "\(name): \(v)")
        }
    }
}
