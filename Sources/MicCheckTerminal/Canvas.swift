/// A colour the terminal draws text in.
public enum TerminalColor: Int, Sendable, Hashable, CaseIterable {
    /// The eight colours of a curses terminal; the raw value is the curses colour number (black 0 … white 7).
    case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell's text looks.
public struct TextStyle: Sendable, Hashable {
    /// The text's colour; `nil` for the terminal's own.
    public var color: TerminalColor?
    /// Bold text.
    public var bold: Bool
    /// Dim (faint) text.
    public var dim: Bool
    /// Text and background colours swapped.
    public var reverse: Bool

    /// Makes a style; by default the terminal's colour with no attributes.
    public init(color: TerminalColor? = nil, bold: Bool = false, dim: Bool = false, reverse: Bool = false) {
        self.color = color
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
    }

    /// The terminal's colour, no attributes.
    public static let plain = TextStyle()
    /// Bold, in the terminal's colour.
    public static let strong = TextStyle(bold: true)
    /// Dim, in the terminal's colour.
    public static let faint = TextStyle(dim: true)
}

/// The characters boxes and meters are drawn with: box-drawing characters on a UTF-8 terminal,
/// ASCII elsewhere.
public struct Glyphs: Sendable, Hashable {
    /// The characters of a box's border: its edges and its four corners.
    public struct Border: Sendable, Hashable {
        /// The top and bottom edge (`horizontal`), the sides (`vertical`) and the corners.
        public var horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: Character
    }
    /// An ordinary border.
    public var border: Border
    /// A heavier border, for emphasis (the speaking border).
    public var heavyBorder: Border
    /// A filled cell of a level meter.
    public var meterFull: Character
    /// An empty cell of a level meter.
    public var meterEmpty: Character
    /// Fills a video tile (the terminal cannot show the video itself).
    public var videoShade: Character
    /// The dot before "speaking" in the list of participants.
    public var bullet: Character

    /// Box-drawing and block characters, for a UTF-8 terminal.
    public static let unicode = Glyphs(
        border: Border(horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘"),
        heavyBorder: Border(
            horizontal: "━", vertical: "┃", topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛"),
        meterFull: "█", meterEmpty: "░", videoShade: "▒", bullet: "●")
    /// ASCII characters only, for a terminal that is not UTF-8.
    public static let ascii = Glyphs(
        border: Border(horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+"),
        heavyBorder: Border(
            horizontal: "=", vertical: "#", topLeft: "#", topRight: "#", bottomLeft: "#", bottomRight: "#"),
        meterFull: "#", meterEmpty: ".", videoShade: ":", bullet: "*")
}

/// A rectangle of cells.
public struct Rect: Sendable, Hashable {
    /// The top-left cell (`x` columns from the left, `y` rows from the top) and the size, in cells.
    public var x, y, width, height: Int

    /// Makes a rectangle; a negative width or height becomes 0.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle has no cells.
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// The column just right of the rectangle.
    public var maxX: Int { x + width }
    /// The row just below the rectangle.
    public var maxY: Int { y + height }

    /// The rectangle `dx` cells in from the left and right and `dy` from the top and bottom.
    public func inset(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
}

/// What a terminal screen shows: a grid of characters, each with a style. Views draw on it; a
/// terminal backend paints it; tests read it as text.
public struct Canvas: Sendable {
    /// One cell of the grid: a character and its style.
    public struct Cell: Sendable, Hashable {
        /// The character shown (a space in an empty cell).
        public var character: Character
        /// How the character looks.
        public var style: TextStyle
        /// The right half of a double-width character drawn in the cell before.
        public var isContinuation: Bool
    }

    /// Columns of the canvas.
    public let width: Int
    /// Rows of the canvas.
    public let height: Int
    /// The characters boxes and meters are drawn with.
    public let glyphs: Glyphs
    /// The cells row by row from the top left: column `x` of row `y` is at `y * width + x`.
    public private(set) var cells: [Cell]

    /// Makes a blank canvas of `width` by `height` cells (a negative size becomes 0).
    public init(width: Int, height: Int, glyphs: Glyphs = .unicode) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.glyphs = glyphs
        cells = Array(
            repeating: Cell(character: " ", style: .plain, isContinuation: false), count: self.width * self.height)
    }

    /// The whole canvas as a rectangle at (0, 0).
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at column `x` of row `y` (both inside the canvas).
    public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// Writes `text` from (`x`, `y`) on one line, clipped to `clip` (default: the canvas). Control
    /// characters become spaces; double-width characters take two cells. Returns the cells used.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: TextStyle = .plain, clip: Rect? = nil) -> Int {
        let area = clip ?? bounds
        guard y >= max(0, area.y), y < min(height, area.maxY) else { return 0 }
        let right = min(width, area.maxX)
        var column = x
        for character in text {
            let w = Self.displayWidth(character)
            let shown: Character = w == 0 ? " " : character
            let cellsNeeded = max(1, w)
            if column + cellsNeeded > right { break }
            if column >= max(0, area.x) {
                cells[y * width + column] = Cell(character: shown, style: style, isContinuation: false)
                if cellsNeeded == 2 {
                    cells[y * width + column + 1] = Cell(character: " ", style: style, isContinuation: true)
                }
            }
            column += cellsNeeded
        }
        return column - x
    }

    /// Fills `rect` with `character`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: TextStyle = .plain) {
        let line = String(repeating: character, count: max(0, rect.width))
        for y in rect.y..<rect.maxY { write(line, x: rect.x, y: y, style: style, clip: rect) }
    }

    /// Draws a border around `rect`, with `title` in its top edge.
    public mutating func box(_ rect: Rect, title: String? = nil, style: TextStyle = .plain, heavy: Bool = false) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let b = heavy ? glyphs.heavyBorder : glyphs.border
        let inner = String(repeating: b.horizontal, count: rect.width - 2)
        write(String(b.topLeft) + inner + String(b.topRight), x: rect.x, y: rect.y, style: style)
        write(String(b.bottomLeft) + inner + String(b.bottomRight), x: rect.x, y: rect.maxY - 1, style: style)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            write(String(b.vertical), x: rect.x, y: y, style: style)
            write(String(b.vertical), x: rect.maxX - 1, y: y, style: style)
        }
        if let title, rect.width > 4 {
            let room = Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: 1)
            write(
                " " + title + " ", x: rect.x + 2, y: rect.y, style: TextStyle(color: style.color, bold: true),
                clip: room)
        }
    }

    /// Row `y` as text (trailing spaces kept).
    public func line(_ y: Int) -> String {
        String((0..<width).compactMap { x in self[x, y].isContinuation ? nil : self[x, y].character })
    }

    /// The whole canvas as text, one line per row, trailing spaces and empty last rows trimmed.
    public var text: String {
        var lines = (0..<height).map { line($0).trimmingTrailingSpaces }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Cells a character takes on a terminal: 0 for control characters, 2 for East Asian wide and
    /// emoji-presentation characters, 1 otherwise.
    public static func displayWidth(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Cells `text` takes on one line.
    public static func displayWidth(_ text: String) -> Int { text.reduce(0) { $0 + displayWidth($1) } }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
