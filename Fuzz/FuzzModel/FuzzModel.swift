import Foundation
import MicCheck

/// One input: the bytes as a voice activity model file. A model that loads is then run: the analyzer on
/// a third of a second of a signal the input's bytes make, so that weights of any shape that pass the
/// loader's checks are also used.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
    // A model file is never empty, so the signal below always has bytes to take.
    guard let model = try? VoiceActivityModel(json: bytes), !bytes.isEmpty else { return 0 }
    var analyzer = Analyzer(inputRate: 16_000, model: model)
    var signal = [Float](repeating: 0, count: 5_280)
    for i in signal.indices { signal[i] = (Float(bytes[bytes.startIndex + i % max(1, bytes.count)]) - 128) / 128 }
    signal.withUnsafeBufferPointer { analyzer.process($0) { _ in } }
    return 0
}
