// An app that hands MicCheck audio it captured itself (here: read from a WAV file as fast as it can),
// through a FedAudioSource that waits for the analysis rather than dropping what it cannot take. It links
// neither libpulse nor webrtc-audio-processing.
//
//   swift run fed-audio talk.wav
import Foundation
import MicCheck
import MicCheckLive

guard let path = CommandLine.arguments.dropFirst().first else {
    print("usage: fed-audio FILE.wav")
    exit(64)
}
let reader: WAVReader
do { reader = try WAVReader(path: path) } catch {
    print("fed-audio: \(error.localizedDescription)")  // "talk.wav: no such file."
    exit(1)
}
let fed = FedAudioSource(sampleRate: reader.format.sampleRate, label: path, capacity: reader.format.sampleRate / 10)
let session = LiveAnalysis(source: fed)
let feeder = Task {
    var block = [Float](repeating: 0, count: WAVReader.blockFrames)
    while let n = try? block.withUnsafeMutableBufferPointer({ try reader.read(into: $0) }), n > 0 {
        await fed.feedWaitingForRoom(Array(block[0..<n]))  // backpressure: nothing is dropped
    }
    fed.end()
}
for await record in session.records() {
    if case .analysis(.event(let event)) = record { print(String(format: "%.2f s", event.time), event.name) }
}
await feeder.value
print("dropped \(fed.droppedSamples) samples")
