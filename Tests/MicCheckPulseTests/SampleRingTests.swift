#if os(Linux)
    import Foundation
    import MicCheckPulse
    import Synchronization
    import Testing

    @Suite("SampleRing: the capture thread's hand-over")
    struct SampleRingTests {
        @Test("blocks come out in order across the wrap-around")
        func wrapAround() {
            let ring = SampleRing(capacity: 10)
            var out = [Float](repeating: -1, count: 10)
            var next: Float = 0
            var expected: Float = 0
            for _ in 0..<20 {
                let block = (0..<7).map { i in next + Float(i) }
                next += 7
                #expect(block.withUnsafeBufferPointer { ring.write($0) })
                let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
                #expect(n == 7)
                for x in out[0..<n] {
                    #expect(x == expected)
                    expected += 1
                }
            }
            #expect(ring.droppedSamples == 0)
        }

        @Test("a block that does not fit is dropped whole and counted; the producer never waits")
        func overflow() {
            let ring = SampleRing(capacity: 100)
            let block = [Float](repeating: 1, count: 40)
            #expect(block.withUnsafeBufferPointer { ring.write($0) })
            #expect(block.withUnsafeBufferPointer { ring.write($0) })
            #expect(!block.withUnsafeBufferPointer { ring.write($0) })
            #expect(ring.available == 80)
            #expect(ring.droppedSamples == 40)
            #expect(ring.droppedBlocks == 1)
            var out = [Float](repeating: 0, count: 30)
            #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0) } == 30)
            #expect(block.withUnsafeBufferPointer { ring.write($0) })
            ring.discardAll()
            #expect(ring.available == 0)
            #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0) } == 0)
        }

        @Test("a producer and a consumer on two threads: every kept sample arrives once, in order")
        func twoThreads() {
            let ring = SampleRing(capacity: 4096)
            let blocks = 20_000
            let done = ProducerDone()
            let joined = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                var block = [Float](repeating: 0, count: 64)
                var value: Float = 0
                for k in 0..<blocks {
                    for i in 0..<64 {
                        block[i] = value
                        value += 1
                    }
                    _ = block.withUnsafeBufferPointer { ring.write($0) }
                    if k % 128 == 0 { usleep(100) }  // a capture thread delivers in bursts
                }
                done.flag.store(true, ordering: .releasing)
                joined.signal()
            }
            var out = [Float](repeating: 0, count: 1000)
            var count = 0
            var ordered = true
            var aligned = true
            var last: Float = -1
            while true {
                let finished = done.flag.load(ordering: .acquiring)
                let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
                if n == 0 {
                    if finished { break }
                    usleep(50)
                    continue
                }
                for x in out[0..<n] {
                    if x <= last { ordered = false }
                    if last >= 0 && x != last + 1 && Int(x) % 64 != 0 { aligned = false }  // gaps only at block starts
                    last = x
                }
                count += n
            }
            joined.wait()
            #expect(ordered)
            #expect(aligned)
            #expect(count > 0)
            #expect(count + ring.droppedSamples == blocks * 64)
            #expect(ring.droppedSamples % 64 == 0)
        }
    }

    final class ProducerDone: Sendable {
        let flag = Atomic<Bool>(false)
    }
#endif
