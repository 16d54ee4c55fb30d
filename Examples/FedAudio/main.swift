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
let fedSource = FedAudioSource(
    sampleRate: reader.format.sampleRate, label: path, capacity: reader.format.sampleRate / 10)
let session = LiveAnalysis(source: fedSource)
// Read and fed on a task of its own; returns (samples read, samples the analysis took).
let feeder = Task { () -> (read: Int, fed: Int) in
    var block = [Float](repeating: 0, count: WAVReader.blockFrames)
    var (read, fed) = (0, 0)
    defer { fedSource.end() }
    while true {
        let n: Int
        do { n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) } } catch {
            print("fed-audio: \(path) \(error)")
            return (read, fed)
        }
        if n == 0 { return (read, fed) }
        read += n
        fed += await fedSource.feedWaitingForRoom(Array(block[0..<n]))  // waits for room: nothing is dropped
    }
}
for await record in session.records() {
    if case .analysis(.event(let event)) = record { print(String(format: "%.2f s", event.time), event.name) }
}
let counts = await feeder.value
print("fed \(counts.fed) of \(counts.read) samples")
