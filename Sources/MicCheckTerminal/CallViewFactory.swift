public import MicCheckCall

/// Makes the views of the lobby and the call. Every piece has a default; an app replaces the pieces it
/// wants and keeps the rest, because the default screens build themselves from the factory's other
/// pieces (a custom ``participantTile(_:)`` shows in the lobby's self view and in the call's grid).
///
/// ```swift
/// struct MyFactory: CallViewFactory {
///     func mutedNotice(_ screen: CallScreen) -> any TerminalView {
///         Text("🔇 muted", style: TextStyle(color: .red, bold: true))
///     }
/// }
/// ```
public protocol CallViewFactory {
    /// The whole lobby screen.
    func lobby(_ screen: LobbyScreen) -> any TerminalView
    /// The live microphone meter and the silent-microphone warning.
    func microphoneCheck(_ screen: LobbyScreen) -> any TerminalView
    /// Microphones that come and go: "A new microphone is available: NAME. Switch (w)?" and "The
    /// microphone NAME was disconnected: using DEFAULT." (`LobbyModel.microphoneChoice`); no rows when
    /// there is neither.
    func microphoneChanges(_ screen: LobbyScreen) -> any TerminalView
    /// "Test your microphone" (`LobbyModel.microphoneTest`): the key to start it, the seconds left while
    /// it records, "Playing back your recording…", then the verdict.
    func microphoneTest(_ screen: LobbyScreen) -> any TerminalView
    /// The microphone, camera and speaker toggles with their keys and states.
    func settingsToggles(_ settings: CallSettings, capabilities: Set<OwnCapability>) -> any TerminalView
    /// "You are about to join a call.", who is there, and "Join Call".
    func joinPanel(_ screen: LobbyScreen) -> any TerminalView
    /// The people already in the call, one per line.
    func participantsStrip(_ participants: [Participant]) -> any TerminalView
    /// One participant: video or fallback, speaking border.
    func participantTile(_ tile: ParticipantTile) -> any TerminalView
    /// "You are muted."
    func mutedNotice(_ screen: CallScreen) -> any TerminalView
    /// "Your typing can be heard. Mute (m)": the keyboard heard while unmuted.
    func typingNotice(_ screen: CallScreen) -> any TerminalView
    /// The permissions prompt, with "Open Settings" and "Dismiss", and the settings steps when asked.
    func permissionsPrompt(_ prompt: PermissionPrompt, showsSettingsSteps: Bool) -> any TerminalView
    /// The whole call screen.
    func callScreen(_ screen: CallScreen) -> any TerminalView
}

/// The factory with every default.
public struct DefaultCallViewFactory: CallViewFactory {
    /// Makes the factory with every default.
    public init() {}
}

/// The keys the screens offer (the terminal app maps them; a custom factory may show them differently).
public enum CallKeys {
    /// The keys that turn the microphone (m), camera (v) and speaker (s) on and off, with their labels.
    public static let toggles: [(key: Character, control: CallControl, label: String)] = [
        ("m", .microphone, "Microphone"), ("v", .camera, "Camera"), ("s", .speaker, "Speaker"),
    ]
    /// "Open Settings" on the permissions prompt.
    public static let openSettings: Character = "o"
    /// "Dismiss" on the permissions prompt.
    public static let dismiss: Character = "d"
    /// "Don't show again for this call" on "You are muted."
    public static let silenceMutedNotice: Character = "n"
    /// Yes and no to "A new microphone is available".
    public static let switchMicrophone: Character = "w"
    /// No to "A new microphone is available": keep the microphone in use.
    public static let ignoreMicrophoneOffer: Character = "i"
    /// "Test your microphone" in the lobby.
    public static let testMicrophone: Character = "t"
    /// Push-to-talk on or off in the call, and the talk key (a press opens the microphone for one utterance:
    /// a terminal does not report key releases).
    public static let pushToTalk: Character = "p"
    /// The talk key in push-to-talk.
    public static let talk: Character = " "
}

/// The lobby's parts, as ``DefaultCallViewFactory`` draws them: any of them an app may replace.
extension CallViewFactory {
    /// The default lobby: the title, your tile, the microphone check and the toggles beside the join panel (stacked on
    /// a narrow terminal), the permissions prompt and the keys.
    public func lobby(_ screen: LobbyScreen) -> any TerminalView {
        let toggles = settingsToggles(screen.lobby.settings, capabilities: screen.capabilities)
        let tile = participantTile(screen.selfTile)
        let check = VStack([microphoneCheck(screen), microphoneTest(screen), microphoneChanges(screen)])
        let prompt = screen.prompt.map { permissionsPrompt($0, showsSettingsSteps: screen.showsSettingsSteps) }
        let join = joinPanel(screen)
        return Drawing(height: { _ in 0 }) { rect, canvas in
            let header = VStack([Text(LobbyModel.title, style: .strong), Text(LobbyModel.subtitle, style: .faint)])
            header.draw(in: Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: 2), on: &canvas)
            var body = Rect(x: rect.x + 1, y: rect.y + 3, width: rect.width - 2, height: rect.height - 4)
            if let prompt {
                let h = min(prompt.height(forWidth: body.width), max(0, body.height - 8))
                prompt.draw(in: Rect(x: body.x, y: body.maxY - h, width: body.width, height: h), on: &canvas)
                body.height -= h
            }
            if body.width >= 62 {
                // Two columns: you and your microphone on the left, the join panel taking the rest.
                let leftWidth = min(46, max(26, body.width * 2 / 5))
                let left = Rect(x: body.x, y: body.y, width: leftWidth, height: body.height)
                VStack([FixedHeight(tile, rows: 8), Spacer(), check, Spacer(), toggles]).draw(in: left, on: &canvas)
                var right = Rect(x: left.maxX + 2, y: body.y, width: body.maxX - left.maxX - 2, height: body.height)
                right.height = min(right.height, join.height(forWidth: right.width))
                join.draw(in: right, on: &canvas)
            } else {
                VStack(spacing: 1, [FixedHeight(tile, rows: 5), VStack([check, toggles]), join]).draw(
                    in: body, on: &canvas)
            }
            let choices =
                (screen.lobby.microphoneChoice.offer == nil
                    ? "" : "\(CallKeys.switchMicrophone) switch · \(CallKeys.ignoreMicrophoneOffer) ignore · ")
                + (screen.prompt == nil ? "" : "o settings · d dismiss · ") + "q close"
            // The test's key shows in its own row too: left out here when the line would not fit.
            let withTest = "Enter join · m/v/s toggle · \(CallKeys.testMicrophone) test mic · " + choices
            let keys = withTest.count <= rect.width - 2 ? withTest : "Enter join · m/v/s toggle · " + choices
            canvas.write(keys, x: rect.x + 1, y: rect.maxY - 1, style: .faint, clip: rect)
        }
    }

    /// The default: a level meter in dBFS ("silence" at -100 or below), or a hint while the microphone is off; the
    /// microphone's name; and the warnings.
    public func microphoneCheck(_ screen: LobbyScreen) -> any TerminalView {
        let mic = screen.lobby.microphone
        var rows: [any TerminalView] = []
        if !mic.isOn {
            rows.append(Text("Microphone off: press m to check it.", style: .faint))
        } else {
            let db = mic.levelDB > -100 ? "\(Int(mic.levelDB.rounded())) dBFS" : "silence"
            rows.append(Meter(value: mic.displayLevel, label: db))
        }
        rows.append(Text(screen.microphoneName, style: .faint))
        if screen.lobby.showsSilentWarning(at: screen.time) {
            rows.append(Text(MicrophoneCheck.silentWarning, style: TextStyle(color: .yellow, bold: true), wraps: true))
        }
        for warning in mic.shownWarnings {
            rows.append(
                Text(warning.sentence(source: screen.microphoneName), style: TextStyle(color: .yellow), wraps: true))
        }
        return VStack(rows)
    }

    /// The default: the key to start the test, the seconds left while it records, "Playing back your recording…",
    /// then the verdict and the key to test again.
    public func microphoneTest(_ screen: LobbyScreen) -> any TerminalView {
        let flow = screen.lobby.microphoneTest
        switch flow.step {
        case .idle:
            guard screen.lobby.microphone.isOn else { return VStack([]) }
            return Text("[\(CallKeys.testMicrophone)] \(MicrophoneTestFlow.offer)", style: .faint)
        case .recording:
            let left = Int((flow.secondsLeft(at: screen.time) ?? 0).rounded(.up))
            return Text(
                "● \(MicrophoneTestFlow.recordingMessage) \(left) s left.", style: TextStyle(color: .red, bold: true),
                wraps: true)
        case .playingBack(let verdict), .done(let verdict):
            let good = verdict.kind == .clear
            var rows: [any TerminalView] = []
            if case .playingBack = flow.step {
                rows.append(Text("▶ \(MicrophoneTestFlow.playingMessage)", style: TextStyle(color: .cyan, bold: true)))
            }
            rows.append(
                Text(
                    verdict.sentence(source: screen.microphoneName),
                    style: TextStyle(color: good ? .green : .yellow, bold: true), wraps: true))
            if case .done = flow.step {
                rows.append(Text("[\(CallKeys.testMicrophone)] Test again", style: .faint))
            }
            return VStack(rows)
        }
    }

    /// The default: the offer and the notice of the lobby's `microphoneChoice`.
    public func microphoneChanges(_ screen: LobbyScreen) -> any TerminalView {
        microphoneChanges(screen.lobby.microphoneChoice)
    }

    /// The offer and the notice of `choice`, in the lobby or the call (no rows when there is neither).
    public func microphoneChanges(_ choice: MicrophoneChoice) -> any TerminalView {
        var rows: [any TerminalView] = []
        if let notice = choice.notice {
            rows.append(Text(notice.message, style: TextStyle(color: .yellow, bold: true), wraps: true))
        }
        if let offer = choice.offer {
            rows.append(
                Text(
                    "\(offer.message) \(MicrophoneChoice.switchQuestion) (\(CallKeys.switchMicrophone))?",
                    style: TextStyle(color: .cyan, bold: true), wraps: true))
            rows.append(
                Text(
                    "[\(CallKeys.switchMicrophone)] Switch  [\(CallKeys.ignoreMicrophoneOffer)] Ignore", style: .faint))
        }
        return VStack(rows)
    }

    /// The default: each toggle as "[m] Microphone: on", green when on and bold red when off, wrapping as needed.
    public func settingsToggles(_ settings: CallSettings, capabilities: Set<OwnCapability>) -> any TerminalView {
        let items = CallKeys.toggles.map { (key, control, label) in
            (text: "[\(key)] \(label): " + (settings[control] ? "on" : "off"), on: settings[control])
        }
        // Left to right, wrapping to a new line when an item does not fit.
        func place(width: Int) -> [(x: Int, y: Int)] {
            var x = 0
            var y = 0
            return items.map { item in
                let w = Canvas.displayWidth(item.text)
                if x > 0 && x + w > width {
                    x = 0
                    y += 1
                }
                defer { x += w + 2 }
                return (x, y)
            }
        }
        return Drawing(height: { width in (place(width: width).last?.y ?? 0) + 1 }) { rect, canvas in
            for (item, at) in zip(items, place(width: rect.width)) {
                canvas.write(
                    item.text, x: rect.x + at.x, y: rect.y + at.y,
                    style: TextStyle(color: item.on ? .green : .red, bold: !item.on), clip: rect)
            }
        }
    }

    /// The default: a box titled "Join" with "You are about to join a call.", who is there, the Join button and the
    /// participants strip.
    public func joinPanel(_ screen: LobbyScreen) -> any TerminalView {
        // The button before the list, so that a short terminal cuts the list, not the button.
        var rows: [any TerminalView] = [Text(LobbyModel.aboutToJoin, wraps: true)]
        if let message = screen.lobby.participantsMessage { rows.append(Text(message, wraps: true)) }
        rows += [
            Spacer(),
            Text(
                "[ \(LobbyModel.joinTitle) ]  (Enter)", style: TextStyle(color: .cyan, bold: true), alignment: .center),
        ]
        let others = screen.lobby.others
        if !others.isEmpty { rows += [Spacer(), participantsStrip(others)] }
        return Boxed(VStack(rows), title: "Join")
    }
}

extension String {
    func padding(to width: Int) -> String {
        let w = Canvas.displayWidth(self)
        return w >= width ? self + " " : self + String(repeating: " ", count: width - w)
    }
}
