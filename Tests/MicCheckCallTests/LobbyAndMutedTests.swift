import Foundation
import MicCheck
import MicCheckCall
import MicCheckTesting
import Testing

@Suite struct LobbyModelTests {
    static func lobby(others: Int, audioOn: Bool = true, at start: Double = 0) -> LobbyModel {
        let people = (0..<others).map { Participant(id: "p\($0)", name: "Person \($0)") }
        let me = Participant(id: "me", name: "Me", isLocalUser: true)
        return LobbyModel(
            callID: "c", localUser: me, participants: people + [me], settings: CallSettings(audioOn: audioOn),
            at: start)
    }

    @Test(
        arguments: [
            (0, nil), (1, "There is 1 more person in the call."), (2, "There are 2 more people in the call."),
            (3, "There are 3 more people in the call."), (12, "There are 12 more people in the call."),
        ]
            as [(Int, String?)])
    func countsTheOthers(others: Int, message: String?) {
        let lobby = Self.lobby(others: others)
        #expect(lobby.others.count == others, "the local user is not counted")
        #expect(lobby.participantsMessage == message)
        #expect(LobbyModel.aboutToJoin == "You are about to join a call.")
    }

    @Test func joinOnceWithTheChosenSettingsAndNothingAfter() {
        let clock = ManualClock()
        let time = CallTimeline(clock: clock)
        var lobby = Self.lobby(others: 2, at: time.now)
        lobby.toggle(.microphone, at: time.now)
        lobby.toggle(.speaker, at: time.now)
        clock.advance(by: .seconds(1))
        let joined = lobby.join()
        #expect(joined == CallSettings(audioOn: false, videoOn: true, speakerOn: false))
        #expect(lobby.phase == .joined(CallSettings(audioOn: false, videoOn: true, speakerOn: false)))
        #expect(lobby.join() == nil)
        lobby.toggle(.camera, at: time.now)
        #expect(lobby.settings.videoOn, "toggles do nothing once joined")
        lobby.close()
        #expect(lobby.phase != .closed)
    }

    @Test func closeWithoutJoining() {
        var lobby = Self.lobby(others: 0)
        lobby.close()
        #expect(lobby.phase == .closed)
        #expect(lobby.join() == nil)
    }

    /// Scripts of (seconds to advance, what happens) against the silent warning.
    enum Step: Sendable {
        case advance(Double)
        case level(Float)
        case dead(Bool)
        case toggleMicrophone
        case expect(Bool)
    }

    @Test(
        arguments: [
            (
                "a working microphone never warns", true,
                [
                    Step.advance(0.5), .level(-40), .advance(1), .level(-62), .advance(1),
                    .level(-70), .advance(1), .level(-65), .expect(false), .advance(1), .level(-64), .expect(false),
                ]
            ),
            (
                "no audio at all: quiet during the grace period, then the warning", true,
                [.advance(2.9), .expect(false), .advance(0.2), .expect(true)]
            ),
            (
                "a quiet room is not a dead microphone", true,
                [
                    .level(-75), .advance(1), .level(-75), .advance(1), .level(-75), .advance(1), .level(-75),
                    .advance(1), .level(-76), .expect(false),
                ]
            ),
            (
                "a dead device warns once the grace period is over", true,
                [
                    .level(-160), .dead(true), .advance(1), .expect(false), .advance(2.5), .level(-160), .expect(true),
                    .dead(false), .level(-30), .expect(false),
                ]
            ),
            (
                "audio that stops warns after the stall timeout", true,
                [
                    .level(-30), .advance(3), .level(-30), .expect(false), .advance(1.4), .expect(false), .advance(0.2),
                    .expect(true),
                ]
            ),
            (
                "never while the microphone is off", false,
                [.advance(10), .expect(false), .dead(true), .advance(10), .expect(false)]
            ),
            (
                "turning the microphone off hides it; on again starts a new grace period", true,
                [
                    .advance(4), .expect(true), .toggleMicrophone, .expect(false), .advance(5), .toggleMicrophone,
                    .advance(2), .expect(false),
                    .advance(1.1), .expect(true),
                ]
            ),
        ] as [(String, Bool, [Step])])
    func silentWarning(name: String, startOn: Bool, steps: [Step]) {
        let clock = ManualClock(now: .seconds(100))
        let time = CallTimeline(clock: clock, start: .zero)
        var lobby = Self.lobby(others: 1, audioOn: startOn, at: time.now)
        for (k, step) in steps.enumerated() {
            switch step {
            case .advance(let s): clock.advance(by: .seconds(s))
            case .level(let db): lobby.microphoneLevel(db, at: time.now)
            case .dead(let d): lobby.microphoneDeadSignal(d, at: time.now)
            case .toggleMicrophone: lobby.toggle(.microphone, at: time.now)
            case .expect(let shown):
                #expect(lobby.showsSilentWarning(at: time.now) == shown, "step \(k) of \(name)")
            }
        }
        #expect(
            MicrophoneCheck.silentWarning
                == "Your microphone doesn't seem to be working. Make sure you have all permissions accepted.")
    }

    @Test func theMeterKeepsRecentLevels() {
        let clock = ManualClock()
        let time = CallTimeline(clock: clock)
        var check = MicrophoneCheck(isOn: true, at: time.now, configuration: .init(historyLength: 3))
        for db: Float in [-60, -40, -30, -20] {
            clock.advance(by: .seconds(0.01))
            check.received(levelDB: db, at: time.now)
        }
        #expect(check.history == [-40, -30, -20])
        #expect(abs(check.displayLevel - 0.6) < 1e-6)
    }
}

@Suite struct MutedIndicatorTests {
    static let granted: Permission = {
        var p = Permission()
        p.resolve(granted: true)
        return p
    }()
    static let denied: Permission = {
        var p = Permission()
        p.resolve(granted: false)
        return p
    }()

    @Test(
        arguments: [
            (false, Set<OwnCapability>([.sendAudio, .sendVideo]), granted, true),
            (true, [.sendAudio, .sendVideo], granted, false),
            (false, [.sendVideo], granted, false),
            (false, [.sendAudio], denied, false),
            (false, [.sendAudio], Permission(), false),
        ] as [(Bool, Set<OwnCapability>, Permission, Bool)])
    func activeOnlyWhenMutedAllowedAndGranted(
        audioOn: Bool, capabilities: Set<OwnCapability>, permission: Permission, active: Bool
    ) {
        var indicator = MutedIndicator()
        indicator.update(settings: CallSettings(audioOn: audioOn), capabilities: capabilities, microphone: permission)
        #expect(indicator.isActive == active)
        do {
            let shown = indicator.speechStarted(at: 1)
            #expect(shown == active)
        }
        #expect(indicator.isVisible(at: 1.5) == active)
    }

    @Test func showsForTwoSecondsOncePerUtteranceThenCoolsDown() {
        let clock = ManualClock(now: .seconds(10))
        let time = CallTimeline(clock: clock, start: .zero)
        var indicator = MutedIndicator()
        indicator.update(settings: CallSettings(audioOn: false), capabilities: [.sendAudio], microphone: Self.granted)
        #expect(!indicator.isVisible(at: time.now))
        do {
            let shown = indicator.speechStarted(at: time.now)
            #expect(shown)
        }
        #expect(MutedIndicator.text == "You are muted.")
        clock.advance(by: .seconds(1.99))
        #expect(indicator.isVisible(at: time.now))
        #expect(indicator.hidesAt(after: time.now) == 12)
        clock.advance(by: .seconds(0.02))
        #expect(!indicator.isVisible(at: time.now), "gone after 2 s")
        clock.advance(by: .seconds(2))
        do {
            let shown = indicator.speechStarted(at: time.now)
            #expect(!shown, "the next utterance inside the cooldown stays quiet")
        }
        clock.advance(by: .seconds(3.1))
        do {
            let shown = indicator.speechStarted(at: time.now)
            #expect(shown, "after the cooldown it shows again")
        }
        #expect(indicator.notice.count == 2)
    }

    @Test func unmutingHidesItAtOnce() {
        var indicator = MutedIndicator()
        indicator.update(settings: CallSettings(audioOn: false), capabilities: [.sendAudio], microphone: Self.granted)
        do {
            let shown = indicator.speechStarted(at: 0)
            #expect(shown)
        }
        indicator.update(settings: CallSettings(audioOn: true), capabilities: [.sendAudio], microphone: Self.granted)
        #expect(!indicator.isVisible(at: 0.5))
        do {
            let shown = indicator.speechStarted(at: 0.6)
            #expect(!shown, "unmuted speech is not a notice")
        }
    }

    @Test func dontShowAgainForThisCall() {
        var indicator = MutedIndicator()
        indicator.update(settings: CallSettings(audioOn: false), capabilities: [.sendAudio], microphone: Self.granted)
        do {
            let shown = indicator.speechStarted(at: 0)
            #expect(shown)
        }
        indicator.silenceForCall()
        #expect(!indicator.isVisible(at: 0.5))
        // Muting again later in the call does not bring it back.
        indicator.update(settings: CallSettings(audioOn: true), capabilities: [.sendAudio], microphone: Self.granted)
        indicator.update(settings: CallSettings(audioOn: false), capabilities: [.sendAudio], microphone: Self.granted)
        do {
            let shown = indicator.speechStarted(at: 60)
            #expect(!shown)
        }
        #expect(indicator.isSilencedForCall)
    }

    @Test func activeCallRefusesWhatTheCallDoesNotGrant() {
        var call = ActiveCall(
            callID: "c", localUser: Participant(id: "me", name: "Me"), others: [],
            settings: CallSettings(audioOn: true, videoOn: true), capabilities: [.sendVideo],
            permissions: Permissions(microphone: Self.granted, camera: Self.granted))
        #expect(!call.settings.audioOn, "no sendAudio: the microphone cannot be on")
        do {
            let done = call.toggle(.microphone)
            #expect(!done)
        }
        #expect(!call.mutedIndicator.isActive, "a user who may not speak is not muted")
        do {
            let done = call.toggle(.camera)
            #expect(done && !call.settings.videoOn)
        }
        #expect(call.localUser.isLocalUser)
    }

    @Test func theLocalTileShowsNoSpeechWhileMuted() {
        var call = ActiveCall(
            callID: "c", localUser: Participant(id: "me", name: "Me"),
            others: [Participant(id: "a", name: "Ada")], settings: CallSettings(audioOn: true),
            capabilities: [.sendAudio], permissions: Permissions(microphone: Self.granted))
        call.localAudio(levelDB: -20, isSpeaking: true)
        #expect(call.tiles[0].showsSpeakingBorder)
        #expect(abs(call.localUser.audioLevel - 0.6) < 1e-6)
        call.toggle(.microphone)
        call.localAudio(levelDB: -20, isSpeaking: true)
        #expect(!call.tiles[0].showsSpeakingBorder && call.localUser.audioLevel == 0)
    }
}

@Suite struct CallDescriptionTests {
    @Test func readsACallAndPlaysItsScript() throws {
        let json = """
            {"id": "standup", "capabilities": ["send-audio"], "scriptLength": 10,
             "participants": [{"id": "ada", "name": "Ada Lovelace", "video": true, "speaking": [[1, 2.5]]},
                              {"id": "alan", "name": "Alan Turing", "image": "a.png", "trackPaused": true}]}
            """
        let call = try CallDescription.decode(Data(json.utf8))
        #expect(call.id == "standup" && call.capabilities == [.sendAudio])
        #expect(call.participants(at: 0.5).map(\.isSpeaking) == [false, false])
        let at = call.participants(at: 11.2)  // the script repeats every 10 s
        #expect(at.map(\.isSpeaking) == [true, false])
        #expect(at[0].audioLevel > 0.2 && at[1].audioLevel == 0)
        #expect(at[0].hasVideo && at[1].isTrackPaused && at[1].imageURL == "a.png")
    }

    @Test func capabilitiesDefaultToAudioAndVideo() throws {
        #expect(try CallDescription.decode(Data(#"{"id": "x"}"#.utf8)).capabilities == [.sendAudio, .sendVideo])
    }

    @Test(arguments: [
        ("", "it is not JSON"),
        ("{\"participants\": []}", "the call has no \"id\""),
        ("{\"id\": \" \"}", "\"id\" is empty"),
        ("{\"id\": \"x\", \"participants\": [{\"id\": \"a\"}]}", "participants[0] has no \"name\""),
        (
            "{\"id\": \"x\", \"capabilities\": [\"fly\"]}",
            "capabilities[0]: cannot initialize OwnCapability from invalid String value fly"
        ),
        (
            "{\"id\": \"x\", \"participants\": [{\"id\": \"a\", \"name\": \"A\"}, {\"id\": \"a\", \"name\": \"B\"}]}",
            "two participants have the id \"a\""
        ),
        (
            "{\"id\": \"x\", \"participants\": [{\"id\": \"a\", \"name\": \"A\", \"speaking\": [[3, 1]]}]}",
            "participant \"a\": each \"speaking\" entry must be [start, end] in seconds, with 0 ≤ start < end"
        ),
        ("{\"id\": \"x\", \"scriptLength\": 0}", "\"scriptLength\" must be a positive number of seconds"),
        ("{\"id\": 5}", "id: expected to decode String but found number instead."),
    ])
    func saysWhatIsWrong(json: String, message: String) {
        #expect(throws: CallDescription.Invalid.self) { try CallDescription.decode(Data(json.utf8)) }
        do {
            _ = try CallDescription.decode(Data(json.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func theDemoHasThreePeopleWhoTakeTurns() {
        let demo = CallDescription.demo
        #expect(demo.participants.count == 3)
        var speakers = Set<String>()
        for step in 0..<120 {
            let now = demo.participants(at: Double(step) / 10)
            #expect(now.filter(\.isSpeaking).count <= 1, "one at a time")
            for speaker in now where speaker.isSpeaking { speakers.insert(speaker.id) }
        }
        #expect(speakers.count == 3)
    }
}
