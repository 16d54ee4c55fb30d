public import MicCheckCall

/// The call screen's parts, as ``DefaultCallViewFactory`` draws them: any of them an app may replace.
extension CallViewFactory {
    /// The default: a line per participant, initials then name, green and marked "speaking" while they speak.
    public func participantsStrip(_ participants: [Participant]) -> any TerminalView {
        Drawing(height: participants.count) { rect, canvas in
            for (k, p) in participants.enumerated() where k < rect.height {
                let mark = p.isSpeaking ? " \(canvas.glyphs.bullet) speaking" : ""
                let line = p.initials.padding(to: 3) + p.name + mark
                canvas.write(
                    line, x: rect.x, y: rect.y + k, style: p.isSpeaking ? TextStyle(color: .green) : .plain, clip: rect)
            }
        }
    }

    /// The default: a box 8 rows high, heavy and green while the person speaks, with "video" on shading or their
    /// initials, a status line and their level.
    public func participantTile(_ tile: ParticipantTile) -> any TerminalView {
        Drawing(height: 8) { rect, canvas in
            let p = tile.participant
            let color: TerminalColor? = tile.showsSpeakingBorder ? .green : nil
            let title = p.isLocalUser && p.name != "You" ? "\(p.name) (you)" : p.name
            canvas.box(
                rect, title: title, style: TextStyle(color: color, dim: !tile.showsSpeakingBorder),
                heavy: tile.showsSpeakingBorder)
            let inner = rect.inset(dx: 1, dy: 1)
            guard !inner.isEmpty else { return }
            let middle = inner.y + (inner.height - 1) / 2
            switch tile.content {
            case .video:
                canvas.fill(inner, with: canvas.glyphs.videoShade, style: .faint)
                Text("video", style: .strong, alignment: .center).draw(
                    in: Rect(x: inner.x, y: middle, width: inner.width, height: 1), on: &canvas)
            case .fallback(let initials, let image):
                Text("( \(initials) )", style: .strong, alignment: .center)
                    .draw(in: Rect(x: inner.x, y: middle, width: inner.width, height: 1), on: &canvas)
                if image != nil {
                    Text("avatar", style: .faint, alignment: .center)
                        .draw(in: Rect(x: inner.x, y: middle - 1, width: inner.width, height: 1), on: &canvas)
                }
            }
            if inner.height >= 3 {
                let status =
                    tile.showsSpeakingBorder ? "speaking" : (p.hasVideo && p.isTrackPaused ? "video paused" : "")
                Text(status, style: TextStyle(color: color), alignment: .center)
                    .draw(in: Rect(x: inner.x, y: middle + 1, width: inner.width, height: 1), on: &canvas)
            }
            if p.audioLevel > 0, inner.height >= 4 {
                Meter(value: p.audioLevel, label: "").draw(
                    in: Rect(x: inner.x + 1, y: inner.maxY - 1, width: inner.width - 1, height: 1), on: &canvas)
            }
        }
    }

    /// The default: "You are muted. Unmute (m)" in a heavy yellow box, with the host's announcement or the "don't
    /// show again" key.
    public func mutedNotice(_ screen: CallScreen) -> any TerminalView {
        let indicator = screen.call.mutedIndicator
        var rows: [any TerminalView] = []
        if let announcement = indicator.announcement {
            rows.append(Text(announcement, style: .strong, alignment: .center))
        }
        rows.append(
            Text(
                "\(MutedIndicator.text) \(MutedIndicator.action) (m)", style: TextStyle(color: .yellow, bold: true),
                alignment: .center))
        // A host's mute is not silenced by "don't show again".
        if indicator.announcement == nil {
            rows.append(Text("n don't show again in this call", style: .faint, alignment: .center))
        }
        return Boxed(VStack(rows), style: TextStyle(color: .yellow), heavy: true)
    }

    /// The default: "Your typing can be heard. Mute (m)" in a heavy yellow box.
    public func typingNotice(_ screen: CallScreen) -> any TerminalView {
        Boxed(
            Text(
                "\(TypingNotice.text) \(TypingNotice.action) (m)", style: TextStyle(color: .yellow, bold: true),
                alignment: .center), style: TextStyle(color: .yellow), heavy: true)
    }

    /// The default: the prompt's message and keys in a yellow box titled by the prompt, and the numbered settings
    /// steps when asked.
    public func permissionsPrompt(_ prompt: PermissionPrompt, showsSettingsSteps: Bool) -> any TerminalView {
        var rows: [any TerminalView] = [Text(prompt.message, wraps: true), Spacer()]
        rows.append(
            Text("[o] \(PermissionPrompt.openSettingsTitle)    [d] \(PermissionPrompt.dismissTitle)", style: .strong))
        if showsSettingsSteps {
            rows.append(Spacer())
            let steps = prompt.linuxSettingsSteps.enumerated().map { "\($0.offset + 1). \($0.element)" }
            rows.append(Text(lines: steps, wraps: true))
        }
        return Boxed(VStack(rows), title: prompt.title, style: TextStyle(color: .yellow))
    }

    /// The default call screen: the title and status, the tiles in a grid, the notice, the permissions prompt, the
    /// microphone changes, the toggles and the keys.
    public func callScreen(_ screen: CallScreen) -> any TerminalView {
        let call = screen.call
        let tiles = call.tiles.map { participantTile($0) }
        let notice =
            screen.call.showsMutedNotice(at: screen.time)
            ? mutedNotice(screen) : screen.call.showsTypingNotice(at: screen.time) ? typingNotice(screen) : nil
        let prompt = screen.prompt.map { permissionsPrompt($0, showsSettingsSteps: screen.showsSettingsSteps) }
        let toggles = settingsToggles(call.settings, capabilities: call.capabilities)
        let changes = microphoneChanges(call.microphoneChoice)
        return Drawing(height: { _ in 0 }) { rect, canvas in
            let people = call.participants.count == 1 ? "1 participant" : "\(call.participants.count) participants"
            let title = "In the call · \(people)"
            canvas.write(title, x: rect.x + 1, y: rect.y, style: .strong, clip: rect)
            let status: (String, TextStyle)? =
                if let announcement = call.mutedIndicator.announcement {
                    (announcement, TextStyle(color: .yellow, bold: true))
                } else if call.isPushToTalk {
                    call.settings.audioOn
                        ? ("● Talking", TextStyle(color: .green, bold: true))
                        : ("Push-to-talk: press space to talk", .faint)
                } else { nil }
            if let (text, style) = status {
                canvas.write(" · " + text, x: rect.x + 1 + title.count, y: rect.y, style: style, clip: rect)
            }
            let silencable = call.showsMutedNotice(at: screen.time) && call.mutedIndicator.announcement == nil
            let offered = call.microphoneChoice.offer != nil
            let keys =
                "m/v/s toggle · \(CallKeys.pushToTalk) push-to-talk · " + (call.isPushToTalk ? "space talk · " : "")
                + (offered ? "\(CallKeys.switchMicrophone) switch · \(CallKeys.ignoreMicrophoneOffer) ignore · " : "")
                + (silencable ? "n don't show again · " : "") + "q leave"
            canvas.write(keys, x: rect.x + 1, y: rect.maxY - 1, style: .faint, clip: rect)
            var area = Rect(x: rect.x + 1, y: rect.y + 2, width: rect.width - 2, height: rect.height - 3)
            let togglesHeight = toggles.height(forWidth: area.width)
            toggles.draw(
                in: Rect(x: area.x, y: area.maxY - togglesHeight, width: area.width, height: togglesHeight), on: &canvas
            )
            area.height -= togglesHeight + 1
            let changesHeight = changes.height(forWidth: area.width)
            if changesHeight > 0 {
                changes.draw(
                    in: Rect(x: area.x, y: area.maxY - changesHeight, width: area.width, height: changesHeight),
                    on: &canvas)
                area.height -= changesHeight + 1
            }
            if let prompt {
                let h = min(prompt.height(forWidth: area.width), max(0, area.height - 4))
                prompt.draw(in: Rect(x: area.x, y: area.maxY - h, width: area.width, height: h), on: &canvas)
                area.height -= h
            }
            // The grid: as many columns as fit at 22 cells or more, rows sharing the height.
            let columns = max(1, min(tiles.count, area.width / 22))
            let rows = (tiles.count + columns - 1) / columns
            let tileWidth = area.width / columns
            let tileHeight = min(9, max(3, area.height / max(1, rows)))
            for (k, tile) in tiles.enumerated() {
                let r = Rect(
                    x: area.x + (k % columns) * tileWidth, y: area.y + (k / columns) * tileHeight,
                    width: tileWidth - 1, height: tileHeight)
                if r.maxY <= area.maxY { tile.draw(in: r, on: &canvas) }
            }
            if let notice {
                let w = min(area.width, 48)
                let h = notice.height(forWidth: w)
                let r = Rect(x: area.x + (area.width - w) / 2, y: max(area.y, area.maxY - h), width: w, height: h)
                canvas.fill(r)
                notice.draw(in: r, on: &canvas)
            }
        }
    }
}
