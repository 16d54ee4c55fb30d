public import Foundation

/// An error of MicCheck's libraries. Its `description` is the sentence that `miccheck` prints for it, without
/// the leading "miccheck: " and the final stop, naming the file or device where there is one
/// ("speech.wav: is a directory, not an audio file"); its `localizedDescription` is that sentence with its stop.
///
/// ```swift
/// do {
///     let reader = try WAVReader(path: "speech.wav")
///     print(reader.format)
/// } catch {
///     print(error.localizedDescription)  // "speech.wav: no such file."
/// }
/// ```
public protocol MicCheckError: LocalizedError, CustomStringConvertible {}

extension MicCheckError {
    /// The `description` with its final stop.
    public var errorDescription: String? { description + "." }
}

extension AnalysisError: MicCheckError {}
extension VoiceActivityModel.LoadError: MicCheckError {}
extension WAVFileWriter.WriteError: MicCheckError {}
