extension Duration {
    /// The duration in seconds, as the analysis and the system's waits count time.
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension Duration {
    /// The wait that a deprecated seconds form asked for: none for NaN or a negative, thirty years at most.
    package static func wait(seconds: Double) -> Duration { !(seconds > 0) ? .zero : .seconds(min(seconds, 1e9)) }
}
