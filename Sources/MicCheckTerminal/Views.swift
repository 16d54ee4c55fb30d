/// Something that draws itself in a rectangle of a ``Canvas``.
///
/// Views are values made fresh for every frame from the models; they hold no state of their own.
public protocol TerminalView {
    /// Rows the view wants at `width` (it is drawn in whatever it is given).
    func height(forWidth width: Int) -> Int
    /// Draws the view in `rect` of `canvas`.
    func draw(in rect: Rect, on canvas: inout Canvas)
}

/// A view drawn by a closure: the quickest way for an app to replace one piece.
public struct Drawing: TerminalView {
    let rows: (Int) -> Int
    let body: (Rect, inout Canvas) -> Void

    /// A view `height` rows high, drawn by `body` in the rectangle it is given.
    public init(height: Int, _ body: @escaping (Rect, inout Canvas) -> Void) {
        rows = { _ in height }
        self.body = body
    }

    /// A view whose rows at a width come from `height`, drawn by `body` in the rectangle it is given.
    public init(height: @escaping (Int) -> Int, _ body: @escaping (Rect, inout Canvas) -> Void) {
        rows = height
        self.body = body
    }

    /// The rows the `height` given at init asks for.
    public func height(forWidth width: Int) -> Int { rows(width) }
    /// Calls the closure with `rect` and `canvas`.
    public func draw(in rect: Rect, on canvas: inout Canvas) { body(rect, &canvas) }
}

/// Lines of text, cut to the width (or wrapped at spaces with `wraps`).
public struct Text: TerminalView {
    /// Where each line sits in its row: at the left edge (`leading`) or centred (`center`).
    public enum Alignment: Sendable { case leading, center }
    let lines: [String]
    let style: TextStyle
    let alignment: Alignment
    let wraps: Bool

    /// Text of the given lines, one argument a line (a newline in one shows as a space).
    public init(_ lines: String..., style: TextStyle = .plain, alignment: Alignment = .leading, wraps: Bool = false) {
        self.init(lines: lines, style: style, alignment: alignment, wraps: wraps)
    }

    /// Text of `lines`, one a row (a newline in one shows as a space).
    public init(lines: [String], style: TextStyle = .plain, alignment: Alignment = .leading, wraps: Bool = false) {
        self.lines = lines
        self.style = style
        self.alignment = alignment
        self.wraps = wraps
    }

    func laidOut(_ width: Int) -> [String] {
        guard wraps, width > 0 else { return lines }
        return lines.flatMap { Self.wrap($0, width: width) }
    }

    /// Breaks `line` at spaces into lines of at most `width` cells (a longer word is cut).
    static func wrap(_ line: String, width: Int) -> [String] {
        var out: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if Canvas.displayWidth(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                out.append(current)
                current = String(word)
            }
        }
        out.append(current)
        return out
    }

    /// One row a line, once wrapped at `width` if the text wraps.
    public func height(forWidth width: Int) -> Int { laidOut(width).count }

    /// Draws the lines that fit in `rect`, each cut at its right edge.
    public func draw(in rect: Rect, on canvas: inout Canvas) {
        for (k, line) in laidOut(rect.width).prefix(rect.height).enumerated() {
            let w = Canvas.displayWidth(line)
            let x = alignment == .center ? rect.x + max(0, (rect.width - w) / 2) : rect.x
            canvas.write(line, x: x, y: rect.y + k, style: style, clip: rect)
        }
    }
}

/// Views one above the other, each given the rows it asks for (the last takes what is left).
public struct VStack: TerminalView {
    let children: [any TerminalView]
    let spacing: Int

    /// Stacks `children` from the top, with `spacing` empty rows between them.
    public init(spacing: Int = 0, _ children: [any TerminalView]) {
        self.children = children
        self.spacing = spacing
    }

    /// The children's rows added up, with the spacing between them.
    public func height(forWidth width: Int) -> Int {
        children.reduce(0) { $0 + $1.height(forWidth: width) } + spacing * max(0, children.count - 1)
    }

    /// Draws each child from the top at the rows it asks for, until `rect` is full (the last one shown may be cut).
    public func draw(in rect: Rect, on canvas: inout Canvas) {
        var y = rect.y
        for child in children {
            guard y < rect.maxY else { break }
            let h = min(child.height(forWidth: rect.width), rect.maxY - y)
            child.draw(in: Rect(x: rect.x, y: y, width: rect.width, height: h), on: &canvas)
            y += h + spacing
        }
    }
}

/// Views side by side in equal columns.
public struct HStack: TerminalView {
    let children: [any TerminalView]
    let spacing: Int

    /// Places `children` in equal columns, `spacing` cells apart (the last column takes what is left over).
    public init(spacing: Int = 1, _ children: [any TerminalView]) {
        self.children = children
        self.spacing = spacing
    }

    func columns(_ rect: Rect) -> [Rect] {
        guard !children.isEmpty else { return [] }
        let usable = rect.width - spacing * (children.count - 1)
        let each = max(0, usable / children.count)
        return children.indices.map { k in
            let x = rect.x + k * (each + spacing)
            let w = k == children.count - 1 ? rect.maxX - x : each
            return Rect(x: x, y: rect.y, width: w, height: rect.height)
        }
    }

    /// The rows of the tallest child at its column's width.
    public func height(forWidth width: Int) -> Int {
        let r = columns(Rect(x: 0, y: 0, width: width, height: 0))
        return zip(children, r).map { $0.height(forWidth: $1.width) }.max() ?? 0
    }

    /// Each child gets the rows it asks for, at most the stack's.
    public func draw(in rect: Rect, on canvas: inout Canvas) {
        for (child, r) in zip(children, columns(rect)) {
            var mine = r
            mine.height = min(r.height, child.height(forWidth: r.width))
            child.draw(in: mine, on: &canvas)
        }
    }
}

/// A view inside a border, with an optional title.
public struct Boxed: TerminalView {
    let content: any TerminalView
    let title: String?
    let style: TextStyle
    let heavy: Bool

    /// Puts `content` in a border with `title` in its top edge; `heavy` draws the heavier border.
    public init(_ content: any TerminalView, title: String? = nil, style: TextStyle = .plain, heavy: Bool = false) {
        self.content = content
        self.title = title
        self.style = style
        self.heavy = heavy
    }

    /// The content's rows at `width` less 4 (the border and a blank column each side), and 2 for the border.
    public func height(forWidth width: Int) -> Int { content.height(forWidth: max(0, width - 4)) + 2 }

    /// Draws the border around `rect` and the content inside it, two cells in from the sides and one from the ends.
    public func draw(in rect: Rect, on canvas: inout Canvas) {
        canvas.box(rect, title: title, style: style, heavy: heavy)
        content.draw(in: rect.inset(dx: 2, dy: 1), on: &canvas)
    }
}

/// Empty rows.
public struct Spacer: TerminalView {
    let rows: Int
    /// Makes `rows` empty rows (default 1).
    public init(rows: Int = 1) { self.rows = rows }
    /// `rows`, at any width.
    public func height(forWidth width: Int) -> Int { rows }
    /// Draws nothing.
    public func draw(in rect: Rect, on canvas: inout Canvas) {}
}

/// A level meter: `value` 0…1 as a bar, with a label after it.
public struct Meter: TerminalView {
    let value: Float
    let label: String
    let style: TextStyle

    /// A meter of `value` (clamped to 0…1; not finite shows empty), drawn in `style` (green by default).
    public init(value: Float, label: String, style: TextStyle = TextStyle(color: .green)) {
        self.value = value.isFinite ? min(1, max(0, value)) : 0
        self.label = label
        self.style = style
    }

    /// One row.
    public func height(forWidth width: Int) -> Int { 1 }

    /// Draws the bar, filled for `value`'s share of the width the label leaves, and the label after it.
    public func draw(in rect: Rect, on canvas: inout Canvas) {
        let barWidth = max(0, rect.width - Canvas.displayWidth(label) - 1)
        let full = Int((value * Float(barWidth)).rounded())
        canvas.write(
            String(repeating: canvas.glyphs.meterFull, count: full), x: rect.x, y: rect.y, style: style, clip: rect)
        canvas.write(
            String(repeating: canvas.glyphs.meterEmpty, count: barWidth - full), x: rect.x + full, y: rect.y,
            style: .faint, clip: rect)
        canvas.write(label, x: rect.x + barWidth + 1, y: rect.y, clip: rect)
    }
}

/// A view given exactly `rows` rows.
public struct FixedHeight: TerminalView {
    let content: any TerminalView
    let rows: Int
    /// Gives `content` exactly `rows` rows.
    public init(_ content: any TerminalView, rows: Int) {
        self.content = content
        self.rows = rows
    }
    /// `rows`, at any width.
    public func height(forWidth width: Int) -> Int { rows }
    /// Draws the content in `rect`.
    public func draw(in rect: Rect, on canvas: inout Canvas) { content.draw(in: rect, on: &canvas) }
}
