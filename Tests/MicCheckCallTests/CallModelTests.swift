import Foundation
import MicCheck
import MicCheckCall
import MicCheckLive
import MicCheckTesting
import Testing

@Suite struct CallSettingsTests {
    @Test(arguments: [
        (CallControl.microphone, CallSettings(audioOn: false, videoOn: true, speakerOn: true)),
        (.camera, CallSettings(audioOn: true, videoOn: false, speakerOn: true)),
        (.speaker, CallSettings(audioOn: true, videoOn: true, speakerOn: false)),
    ])
    func toggleChangesOnlyItsControl(control: CallControl, expected: CallSettings) {
        var s = CallSettings()
        s.toggle(control)
        #expect(s == expected)
        s.toggle(control)
        #expect(s == CallSettings())
    }
}

@Suite struct ParticipantTests {
    @Test(arguments: [
        ("Ada Lovelace", "AL"), ("cher", "C"), ("  jean-luc  picard ", "JP"), ("", "?"), ("!!", "?"),
        ("Grace Brewster Murray Hopper", "GH"), ("李 小龍", "李小"),
    ])
    func initials(name: String, expected: String) {
        #expect(Participant(id: "x", name: name).initials == expected)
    }

    @Test(arguments: [(Float(-160), Float(0)), (-50, 0), (-25, 0.5), (0, 1), (6, 1), (-.infinity, 0), (.nan, 0)])
    func displayLevel(db: Float, expected: Float) {
        #expect(abs(Participant.displayLevel(decibels: db) - expected) < 1e-6)
    }
}

@Suite struct ParticipantTileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var hasVideo, paused, shown, speaking: Bool
        var count: Int
        var video: Bool
        var border: Bool
        var testDescription: String {
            "video \(hasVideo) paused \(paused) shown \(shown) speaking \(speaking) of \(count)"
        }
    }

    @Test(arguments: [
        Case(hasVideo: true, paused: false, shown: true, speaking: false, count: 2, video: true, border: false),
        Case(hasVideo: true, paused: true, shown: true, speaking: false, count: 2, video: false, border: false),
        Case(hasVideo: true, paused: false, shown: false, speaking: false, count: 2, video: false, border: false),
        Case(hasVideo: false, paused: false, shown: true, speaking: false, count: 2, video: false, border: false),
        Case(hasVideo: false, paused: false, shown: true, speaking: true, count: 2, video: false, border: true),
        Case(hasVideo: true, paused: false, shown: true, speaking: true, count: 5, video: true, border: true),
        Case(hasVideo: false, paused: false, shown: true, speaking: true, count: 1, video: false, border: false),
    ])
    func videoOrFallbackAndBorder(c: Case) {
        let p = Participant(
            id: "a", name: "Ada Lovelace", imageURL: nil, hasVideo: c.hasVideo, isTrackPaused: c.paused,
            isSpeaking: c.speaking)
        let tile = ParticipantTile(participant: p, participantCount: c.count, isVideoShown: c.shown)
        #expect(tile.content == (c.video ? .video : .fallback(initials: "AL", imageURL: nil)))
        #expect(tile.showsSpeakingBorder == c.border)
    }

    @Test func fallbackCarriesTheAvatar() {
        let p = Participant(id: "g", name: "Grace Hopper", imageURL: "https://example.com/g.png")
        #expect(
            ParticipantTile(participant: p, participantCount: 2).content
                == .fallback(initials: "GH", imageURL: "https://example.com/g.png"))
    }
}

@Suite struct PermissionTests {
    @Test func requestThenResolve() {
        var p = Permission()
        #expect(p.status == .unknown && !p.needsSettings)
        let asked1 = p.request()
        #expect(asked1)
        #expect(p.status == .requesting && !p.needsSettings)
        let asked2 = p.request()
        #expect(!asked2, "a request already under way is not sent twice")
        p.resolve(granted: false, reason: "refused")
        #expect(p.status == .denied && !p.canRequest && p.needsSettings && p.reason == "refused")
        let asked3 = p.request()
        #expect(!asked3, "a refusal that cannot be asked again stays with the settings")
        p.resolve(granted: true)
        #expect(p.isGranted && !p.needsSettings && p.reason == nil)
        let asked4 = p.request()
        #expect(!asked4)
    }

    @Test func aRefusalThatCanBeAskedAgainNeedsNoSettings() {
        var p = Permission()
        p.resolve(granted: false, canRequestAgain: true)
        #expect(!p.needsSettings)
        let asked5 = p.request()
        #expect(asked5)
    }

    @Test func cameraProbeOnADirectoryWithoutCameras() throws {
        let dir = try TemporaryDirectory()
        let p = CameraProbe.probe(directory: dir.path)
        #expect(p.status == .denied && !p.canRequest)
        #expect(p.reason == "no camera was found (no \(dir.path)/video* device)")
    }

    @Test func cameraProbeGrantsWhenADeviceOpens() throws {
        let dir = try TemporaryDirectory()
        // A device that cannot be opened (a dangling link), then one that can.
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/video0", withDestinationPath: dir.path + "/gone")
        var p = CameraProbe.probe(directory: dir.path)
        #expect(p.status == .denied)
        #expect(p.reason?.contains("video0 cannot be opened") == true)
        _ = FileManager.default.createFile(atPath: dir.path + "/video1", contents: Data())
        p = CameraProbe.probe(directory: dir.path)
        #expect(p.isGranted)
    }
}

@Suite struct PermissionPromptTests {
    static let denied: Permission = {
        var p = Permission()
        p.resolve(granted: false, reason: "refused")
        return p
    }()
    static let granted: Permission = {
        var p = Permission()
        p.resolve(granted: true)
        return p
    }()
    static let askable = Permission()

    @Test(
        arguments: [
            (Set<OwnCapability>([.sendAudio, .sendVideo]), denied, denied, "Camera and microphone access required"),
            ([.sendAudio, .sendVideo], denied, granted, "Microphone access required"),
            ([.sendAudio, .sendVideo], granted, denied, "Camera access required"),
            ([.sendAudio, .sendVideo], granted, granted, nil),
            ([.sendAudio], granted, denied, nil),
            ([.sendVideo], denied, granted, nil),
            ([.sendAudio], denied, denied, "Microphone access required"),
            ([], denied, denied, nil),
            ([.sendAudio, .sendVideo], askable, askable, nil),
            ([.sendAudio, .sendVideo], askable, denied, "Camera access required"),
        ] as [(Set<OwnCapability>, Permission, Permission, String?)])
    func titleForEachMissingCombination(
        capabilities: Set<OwnCapability>, microphone: Permission, camera: Permission, title: String?
    ) {
        let prompt = PermissionPrompt(
            capabilities: capabilities, permissions: Permissions(microphone: microphone, camera: camera))
        #expect(prompt?.title == title)
        if let prompt {
            #expect(PermissionPrompt.openSettingsTitle == "Open Settings" && PermissionPrompt.dismissTitle == "Dismiss")
            #expect(!prompt.linuxSettingsSteps.isEmpty)
            #expect(prompt.linuxSettingsSteps.contains { $0.contains("refused") }, "the reason leads the steps")
        }
    }

    @Test func aDismissedKindStaysAwayButAnotherShows() {
        let both = Permissions(microphone: Self.denied, camera: Self.denied)
        #expect(
            PermissionPrompt(
                capabilities: [.sendAudio, .sendVideo], permissions: both, dismissed: [.cameraAndMicrophone]) == nil)
        let cameraOnly = Permissions(microphone: Self.granted, camera: Self.denied)
        #expect(
            PermissionPrompt(
                capabilities: [.sendAudio, .sendVideo], permissions: cameraOnly, dismissed: [.microphone])?.kind
                == .camera)
    }

    @Test func stepsNameTheDevicesConcretely() throws {
        let prompt = try #require(
            PermissionPrompt(
                capabilities: [.sendAudio, .sendVideo],
                permissions: Permissions(microphone: Self.denied, camera: Self.denied)))
        let steps = prompt.linuxSettingsSteps.joined(separator: "\n")
        #expect(steps.contains("usermod -aG video"))
        #expect(steps.contains("miccheck devices"))
        #expect(steps.contains("pactl set-source-mute"))
    }
}

@Suite struct PermissionPromptDismissalsTests {
    @Test func aDismissalPersistsPerCall() throws {
        let dir = try TemporaryDirectory()
        let store = PermissionPromptDismissals.standard(environment: ["XDG_STATE_HOME": dir.path])
        #expect(store.path == dir.path + "/miccheck/permission-prompts.json")
        var warnings: [String] = []
        let note: (String) -> Void = { warnings.append($0) }
        #expect(store.dismissed(inCall: "standup", warn: note).isEmpty)
        try store.dismiss(.camera, inCall: "standup") { warnings.append($0) }
        try store.dismiss(.microphone, inCall: "standup") { warnings.append($0) }
        try store.dismiss(.camera, inCall: "retro") { warnings.append($0) }
        // A fresh store on the same file: what another run of the app sees.
        let again = PermissionPromptDismissals(path: store.path)
        #expect(again.dismissed(inCall: "standup", warn: note) == [.camera, .microphone])
        #expect(again.dismissed(inCall: "retro", warn: note) == [.camera])
        #expect(again.dismissed(inCall: "other", warn: note).isEmpty)
        #expect(warnings.isEmpty)
        // Written atomically: the folder holds the file and nothing half-written beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path + "/miccheck") == ["permission-prompts.json"])
    }

    @Test(arguments: ["{not json", "", "{\"calls\": {\"a\": [\"camera\", \"laser\"]}}", "[1, 2]"])
    func aCorruptStoreIsSetAsideWithAWarning(contents: String) throws {
        let dir = try TemporaryDirectory()
        let store = PermissionPromptDismissals(path: dir.path + "/prompts.json")
        _ = FileManager.default.createFile(atPath: store.path, contents: Data(contents.utf8))
        var warnings: [String] = []
        let note: (String) -> Void = { warnings.append($0) }
        #expect(store.dismissed(inCall: "a", warn: note).isEmpty)
        #expect(
            warnings == [
                "the permission prompt store \(store.path) is damaged; it was set aside as \(store.path).corrupt"
            ])
        #expect(FileManager.default.contents(atPath: store.path + ".corrupt") == Data(contents.utf8))
        // The next dismissal starts a fresh file.
        try store.dismiss(.camera, inCall: "a") { warnings.append($0) }
        #expect(store.dismissed(inCall: "a", warn: note) == [.camera])
        #expect(warnings.count == 1)
    }
}

@Suite struct InjectedStoresTests {
    @Test func dismissalsKeptInMemoryNeverTouchTheDisk() throws {
        let storage = MemoryStateStorage()
        let store: any PromptDismissalStore = PermissionPromptDismissals(
            path: "/nonexistent/prompts.json", storage: storage)
        var warnings: [String] = []
        try store.dismiss(.camera, inCall: "standup") { warnings.append($0) }
        #expect(store.dismissed(inCall: "standup") { warnings.append($0) } == [.camera])
        #expect(store.dismissed(inCall: "retro") { warnings.append($0) }.isEmpty)
        #expect(storage.names(in: "/nonexistent") == ["prompts.json"])
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent"))
        #expect(store.location == "/nonexistent/prompts.json")
        // Damage in memory is handled as on disk.
        try storage.write(Data("{".utf8), to: "/nonexistent/prompts.json")
        #expect(store.dismissed(inCall: "standup") { warnings.append($0) }.isEmpty)
        #expect(
            warnings == [
                "the permission prompt store /nonexistent/prompts.json is damaged; it was set aside as /nonexistent/prompts.json.corrupt"
            ])
    }

    @Test func theCameraProbeAnswersAsCameraAccess() throws {
        let dir = try TemporaryDirectory()
        let access: any CameraAccess = CameraProbe(directory: dir.path)
        #expect(access.permission().status == .denied)
        #expect(access.permission() == CameraProbe.probe(directory: dir.path))
        _ = FileManager.default.createFile(atPath: dir.path + "/video0", contents: Data())
        #expect(access.permission().isGranted)
    }
}

/// A temporary folder, removed when the value goes.
final class TemporaryDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("miccheck-call-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The session is the model of the whole flow, driven by actions that any screen can send.
@Suite struct CallSessionActionTests {
    func session() -> CallSession {
        var permissions = Permissions()
        permissions.microphone.resolve(granted: true)
        permissions.camera.resolve(granted: false, reason: "no camera")
        return CallSession(
            call: .demo, localUser: Participant(id: "me", name: "Jo Doe", isLocalUser: true),
            permissions: permissions, microphoneName: "test", at: 0)
    }

    @Test func joinToggleAndLeaveWithoutAScreen() {
        var s = session()
        #expect(
            s.handle(.join, at: 0.5).contains(.joined(CallSettings(audioOn: true, videoOn: false, speakerOn: true))))
        // Unmuted, there is no notice to silence; muted, "don't show again" takes.
        #expect(!s.handle(.silenceMutedNotice, at: 0.8).contains(.mutedNoticeSilenced))
        #expect(s.handle(.toggle(.microphone), at: 1).contains(.toggled(.microphone, on: false)))
        #expect(s.handle(.silenceMutedNotice, at: 2).contains(.mutedNoticeSilenced))
        // Joining again does nothing.
        #expect(!s.handle(.join, at: 2).contains { if case .joined = $0 { true } else { false } })
        #expect(s.handle(.close, at: 3).contains(.left))
        #expect(s.isFinished)
        #expect(s.handle(.toggle(.microphone), at: 4).isEmpty)
    }

    @Test func thePromptIsDismissedForTheCall() {
        var s = session()
        _ = s.advance(to: 0)
        #expect(s.prompt?.kind == .camera)
        #expect(s.handle(.openSettings, at: 1) == [.settingsStepsShown])
        #expect(s.showsSettingsSteps)
        #expect(s.handle(.dismissPrompt, at: 2) == [.promptDismissed(.camera)])
        #expect(s.prompt == nil && s.dismissed == [.camera])
        #expect(s.handle(.close, at: 3) == [.closed])
    }
}
