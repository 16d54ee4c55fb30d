/// The binary messages of both protocols: signed 16-bit little-endian mono PCM.
enum PCM16 {
    /// Decodes `bytes` into `samples` (grown when too small), in -1…1; returns the count.
    static func decode(_ bytes: UnsafeRawBufferPointer, into samples: inout [Float]) throws(ProtocolError) -> Int {
        guard bytes.count % 2 == 0 else {
            throw ProtocolError("a binary message must hold whole 16-bit samples (an even number of bytes)")
        }
        let n = bytes.count / 2
        if samples.count < n { samples = [Float](repeating: 0, count: n) }
        for i in 0..<n {
            let lo = UInt16(bytes[2 * i])
            let hi = UInt16(bytes[2 * i + 1])
            samples[i] = Float(Int16(bitPattern: lo | hi << 8)) / 32_768
        }
        return n
    }
}
