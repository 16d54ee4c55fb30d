/// The voice detector's features of a whole recording, one row per 10 ms frame, as training reads them
/// (`miccheck features`, then `training/train_vad.py`).
///
/// Framed by the same `Framer` as the analysis (`StreamingAnalysis`), so each row is the feature vector that the
/// runtime's detector computes for that frame, the last frames included.
public enum TrainingFeatures {
    /// Every frame's `VoiceFeatureExtractor.count` features, row after row.
    /// - Throws: ``AudioInputError`` when the file cannot be read to its end.
    public static func rows(of reader: WAVReader) throws(AudioInputError) -> [Float] {
        var framer = Framer(inputRate: reader.format.sampleRate)
        var extractor = VoiceFeatureExtractor()
        var rows: [Float] = []
        var vector = [Float](repeating: 0, count: VoiceFeatureExtractor.count)
        var input = [Float](repeating: 0, count: WAVReader.blockFrames)
        let take: (UnsafeBufferPointer<Float>) -> Void = { frame in
            vector.withUnsafeMutableBufferPointer { extractor.process(frame: frame, into: $0) }
            rows += vector
        }
        while true {
            let n = try input.withUnsafeMutableBufferPointer { buffer throws(AudioInputError) in
                try reader.read(into: buffer)
            }
            if n == 0 { break }
            input.withUnsafeBufferPointer { framer.process(UnsafeBufferPointer(rebasing: $0[0..<n]), frame: take) }
        }
        framer.finish(frame: take)
        return rows
    }
}
