/// Puts an `Analyzer`'s records in time order, as ``StreamingAnalysis`` delivers them: an event waits
/// until the frame records up to its time are out, which with a look-ahead model is at most 30 ms.
/// Holds a few events; allocates nothing after `init`.
package struct TimeOrderedRecords: Sendable {
    private var held: [AnalysisEvent] = []
    private var lastFrameTime = -Double.infinity

    package init() { held.reserveCapacity(16) }

    /// Passes `record` on, or holds it if it is an event ahead of the frames.
    package mutating func add(_ record: AnalysisOutput, emit: (AnalysisOutput) -> Void) {
        switch record {
        case .frame(let f):
            emit(record)
            lastFrameTime = f.time
            guard !held.isEmpty else { return }
            var kept = 0
            for e in held {
                if e.time <= lastFrameTime + 1e-9 {
                    emit(.event(e))
                } else {
                    held[kept] = e
                    kept += 1
                }
            }
            held.removeLast(held.count - kept)
        case .event(let e):
            if e.time <= lastFrameTime + 1e-9 { emit(record) } else { held.append(e) }
        }
    }

    /// Passes on what is held (at the end of the input, after `Analyzer.finish(emit:)`).
    package mutating func flush(emit: (AnalysisOutput) -> Void) {
        for e in held { emit(.event(e)) }
        held.removeAll(keepingCapacity: true)
    }
}
