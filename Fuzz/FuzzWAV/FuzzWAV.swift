import Foundation
import MicCheck

/// One input: the bytes as a WAV file, read through `WAVReader` in block sizes the input's last
/// byte chooses (a short read, one sample, a whole block, and sizes between), as a file streamed from a
/// pipe would arrive. Every outcome but a crash, a hang or a sanitizer report is fine: a refusal is a
/// thrown error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let seed = Int(bytes.last ?? 0)
    let sizes = [1, 2, 3, 7, 160, 441, 1_024, WAVReader.blockFrames, WAVReader.blockFrames + 1]
    guard let reader = try? WAVReader(source: MemoryByteSource(bytes)) else { return 0 }
    var buffer = [Float](repeating: 0, count: WAVReader.blockFrames * 2 + 1)
    var round = 0
    // A file of a few hundred kilobytes holds at most that many frames: a bound that a hang would pass.
    while round < 1_000_000 {
        let n = sizes[(seed + round) % sizes.count]
        let got = buffer.withUnsafeMutableBufferPointer { b in
            (try? reader.read(into: UnsafeMutableBufferPointer(rebasing: b[0..<n]))) ?? 0
        }
        if got == 0 { break }
        precondition(got <= n, "read more frames than asked for")
        round += 1
    }
    return 0
}
