// The microphone test on a recording: MicCheck judges the first seconds of a WAV file as it judges a
// microphone's, and says how the voice came through. Errors are sentences that name the file.
//
//   swift run mic-test-file talk.wav [SECONDS]
import Foundation
import MicCheck
import MicCheckLive

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    print("usage: mic-test-file FILE.wav [SECONDS]")
    exit(64)
}
let seconds = arguments.dropFirst().first.flatMap(Double.init) ?? 5
do {
    let source = try WAVFileSource(path: path, pacing: .asFastAsPossible)
    let result = try LiveMicrophoneTest.record(from: source, configuration: .init(seconds: seconds))
    print(result.verdict.sentence())
    exit(result.verdict.kind == .clear ? 0 : 2)
} catch {
    print("mic-test-file: \(error.localizedDescription)")  // "folder: is a directory, not an audio file."
    exit(1)
}
