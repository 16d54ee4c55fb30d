#define _XOPEN_SOURCE_EXTENDED 1
#define _DEFAULT_SOURCE 1
#include "miccheck_terminal.h"

#include <langinfo.h>
#include <locale.h>
#include <ncurses.h>
#include <signal.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t pending_signal = 0;
static volatile sig_atomic_t active = 0;
static struct termios saved_modes;
static int have_saved_modes = 0;
// What to write to give the terminal back from a crash handler, where ncurses cannot be called:
// leave the alternate screen, show the cursor, reset attributes. Filled from terminfo at start.
static char restore_sequence[256];
static size_t restore_length = 0;
static SCREEN *screen = NULL;

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define CRASH_SIGNAL_COUNT (sizeof(crash_signals) / sizeof(crash_signals[0]))
static struct sigaction previous_crash_actions[CRASH_SIGNAL_COUNT];

static void on_stop_signal(int sig) {
    if (pending_signal == 0) pending_signal = sig;
}

// Async-signal-safe: only write(2), tcsetattr(3), sigaction(2) and raise(3).
static void on_crash_signal(int sig) {
    if (active) {
        active = 0;
        if (restore_length > 0) {
            ssize_t ignored = write(STDOUT_FILENO, restore_sequence, restore_length);
            (void)ignored;
        }
        if (have_saved_modes) tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
    }
    for (size_t i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] == sig) {
            sigaction(sig, &previous_crash_actions[i], NULL);
            break;
        }
    }
    // A fault re-runs its instruction on return and reaches the previous handler; a raised signal
    // (abort) is sent again to it.
    raise(sig);
}

void mct_install_signal_handlers(void) {
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = on_stop_signal;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGINT, &stop, NULL);
    sigaction(SIGTERM, &stop, NULL);
    sigaction(SIGHUP, &stop, NULL);
    sigaction(SIGQUIT, &stop, NULL);

    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    crash.sa_handler = on_crash_signal;
    sigemptyset(&crash.sa_mask);
    crash.sa_flags = SA_ONSTACK;
    for (size_t i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        sigaction(crash_signals[i], &crash, &previous_crash_actions[i]);
    }
}

int mct_take_signal(void) {
    int sig = pending_signal;
    pending_signal = 0;
    return sig;
}

static void append_capability(const char *name) {
    char *value = tigetstr((char *)name);
    if (value == NULL || value == (char *)-1) return;
    size_t n = strlen(value);
    if (restore_length + n >= sizeof restore_sequence) return;
    memcpy(restore_sequence + restore_length, value, n);
    restore_length += n;
}

int mct_start(void) {
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return -1;
    setlocale(LC_ALL, "");
    if (tcgetattr(STDIN_FILENO, &saved_modes) == 0) have_saved_modes = 1;
    screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    restore_length = 0;
    append_capability("sgr0");
    append_capability("cnorm");
    append_capability("rmcup");
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    if (has_colors()) {
        start_color();
        use_default_colors();
        for (short c = 0; c < 8; c++) init_pair((short)(c + 1), c, -1);
    }
    active = 1;
    return 0;
}

void mct_stop(void) {
    if (screen == NULL) return;
    active = 0;
    curs_set(1);
    endwin();
    delscreen(screen);
    screen = NULL;
    if (have_saved_modes) tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
}

int mct_is_utf8(void) {
    const char *set = nl_langinfo(CODESET);
    return set != NULL && (strcmp(set, "UTF-8") == 0 || strcmp(set, "utf8") == 0);
}

void mct_size(int *width, int *height) {
    int y, x;
    getmaxyx(stdscr, y, x);
    *width = x;
    *height = y;
}

int mct_read_key(int timeout_ms) {
    timeout(timeout_ms);
    int c = getch();
    if (c == ERR) return MCT_KEY_NONE;
    if (c == KEY_RESIZE) return MCT_KEY_RESIZE;
    if (c == KEY_ENTER || c == '\r' || c == '\n') return MCT_KEY_ENTER;
    return c;
}

void mct_begin_frame(void) { erase(); }

void mct_put(int x, int y, const char *utf8, int color, int attributes) {
    attr_t a = A_NORMAL;
    if (attributes & MCT_BOLD) a |= A_BOLD;
    if (attributes & MCT_DIM) a |= A_DIM;
    if (attributes & MCT_REVERSE) a |= A_REVERSE;
    if (color >= 0 && color < 8 && has_colors()) a |= COLOR_PAIR(color + 1);
    attrset(a);
    mvaddstr(y, x, utf8);
    attrset(A_NORMAL);
}

void mct_end_frame(void) { refresh(); }

void mct_clear(void) { clearok(stdscr, TRUE); }
