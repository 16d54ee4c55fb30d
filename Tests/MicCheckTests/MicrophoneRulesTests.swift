import MicCheck
import Testing

/// The call's microphone rules, transition by transition (the server's call channel runs them on generated
/// speech in CallChannelTests; the page runs them in its WebAssembly).
@Suite struct MicrophoneRulesTests {
    typealias Action = MicrophoneRules.Action

    private func frame(_ t: Double, speaking: Bool = false) -> AnalysisOutput {
        .frame(
            AnalysisFrame(
                index: Int(t * 100), time: t, levelDB: -30, peakDB: -20, probability: speaking ? 0.9 : 0.1,
                isSpeech: speaking, isSpeaking: speaking))
    }

    private func run(_ rules: inout MicrophoneRules, _ records: [AnalysisOutput], now: Double = 0) -> [Action] {
        var actions: [Action] = []
        for r in records { rules.record(r, now: now) { actions.append($0) } }
        return actions
    }

    private let typing = AnalysisOutput.event(
        .keyboardNoise(
            time: 1, typing: KeyboardNoiseDetector.Typing(keystrokes: 8, perSecond: 4, levelDB: -40, since: 0)))

    @Test("speech is speaking once per utterance; while muted its start shows \"You are muted.\" and unmuting hides it")
    func speakingAndMutedNotice() {
        var rules = MicrophoneRules(audioOn: true, place: .call, now: 0)
        var actions = run(&rules, [.event(.speechStarted(time: 0.5, audioStart: 0.2)), frame(0.5, speaking: true)])
        #expect(actions == [.speaking(true)])
        actions = run(&rules, [.event(.speechEnded(time: 1.5))])
        #expect(actions == [.speaking(false)] && !rules.isSpeaking)
        rules.setMicrophone(on: false, now: 2) { actions.append($0) }
        actions = run(&rules, [.event(.speechStarted(time: 2.5, audioStart: 2.2))])
        #expect(actions == [.speaking(true), .mutedNotice(show: true)])
        actions = []
        rules.setMicrophone(on: true, now: 3) { actions.append($0) }
        #expect(actions == [.mutedNotice(show: false)])
    }

    @Test("typing shows its notice in the call only: the lobby spends none of its two minutes")
    func typingInTheCallOnly() {
        var rules = MicrophoneRules(audioOn: true, place: .lobby, now: 0)
        #expect(run(&rules, [typing]).isEmpty)
        rules.enter(.call)
        #expect(run(&rules, [typing]) == [.typingNotice(show: true)])
        _ = run(&rules, [frame(1.2)])  // the notices' clock is the analysis'
        var muted: [Action] = []
        rules.setMicrophone(on: false, now: 1.5) { muted.append($0) }
        #expect(muted == [.typingNotice(show: false)])
    }

    @Test("audio that stops mid-utterance ends speaking after a second; the next frame brings it back")
    func stall() {
        var rules = MicrophoneRules(audioOn: true, place: .call, now: 0)
        _ = run(&rules, [.event(.speechStarted(time: 0.5, audioStart: 0.2)), frame(0.5, speaking: true)], now: 0.5)
        var actions: [Action] = []
        rules.tick(now: 1.2) { actions.append($0) }
        #expect(actions.isEmpty)
        rules.tick(now: 1.6) { actions.append($0) }
        #expect(actions == [.speaking(false)])
        #expect(run(&rules, [frame(1.7, speaking: true)], now: 1.7) == [.speaking(true)])
    }

    @Test("ten frames make a report; a dead signal and a warning reach the check")
    func reportsAndTheCheck() {
        var rules = MicrophoneRules(audioOn: true, place: .lobby, now: 0)
        let frames = (0..<25).map { frame(Double($0) / 100) }
        #expect(run(&rules, frames, now: 0.25).filter { $0 == .report }.count == 2)
        _ = run(&rules, [.event(.microphoneSilent(time: 0.3, signature: .digitalSilence))], now: 0.3)
        #expect(rules.check.isDeadSignal)
        _ = run(&rules, [.event(.clipping(time: 0.4, ceilingDB: -0.1, share: 0.05))], now: 0.4)
        #expect(rules.check.shownWarnings.map(\.kind) == [.clipping])
        #expect(MicrophoneRules.effect(of: .clippingEnded(time: 1)) == .warning)
        #expect(MicrophoneRules.effect(of: .microphoneActive(time: 1)) == .deadSignal(false))
    }
}
