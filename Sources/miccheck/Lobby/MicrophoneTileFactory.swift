import MicCheckCall
import MicCheckTerminal

/// An example of replacing one piece of the UI: participant tiles whose fallback is a microphone
/// symbol, with a magenta border while the participant speaks. Everything else is the default
/// factory's; the lobby's self view and the call's grid pick the new tile up by themselves.
///
/// Written against the public API only, as an app would (`miccheck lobby --tiles microphone`).
struct MicrophoneTileFactory: CallViewFactory {
    func participantTile(_ tile: ParticipantTile) -> any TerminalView {
        Drawing(height: 8) { rect, canvas in
            let p = tile.participant
            let speaking = tile.showsSpeakingBorder
            let border = TextStyle(color: speaking ? .magenta : .blue, bold: speaking)
            canvas.box(rect, title: p.name, style: border, heavy: speaking)
            let inner = rect.inset(dx: 1, dy: 1)
            guard inner.height >= 1 else { return }
            let symbol: [String]
            if case .video = tile.content {
                symbol = ["[ video ]"]
            } else {
                // A microphone: head, stand, base; its head filled while they speak.
                symbol =
                    canvas.glyphs == .unicode
                    ? [speaking ? "╭█╮" : "╭─╮", speaking ? "│█│" : "│ │", "╰┬╯", "─┴─"]
                    : [speaking ? "(#)" : "( )", speaking ? "|#|" : "| |", "\\_/", "-+-"]
            }
            let top = inner.y + max(0, (inner.height - symbol.count - 1) / 2)
            for (k, line) in symbol.enumerated() where top + k < inner.maxY {
                Text(line, style: TextStyle(color: speaking ? .magenta : nil, bold: speaking), alignment: .center)
                    .draw(in: Rect(x: inner.x, y: top + k, width: inner.width, height: 1), on: &canvas)
            }
            if top + symbol.count < inner.maxY {
                Text(p.initials, style: .faint, alignment: .center)
                    .draw(in: Rect(x: inner.x, y: top + symbol.count, width: inner.width, height: 1), on: &canvas)
            }
        }
    }
}
