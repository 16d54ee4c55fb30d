import Foundation
public import MicCheck

/// The sample that ships with MicCheck: 11.6 s of speech, pauses over room tone, and typing (16 kHz,
/// 16-bit mono; written by `scripts/make_sample.py`). It stands in for a microphone where there is none.
public enum BundledSample {
    /// How errors and reports name it.
    public static let name = "sample.wav"

    /// A reader of the sample from the package's resources.
    public static func reader() throws(AudioSourceError) -> WAVReader {
        guard let url = Bundle.module.url(forResource: "sample", withExtension: "wav") else {
            throw AudioSourceError(.unreadable, "\(name): the bundled sample is missing from the package's resources")
        }
        do {
            return try WAVReader(path: url.path)
        } catch {
            throw WAVFileSource.error(error.problem, name: name)
        }
    }

    /// The sample as a source: in real time as a microphone (once, or over and over with `loop`), or as
    /// fast as possible.
    public static func source(
        pacing: WAVFileSource.Pacing, loop: Bool = false
    ) throws(AudioSourceError) -> WAVFileSource {
        let label = pacing == .realTime ? "the bundled sample (played in real time)" : name
        let first = try reader()
        let again: @Sendable () -> WAVReader? = { try? BundledSample.reader() }
        return WAVFileSource(reader: first, name: name, label: label, pacing: pacing, reopen: loop ? again : nil)
    }
}
