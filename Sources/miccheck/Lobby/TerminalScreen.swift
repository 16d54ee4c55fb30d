#if canImport(CTerminal)
    import CTerminal
    import MicCheckTerminal

    /// The full-screen terminal, through ncurses: paints canvases, reads keys, and gives the terminal back
    /// on exit, on SIGINT/SIGTERM/SIGHUP/SIGQUIT (reported through `takeSignal()`), and on a crash (the
    /// C handlers restore it before the crash report).
    final class TerminalScreen {
        private var started = false
        private var lastPainted: Canvas?
        let glyphs: Glyphs

        /// Enters full screen. Fails, with the terminal untouched, when stdin or stdout is not a terminal
        /// or TERM names no known terminal.
        init() throws(TerminalUnavailable) {
            mct_install_signal_handlers()
            guard mct_start() == 0 else { throw TerminalUnavailable() }
            started = true
            glyphs = mct_is_utf8() != 0 ? .unicode : .ascii
        }

        struct TerminalUnavailable: Error {}

        var size: (width: Int, height: Int) {
            var w: Int32 = 0
            var h: Int32 = 0
            mct_size(&w, &h)
            return (Int(w), Int(h))
        }

        /// A pending stop signal, if one came.
        func takeSignal() -> Int32 { mct_take_signal() }

        enum Input: Equatable {
            case key(TerminalKey)
            case resized, none
        }

        /// The next key, waiting at most `timeout` seconds.
        func read(timeout: Double) -> Input {
            let code = mct_read_key(Int32(max(0, timeout * 1000)))
            switch code {
            case Int32(MCT_KEY_NONE): return .none
            case Int32(MCT_KEY_RESIZE):
                lastPainted = nil
                mct_clear()
                return .resized
            case Int32(MCT_KEY_ENTER): return .key(.enter)
            case Int32(MCT_KEY_ESCAPE): return .key(.escape)
            case 32..<127:
                guard let scalar = Unicode.Scalar(UInt32(code)) else { return .none }
                return .key(.character(Character(scalar)))
            default: return .none
            }
        }

        /// Shows `canvas`; nothing is sent when it equals what is on screen.
        func paint(_ canvas: Canvas) {
            if let lastPainted, lastPainted.width == canvas.width, lastPainted.height == canvas.height,
                lastPainted.cells == canvas.cells
            {
                return
            }
            mct_begin_frame()
            for y in 0..<canvas.height {
                var x = 0
                while x < canvas.width {
                    let style = canvas[x, y].style
                    var run = ""
                    let start = x
                    while x < canvas.width, canvas[x, y].style == style {
                        if !canvas[x, y].isContinuation { run.append(canvas[x, y].character) }
                        x += 1
                    }
                    var attributes: Int32 = 0
                    if style.bold { attributes |= Int32(MCT_BOLD) }
                    if style.dim { attributes |= Int32(MCT_DIM) }
                    if style.reverse { attributes |= Int32(MCT_REVERSE) }
                    mct_put(Int32(start), Int32(y), run, Int32(style.color?.rawValue ?? -1), attributes)
                }
            }
            mct_end_frame()
            lastPainted = canvas
        }

        /// Leaves full screen and restores the terminal's modes. Safe to call twice.
        func stop() {
            guard started else { return }
            started = false
            mct_stop()
        }

        deinit { stop() }
    }
#endif
