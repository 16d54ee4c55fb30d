import Foundation
public import Testing

extension Tag {
    /// Tests in real time against PulseAudio servers or a terminal in tmux: run one at a time, after
    /// the others (on 2 cores, beside the corpus test, real-time capture starves and the load is measured).
    @Tag public static var live: Self
    /// Tests that take more than a few seconds (the whole corpus, long generated signals).
    @Tag public static var slow: Self
}

/// How long the long-session tests play their background: three minutes in the test command, ten with
/// `MICCHECK_LONG_TESTS=1` (the length the long-session figures were measured on; about four minutes of a
/// debug build's time for each background on this machine's two cores, too long for every run).
public enum LongSession {
    /// Minutes of background to play: 10 when `MICCHECK_LONG_TESTS=1`, otherwise 3.
    public static var minutes: Int {
        ProcessInfo.processInfo.environment["MICCHECK_LONG_TESTS"] == "1" ? 10 : 3
    }
}
