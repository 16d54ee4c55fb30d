public import Testing

extension Tag {
    /// Tests in real time against PulseAudio servers or a terminal in tmux: run one at a time, after
    /// the others (on 2 cores, beside the corpus test, real-time capture starves and the load is measured).
    @Tag public static var live: Self
    /// Tests that take more than a few seconds (the whole corpus, long generated signals).
    @Tag public static var slow: Self
}
