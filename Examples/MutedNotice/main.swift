// An app that is muted in a call and tells its user "You are muted." when they start speaking,
// using only MicCheck's public API.
//
//   swift run muted-notice              the default PulseAudio source, until Ctrl-C
//   swift run muted-notice talk.wav     a WAV file, as fast as it can be read
import Foundation
import MicCheck
import MicCheckLive
import MicCheckLivePulse

/// A line on standard output, at once (a pipe would otherwise hold it until the end).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let source: any AudioSource
do {
    if let path = CommandLine.arguments.dropFirst().first {
        source = try WAVFileSource(path: path, pacing: .asFastAsPossible)
    } else {
        #if os(Linux)
            source = try PulseAudioSource()
        #else
            throw AudioSourceError(.noServer, "this example listens to PulseAudio on Linux; name a WAV file")
        #endif
    }
} catch {
    say("muted-notice: \(error.message).")
    exit(1)
}

var notice = MutedSpeechNotice(isMuted: true)
let session = LiveAnalysis(source: source)
let ending = session.run { record in
    if notice.consume(record), case .analysis(let r) = record {
        say(String(format: "%.2f s  You are muted.", r.time))
    }
}
if case .failed(let error) = ending { say("muted-notice: \(error.message).") }
