// A small C API over ncurses for MicCheck's full-screen terminal UI, and the signal handlers that give
// the terminal back on a signal or a crash. Not API of MicCheck.
#ifndef MICCHECK_TERMINAL_H
#define MICCHECK_TERMINAL_H

#ifdef __cplusplus
extern "C" {
#endif

/// Keys beyond characters that `mct_read_key` returns.
enum {
    MCT_KEY_NONE = -1,     // nothing within the timeout
    MCT_KEY_RESIZE = -2,   // the terminal changed size
    MCT_KEY_ENTER = 10,
    MCT_KEY_ESCAPE = 27,
};

/// Attribute bits for `mct_put`.
enum { MCT_BOLD = 1, MCT_DIM = 2, MCT_REVERSE = 4 };

/// Installs the handlers: SIGINT, SIGTERM, SIGHUP and SIGQUIT are recorded for `mct_take_signal`;
/// SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP restore the terminal and then let the
/// previous handler (the Swift runtime's backtracer, or the default) take over. Call before `mct_start`.
void mct_install_signal_handlers(void);

/// The first of SIGINT, SIGTERM, SIGHUP, SIGQUIT received since the last call, or 0.
int mct_take_signal(void);

/// Enters full-screen mode on the controlling terminal (stdin and stdout). Returns 0, or -1 when
/// the terminal cannot be used (not a terminal, or an unknown TERM), with nothing changed.
int mct_start(void);

/// Leaves full-screen mode and restores the terminal's modes as they were before `mct_start`.
/// Safe to call more than once.
void mct_stop(void);

/// Whether the locale's character set is UTF-8 (so box-drawing characters can be used).
int mct_is_utf8(void);

/// The terminal's size in cells.
void mct_size(int *width, int *height);

/// The next key, waiting at most `timeout_ms` (a character code, or an MCT_KEY_* value).
int mct_read_key(int timeout_ms);

/// Starts a frame: clears the off-screen picture.
void mct_begin_frame(void);

/// Puts UTF-8 text at (x, y) with a colour (0–7, or -1 for the terminal's own) and attribute bits.
void mct_put(int x, int y, const char *utf8, int color, int attributes);

/// Shows the frame (ncurses sends only what changed).
void mct_end_frame(void);

/// Forces a full repaint on the next frame (after a resize).
void mct_clear(void);

#ifdef __cplusplus
}
#endif
#endif
