import Foundation
import MicCheck
import MicCheckTesting
import Testing

@Suite("StreamingAnalysis, the core's door")
struct StreamingAnalysisTests {
    /// Every record of the door on `x`, fed in odd-sized blocks.
    func records(_ x: [Float], rate: Int, model: VoiceActivityModel = .bundled) throws -> [AnalysisOutput] {
        var stream = try StreamingAnalysis(sampleRate: rate, model: model)
        var records: [AnalysisOutput] = []
        forEachBlock(of: x, sizes: [333]) { stream.process($0) { records.append($0) } }
        stream.finish { records.append($0) }
        return records
    }

    @Test(
        "the look-ahead model's speech start comes ahead of its frame from the raw analyzer, in time order from the door"
    )
    func timeOrder() throws {
        let rate = 16_000
        let x =
            [Float](repeating: 0, count: rate) + Signals.voice(rmsDB: -25, seconds: 2, sampleRate: rate)
            + [Float](repeating: 0, count: rate)
        let model = try VoiceActivityModel(json: ModelFiles.bundled(lookahead: 3))
        let raw = analyseRecords(x, rate: rate, model: model)
        // The raw analyzer: speech_started before the record of the frame it is stamped with.
        guard let start = raw.firstIndex(where: { if case .event(.speechStarted) = $0 { true } else { false } }) else {
            Issue.record("no speech_started")
            return
        }
        let startTime = raw[start].time
        #expect(raw[..<start].allSatisfy { $0.time < startTime })
        #expect(raw[start...].contains { if case .frame(let f) = $0 { f.time == startTime } else { false } })

        let door = try records(x, rate: rate, model: model)
        let t = door.map(\.time)
        #expect(zip(t, t.dropFirst()).allSatisfy { $0 <= $1 })
        // The same records, each event after the frame it is stamped with.
        #expect(door.split.0 == raw.split.0 && door.split.1 == raw.split.1)
        let doorStart = try #require(door.firstIndex { if case .event(.speechStarted) = $0 { true } else { false } })
        #expect(door[..<doorStart].contains { if case .frame(let f) = $0 { f.time == startTime } else { false } })
    }

    @Test(
        "a sample rate outside the supported ones throws, at the start and at a restart", arguments: [0, 7_999, 96_001])
    func unsupportedRate(rate: Int) throws {
        #expect(throws: AnalysisError.unsupportedSampleRate(rate)) { try StreamingAnalysis(sampleRate: rate) }
        var stream = try StreamingAnalysis(sampleRate: 16_000)
        #expect(throws: AnalysisError.unsupportedSampleRate(rate)) { try stream.restart(sampleRate: rate) { _ in } }
        #expect("\(AnalysisError.unsupportedSampleRate(rate))" == "\(rate) Hz is not a supported sample rate")
    }

    @Test("a restart resumes at the next frame boundary and keeps the configuration")
    func restart() throws {
        var configuration = AnalysisConfiguration()
        configuration.speech.hangover = 0.5
        var stream = try StreamingAnalysis(sampleRate: 48_000, configuration: configuration)
        let x = [Float](repeating: 0.01, count: 4_800)  // 100 ms
        x.withUnsafeBufferPointer { stream.process($0) { _ in } }
        let resume = try stream.restart(sampleRate: 16_000) { _ in }
        // After the frames analysed so far, on a 10 ms boundary.
        #expect(resume >= 0.1 - 1e-9 && resume <= 0.11 + 1e-9, "\(resume)")
        #expect(abs(resume * 100 - (resume * 100).rounded()) < 1e-6)
        #expect(stream.startTime == resume && stream.sampleRate == 16_000)
        #expect(stream.configuration == configuration)
        // A source that was away: not before the wall clock.
        #expect(abs(try stream.restart(sampleRate: 8_000, notBefore: 2.004) { _ in } - 2.01) < 1e-9)
    }
}
