#if os(Linux)
    public import MicCheck

    /// A recorded call through voice processing: the near end (what the microphone recorded) and, for echo
    /// cancellation, the far end (what the loudspeaker played, aligned with the recording from its first
    /// sample), fed through a ``VoiceProcessingStream`` as a call would feed them: the far end's audio up to
    /// each near-end block's time goes first. A far end shorter than the near end is followed by silence.
    /// `miccheck process` runs it on two WAV files.
    public enum RecordedCallProcessing {
        /// What a run measured.
        public struct Summary: Sendable, Equatable {
            /// Seconds of near-end audio read.
            public var seconds: Double
            /// The near end's level over the whole run, in dBFS.
            public var inputLevelDB: Double
            /// The processed audio's level over the whole run, in dBFS.
            public var outputLevelDB: Double
        }

        /// Why a run stopped.
        public enum Failure: MicCheckError {
            /// The near end's reader failed (the reader's error).
            case near(AudioInputError)
            /// The far end's reader failed (the reader's error).
            case far(AudioInputError)
            /// Voice processing failed.
            case processing(VoiceProcessingError)

            /// The reader's or the processor's sentence, naming the end it concerns.
            public var description: String {
                switch self {
                case .near(let e): "the near end \(e)"
                case .far(let e): "the far end \(e)"
                case .processing(let e): "\(e)"
                }
            }
        }

        /// Reads `near` (and `far`) to the end through `stream`, whose rates must be the readers' rates;
        /// `emit` receives the processed near end at the stream's rate, in order, ending with what
        /// ``VoiceProcessingStream/finish(emit:)`` hands out.
        public static func run(
            near: WAVReader, far: WAVReader?, through stream: VoiceProcessingStream,
            emit: (UnsafeBufferPointer<Float>) -> Void
        ) throws(Failure) -> Summary {
            var input = PowerSum()
            var output = PowerSum()
            func counted(_ block: UnsafeBufferPointer<Float>) {
                output.add(block)
                emit(block)
            }
            var farEnd = far.map(FarEnd.init)
            var nearBlock = [Float](repeating: 0, count: WAVReader.blockFrames)
            var seconds = 0.0
            while true {
                let n: Int
                let read = nearBlock.withUnsafeMutableBufferPointer { block in
                    Result { () throws(AudioInputError) in try near.read(into: block) }
                }
                do { n = try read.get() } catch { throw .near(error) }
                if n == 0 { break }
                seconds += Double(n) / Double(near.format.sampleRate)
                // Far-end audio up to the same time goes first, as it would in a call.
                try farEnd?.feed(upTo: seconds, into: stream)
                var failure: VoiceProcessingError?
                nearBlock.withUnsafeBufferPointer { whole in
                    let block = UnsafeBufferPointer(rebasing: whole[0..<n])
                    input.add(block)
                    do throws(VoiceProcessingError) { try stream.pushNear(block, emit: counted) } catch {
                        failure = error
                    }
                }
                if let failure { throw .processing(failure) }
            }
            do { try stream.finish(emit: counted) } catch { throw .processing(error) }
            return Summary(seconds: seconds, inputLevelDB: input.levelDB, outputLevelDB: output.levelDB)
        }

        /// The far end's reader and how far it has been read.
        private struct FarEnd {
            let reader: WAVReader
            var block = [Float](repeating: 0, count: WAVReader.blockFrames)
            var read = 0
            var open = true

            init(_ reader: WAVReader) { self.reader = reader }

            /// Hands `stream` the far end up to `seconds`; at its end, tells the stream so.
            mutating func feed(upTo seconds: Double, into stream: VoiceProcessingStream) throws(Failure) {
                let wanted = Int((seconds * Double(reader.format.sampleRate)).rounded(.up))
                while open && read < wanted {
                    let m: Int
                    let count = min(block.count, max(1, wanted - read))
                    let reader = reader
                    let got = block.withUnsafeMutableBufferPointer { block in
                        Result { () throws(AudioInputError) in
                            try reader.read(into: UnsafeMutableBufferPointer(rebasing: block[0..<count]))
                        }
                    }
                    do { m = try got.get() } catch { throw .far(error) }
                    if m == 0 {
                        open = false
                        stream.endFar()
                        return
                    }
                    read += m
                    block.withUnsafeBufferPointer { stream.pushFar(UnsafeBufferPointer(rebasing: $0[0..<m])) }
                }
            }
        }
    }

    /// Energy of a signal, summed as it streams by.
    struct PowerSum {
        private var sum = 0.0
        private var count = 0

        mutating func add(_ block: UnsafeBufferPointer<Float>) {
            for x in block { sum += Double(x) * Double(x) }
            count += block.count
        }

        var levelDB: Double { Double(Decibels.fromPower(count > 0 ? sum / Double(count) : 0)) }
    }
#endif
