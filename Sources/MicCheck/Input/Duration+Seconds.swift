extension Duration {
    /// The duration in seconds, as the analysis and the system's waits count time.
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
