import Foundation
import MicCheck
import MicCheckLive
import MicCheckTesting
import Testing

/// The whole live path (source, read loop, restart policy, time order, consumers) on generated audio
/// with the fake source's clock.
@Suite struct LiveAnalysisTests {
    let rate = 16_000

    private func speech(seconds: Double = 1.5, rate: Int = 16_000) -> [Float] {
        let quiet = Signals.pinkNoise(rmsDB: -62, seconds: 0.6, sampleRate: rate)
        return quiet + Signals.voice(rmsDB: -24, seconds: seconds, sampleRate: rate) + quiet
    }

    @Test func recordsComeInTimeOrderAsAFileAnalysisGivesThem() throws {
        let x = speech()
        let (records, ending) = LiveHarness.run(FakeAudioSource(sampleRate: rate, steps: [.audio(x)]))
        #expect(ending == .ended)
        #expect(records.first == .audioStarted)
        let analysis = records.compactMap { if case .analysis(let r) = $0 { r } else { nil } }
        let t = analysis.map(\.time)
        #expect(zip(t, t.dropFirst()).allSatisfy { $0 <= $1 }, "time order")
        // The same records, reordered, as the analyzer gives them for the whole input at once.
        var analyzer = Analyzer(inputRate: rate)
        var direct: [AnalysisOutput] = []
        x.withUnsafeBufferPointer { analyzer.process($0) { direct.append($0) } }
        analyzer.finish { direct.append($0) }
        #expect(records.frames == direct.compactMap { if case .frame(let f) = $0 { f } else { nil } })
        #expect(records.events == direct.compactMap { if case .event(let e) = $0 { e } else { nil } })
        let names = records.events.map(\.name)
        #expect(names.count >= 2 && names.count % 2 == 0)
        #expect(names.enumerated().allSatisfy { $1 == ($0 % 2 == 0 ? "speech_started" : "speech_ended") })
        // The look-ahead model puts an event ahead of the last frames as it comes; the session does not.
        #expect(zip(direct.map(\.time), direct.dropFirst().map(\.time)).contains { $0 > $1 })
    }

    @Test func aRestartResumesAtTheWallClockAndTKeepsCounting() {
        // 1 s of audio, a 2.5 s outage, then a new stream at 48 kHz.
        let source = FakeAudioSource(
            sampleRate: rate,
            steps: [
                .audio(speech(seconds: 0.2)), .quiet(count: 3), .restart(rate: 48_000, gap: 2.5),
                .audio(speech(seconds: 1, rate: 48_000)),
            ])
        let (records, ending) = LiveHarness.run(source)
        #expect(ending == .ended)
        let restarts = records.compactMap { if case .restarted(let t) = $0 { t } else { nil } }
        // 1.4 s of audio + 0.3 s of quiet reads + 2.5 s gap = 4.2 s on the source's clock.
        #expect(restarts == [4.2])
        let frames = records.frames
        let after = frames.filter { $0.time >= 4.2 }
        #expect(frames.last?.time ?? 0 > 6)
        #expect(after.first?.time == 4.2 && after.first?.index == 0)
        #expect(frames.filter { $0.time < 4.2 }.count == 140)
        let t = frames.map(\.time)
        #expect(zip(t, t.dropFirst()).allSatisfy { $0 < $1 })
        #expect(records.filter { $0 == .idle }.count == 3)
        // The second stream's speech is found at its own rate.
        #expect(records.events.contains { if case .speechStarted(let t, _) = $0 { t > 4.2 } else { false } })
    }

    @Test func durationStopsAtTheSampleThatCompletesIt() {
        let source = FakeAudioSource(sampleRate: 44_100, steps: [.audio(speech(rate: 44_100))], block: 1_000)
        let (records, ending) = LiveHarness.run(source, configuration: .init(duration: .milliseconds(1_250)))
        #expect(ending == .durationReached(.milliseconds(1_250)))
        #expect(records.frames.count == 125)
        #expect(records.frames.last?.time == 1.24)
    }

    @Test func aFailureEndsTheSessionAfterTheRecordsBeforeIt() {
        let error = AudioSourceError(.connectionLost, "the server went away")
        let source = FakeAudioSource(
            sampleRate: rate, steps: [.audio(speech(seconds: 1)), .fail(error), .audio(speech())])
        let (records, ending) = LiveHarness.run(source)
        #expect(ending == .failed(error))
        #expect(records.frames.count == 220)
        // An utterance open at the failure is closed.
        #expect(records.events.last?.name == "speech_ended")
    }

    @Test func anUnsupportedRateIsAFailureNotACrash() {
        let (records, ending) = LiveHarness.run(FakeAudioSource(sampleRate: 7_000, steps: [.audio([0, 0, 0])]))
        guard case .failed(let e) = ending else {
            Issue.record("ended \(ending)")
            return
        }
        #expect(e.kind == .badData && e.message.contains("7000 Hz"))
        #expect(records.isEmpty)
        let restart = FakeAudioSource(
            sampleRate: rate, steps: [.audio(speech(seconds: 0.3)), .restart(rate: 1, gap: 0)])
        #expect(
            LiveHarness.run(restart).ending
                == .failed(AudioSourceError(.badData, "a fake source: 1 Hz is not a supported sample rate")))
    }

    @Test func aMonitorSourceRaisesWrongSourceFirst() {
        let source = FakeAudioSource(
            sampleRate: rate, steps: [.audio(speech(seconds: 0.3))], monitorSource: "Monitor of Out (out.monitor)")
        let (records, _) = LiveHarness.run(source)
        #expect(records.first == .analysis(.event(.wrongSource(time: 0, source: "Monitor of Out (out.monitor)"))))
    }

    @Test func stopFromTheCallbackEndsTheSession() {
        let source = FakeAudioSource(sampleRate: rate, steps: [.audio(speech(seconds: 3))])
        let session = LiveAnalysis(source: source, clock: source.clock)
        var frames = 0
        let ending = session.run { record in
            if case .analysis(.frame) = record { frames += 1 }
            if frames == 50 { session.stop() }
        }
        #expect(ending == .stopped && session.ending == .stopped)
        #expect((50...60).contains(frames))
        // A session runs once.
        #expect(session.run { _ in Issue.record("a second run delivered a record") } == .stopped)
    }

    @Test func theMutedNoticeFollowsTheSession() {
        let x = speech(seconds: 1) + speech(seconds: 1)
        let (records, _) = LiveHarness.run(FakeAudioSource(sampleRate: rate, steps: [.audio(x)]))
        var notice = MutedSpeechNotice(isMuted: true)
        let shown = records.filter { notice.consume($0) }
        // Two utterances 3.2 s apart: the second falls in the cooldown after the first.
        #expect(records.events.filter { $0.name == "speech_started" }.count == 2)
        #expect(shown.count == 1)
        var unmuted = MutedSpeechNotice(isMuted: false)
        #expect(records.filter { unmuted.consume($0) }.isEmpty)
    }

    @Test func snapshotsHoldTheLatestStateForAScreenThatPolls() {
        let (records, ending) = LiveHarness.run(FakeAudioSource(sampleRate: rate, steps: [.audio(speech())]))
        let snapshots = LiveSnapshots(clock: { 12.5 })
        // The first 0.4 s: no event yet.
        for r in records.prefix(41) { snapshots.consume(r) }
        let first = snapshots.take()
        #expect(first.startedAt == 12.5)
        #expect(first.frames == 40 && first.events.isEmpty && first.ending == nil)
        for r in records.dropFirst(41) { snapshots.consume(r) }
        snapshots.ended(ending)
        let second = snapshots.take()
        #expect(second.frames == records.frames.count - 40)
        #expect(second.events == records.events)
        #expect(second.ending == .ended && second.levelDB == records.frames.last?.levelDB)
        #expect(snapshots.take().events.isEmpty)
    }
}

/// The sources that ship in the library.
@Suite struct AudioSourceTests {
    @Test("a WAV source on a directory: unreadable, with the reader's sentence")
    func directory() {
        let dir = FileManager.default.temporaryDirectory.path
        do {
            _ = try WAVFileSource(path: dir, pacing: .asFastAsPossible)
            Issue.record("a directory opened")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.message == "\(dir): is a directory, not an audio file")
            #expect((error as any Error).localizedDescription == "\(dir): is a directory, not an audio file.")
        }
    }

    @Test func fedSourceDeliversWhatItIsFedThenEnds() async {
        let fed = FedAudioSource(sampleRate: 16_000, label: "a browser", capacity: 4_000)
        let session = LiveAnalysis(source: fed)
        let voice = Signals.voice(rmsDB: -24, seconds: 1.5, sampleRate: 16_000)
        let quiet = [Float](repeating: 0, count: 8_000)
        Task.detached {
            // A feeder faster than the reader: it feeds again what the capacity refused, so every sample is analysed.
            var rest = ArraySlice(voice + quiet)
            while !rest.isEmpty {
                let taken = fed.feed(Array(rest.prefix(320)))
                rest = rest.dropFirst(taken)
                if taken == 0 { try? await Task.sleep(for: .milliseconds(1)) }
            }
            fed.end()
        }
        var frames = 0
        var names: [String] = []
        for await record in session.records() {
            if case .analysis(.frame) = record { frames += 1 }
            if case .analysis(.event(let e)) = record { names.append(e.name) }
        }
        #expect(session.ending == .ended)
        #expect(frames == 200)
        #expect(names.contains("speech_started") && names.last == "speech_ended")
    }

    @Test("leaving a for-await loop over the records early stops the session")
    func breakingOutOfRecordsStopsTheSession() async throws {
        let session = LiveAnalysis(source: try BundledSample.source(pacing: .realTime, loop: true))
        var seen = 0
        for await _ in session.records() {
            seen += 1
            if seen == 3 { break }
        }
        #expect(seen == 3)
        let deadline = ContinuousClock.now + .seconds(5)
        while session.ending == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(session.ending == .stopped)
        // A second iteration finishes at once and does not stop anything.
        var again = 0
        for await _ in session.records() { again += 1 }
        #expect(again == 0)
    }

    @Test("a file fed faster than real time through the waiting feed loses nothing; speech ends where it ends")
    func fedSourceWaitsForRoom() async {
        // 7 s: speech from 1 s to 5 s, then silence; the buffer holds 0.1 s, so the feeder must wait.
        let rate = 16_000
        let audio =
            [Float](repeating: 0, count: rate) + Signals.voice(rmsDB: -24, seconds: 4, sampleRate: rate)
            + [Float](repeating: 0, count: 2 * rate)
        let fed = FedAudioSource(sampleRate: rate, label: "fast feeder", capacity: rate / 10)
        let session = LiveAnalysis(source: fed)
        let feeder = Task {
            var taken = 0
            for start in stride(from: 0, to: audio.count, by: 4_096) {
                taken += await fed.feedWaitingForRoom(Array(audio[start..<min(audio.count, start + 4_096)]))
            }
            fed.end()
            return taken
        }
        var frames = 0
        var ends: [Double] = []
        for await record in session.records() {
            if case .analysis(.frame) = record { frames += 1 }
            if case .analysis(.event(let e)) = record, e.name == "speech_ended" { ends.append(e.time) }
        }
        #expect(await feeder.value == audio.count)
        #expect(frames == audio.count / 160)
        #expect(ends.last.map { (4.9...5.8).contains($0) } == true, "speech ended at \(ends)")
    }

    @Test("the refusing feed takes a block whole or throws, and a waiting feeder is released by stop")
    func fedSourceRefusesOverflowLoudly() async throws {
        let fed = FedAudioSource(sampleRate: 16_000, label: "uplink", capacity: 100)
        #expect(try fed.feedAll([Float](repeating: 0.1, count: 60)))
        do {
            try fed.feedAll([Float](repeating: 0.1, count: 50))
            Issue.record("a block that does not fit was taken")
        } catch {
            #expect(error == FedAudioSource.Overflow(label: "uplink", refused: 50, room: 40))
            #expect(
                error.localizedDescription
                    == "uplink: a block of 50 samples was refused: the analysis is behind and has room for 40.")
        }
        #expect(fed.droppedSamples == 0, "a refused block is the feeder's, not counted as dropped")
        // Nobody reads: a waiting feeder takes what fits, then waits until stop() releases it.
        let waiting = Task { await fed.feedWaitingForRoom([Float](repeating: 0.2, count: 100)) }
        try await Self.waitUntilFull(fed, capacity: 100)
        fed.stop()
        #expect(await waiting.value == 40)
        #expect(try fed.feedAll([1]) == false, "a stopped source takes nothing, quietly")
        // A cancelled feeder stops waiting too.
        let other = FedAudioSource(sampleRate: 16_000, label: "x", capacity: 10)
        let cancelled = Task { await other.feedWaitingForRoom([Float](repeating: 0, count: 30)) }
        try await Self.waitUntilFull(other, capacity: 10)
        try await Task.sleep(for: .milliseconds(20))  // the feeder is waiting now (or about to: both are tested)
        cancelled.cancel()
        #expect(await cancelled.value == 10)
    }

    /// Returns once `fed` holds `capacity` samples (a feeder has filled it), at most 5 s later.
    static func waitUntilFull(_ fed: FedAudioSource, capacity: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while fed.bufferedSamples < capacity, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(fed.bufferedSamples == capacity, "the feeder never filled the source")
    }

    @Test func fedSourceCountsWhatAFullBufferDropsAndChangesRate() throws {
        let fed = FedAudioSource(sampleRate: 16_000, label: "x", capacity: 100)
        #expect(fed.feed([Float](repeating: 0.1, count: 150)) == 100)
        #expect(fed.droppedSamples == 50)
        fed.changeRate(to: 48_000)
        #expect(fed.feed([Float](repeating: 0.2, count: 30)) == 0, "still full")
        var buffer = [Float](repeating: 0, count: 64)
        let reads = try (0..<4).map { _ in
            try buffer.withUnsafeMutableBufferPointer { try fed.read(into: $0, timeout: .zero) }
        }
        #expect(reads == [.samples(64), .samples(36), .restarted, .idle])
        #expect(fed.sampleRate == 48_000)
        fed.stop()
        #expect(try buffer.withUnsafeMutableBufferPointer { try fed.read(into: $0, timeout: .seconds(1)) } == .stopped)
        #expect(fed.feed([1]) == 0)
    }

    @Test func bundledSamplePlaysAsFastAsPossibleOrInRealTime() throws {
        let fast = try BundledSample.source(pacing: .asFastAsPossible)
        #expect(fast.format.sampleRate == 16_000 && fast.declaredFrameCount.map { $0 > 180_000 } == true)
        let (records, ending) = LiveAnalysis(source: fast).runCollecting()
        #expect(ending == .ended)
        #expect(records.events.filter { $0.name == "speech_started" }.count >= 2)
        // In real time: 10 ms blocks, and stop() ends a wait at once.
        let live = try BundledSample.source(pacing: .realTime, loop: true)
        var buffer = [Float](repeating: 0, count: 8_192)
        #expect(
            try buffer.withUnsafeMutableBufferPointer { try live.read(into: $0, timeout: .seconds(1)) } == .samples(160)
        )
        live.stop()
        #expect(try buffer.withUnsafeMutableBufferPointer { try live.read(into: $0, timeout: .seconds(5)) } == .stopped)
    }

    @Test func aWAVFileThatCannotBeReadIsATypedError() {
        do {
            _ = try WAVFileSource(path: "/nonexistent/x.wav", pacing: .asFastAsPossible)
            Issue.record("opened a missing file")
        } catch {
            #expect(error.kind == .unreadable && error.message.hasPrefix("/nonexistent/x.wav: "))
        }

    }
}

extension LiveAnalysis {
    func runCollecting() -> ([LiveRecord], LiveEnding) {
        var records: [LiveRecord] = []
        let ending = run { records.append($0) }
        return (records, ending)
    }
}

/// The deprecated seconds forms (`LiveAnalysis.Configuration(duration:readTimeout:)`,
/// `LiveMicrophoneTest.record(…timeout:)`, the sources' `read(into:timeout:)`) turn their seconds into a
/// wait through one rule: `Duration.seconds(_:)` traps on NaN and infinity, which a caller's arithmetic can give.
@Suite struct DeprecatedSecondsTests {
    @Test func anyNumberOfSecondsIsAWaitAndNoneTraps() {
        #expect(Duration.wait(seconds: 0.25) == .milliseconds(250))
        #expect(Duration.wait(seconds: 0) == .zero)
        #expect(Duration.wait(seconds: -3) == .zero)
        #expect(Duration.wait(seconds: .nan) == .zero)
        #expect(Duration.wait(seconds: -.infinity) == .zero)
        #expect(Duration.wait(seconds: .infinity) == .seconds(1_000_000_000))
        #expect(Duration.wait(seconds: 1e300) == .seconds(1_000_000_000))
    }
}

/// The deprecated seconds forms, called through a protocol whose witnesses are deprecated: the test compiles
/// without deprecation warnings, and checks the forms themselves, not just the rule they share.
private protocol SecondsForms {
    func configuration(duration: Double?, readTimeout: Double) -> LiveAnalysis.Configuration
    func record(from source: any AudioSource, timeout: Double) throws(AudioSourceError) -> MicrophoneTestResult
}

private struct DeprecatedSecondsForms: SecondsForms {
    @available(*, deprecated)
    func configuration(duration: Double?, readTimeout: Double) -> LiveAnalysis.Configuration {
        LiveAnalysis.Configuration(duration: duration, readTimeout: readTimeout)
    }

    @available(*, deprecated)
    func record(from source: any AudioSource, timeout: Double) throws(AudioSourceError) -> MicrophoneTestResult {
        try LiveMicrophoneTest.record(from: source, timeout: timeout)
    }
}

extension DeprecatedSecondsTests {
    @Test func theDeprecatedFormsTakeNaNAndInfinityWithoutTrapping() throws {
        let forms: any SecondsForms = DeprecatedSecondsForms()
        let nan = forms.configuration(duration: .nan, readTimeout: .infinity)
        #expect(nan.duration == .zero)
        #expect(nan.readTimeout == .seconds(1_000_000_000))
        let usual = forms.configuration(duration: 5, readTimeout: 0.1)
        #expect(usual.duration == .seconds(5) && usual.readTimeout == .milliseconds(100))
        #expect(forms.configuration(duration: nil, readTimeout: -1).duration == nil)
        // A NaN timeout is no wait: a source that has nothing yet gives a dead verdict at once, without a trap.
        let silent = FakeAudioSource(sampleRate: 16_000, steps: [.quiet(count: 1_000)])
        let result = try forms.record(from: silent, timeout: .nan)
        #expect(result.verdict.kind == .dead)
    }
}
