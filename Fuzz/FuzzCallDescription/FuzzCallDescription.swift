import Foundation
import MicCheckCall

/// One input: the bytes as a call description (`lobby --call`, `serve --call`). One that decodes is then
/// played: who is in the call and who speaks at a few moments, far ones included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
    guard let call = try? CallDescription.decode(bytes) else { return 0 }
    for t in [0, 0.5, 59.99, 3_600, 1e12, -1] { _ = call.participants(at: t) }
    return 0
}
