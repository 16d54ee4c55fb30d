import Foundation
import MicCheck
import MicCheckTesting
import Testing

func readAll(_ bytes: [UInt8]) throws -> (AudioFormat, [Float]) {
    let reader = try WAVReader(source: MemoryByteSource(bytes))
    return (reader.format, try reader.readRest(blockSize: 1000))
}

func expectError(_ bytes: [UInt8], _ check: (AudioInputError) -> Bool) {
    do {
        _ = try readAll(bytes)
        Issue.record("expected an error")
    } catch let e as AudioInputError {
        #expect(check(e), "unexpected error: \(e)")
    } catch {
        Issue.record("unexpected error type \(error)")
    }
}

@Suite("WAV input")
struct WAVReaderTests {
    static let ramp: [Float] = (0..<500).map { Float(sin(Double($0) * 0.05)) * 0.8 }

    @Test(
        "decodes every supported encoding to within its quantisation step",
        arguments: [
            (SampleEncoding.unsignedInt8, Float(1.0 / 128)), (.signedInt16, 1.0 / 32768),
            (.signedInt24, 1.0 / 8_388_608),
            (.signedInt32, 1e-7), (.float32, 0), (.float64, 1e-7),
        ])
    func roundTrip(encoding: SampleEncoding, tolerance: Float) throws {
        for extensible in [false, true] {
            let bytes = WAVWriter.file(
                interleaved: Self.ramp, sampleRate: 16_000, channels: 1, encoding: encoding,
                extensible: extensible, extraChunk: true)
            let (format, samples) = try readAll(bytes)
            #expect(format == AudioFormat(sampleRate: 16_000, channels: 1, encoding: encoding))
            #expect(samples.count == Self.ramp.count)
            let err = zip(samples, Self.ramp).map { abs($0 - $1) }.max() ?? 1
            #expect(err <= tolerance + 1e-7)
        }
    }

    @Test("reads 16-bit mono exactly: every code is its value over 32768")
    func sixteenBitExact() throws {
        let codes: [Int16] =
            [Int16.min, -1, 0, 1, Int16.max, -12_345, 23_456]
            + (0..<3_000).map { Int16(truncatingIfNeeded: $0 &* 7_919) }
        var data: [UInt8] = []
        for c in codes { data += [UInt8(truncatingIfNeeded: c), UInt8(truncatingIfNeeded: c >> 8)] }
        var file = WAVWriter.file(interleaved: [], sampleRate: 16_000, channels: 1, encoding: .signedInt16)
        file += data
        // The header's data size says 0; patch it (and the RIFF size) to the samples appended.
        func put(_ v: Int, at i: Int) { for k in 0..<4 { file[i + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) } }
        put(file.count - 8, at: 4)
        put(data.count, at: file.count - data.count - 4)
        let reader = try WAVReader(source: MemoryByteSource(file))
        var samples: [Float] = []
        var block = [Float](repeating: 0, count: 257)
        while true {
            let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { break }
            samples += block[0..<n]
        }
        #expect(samples == codes.map { Float($0) / 32_768 })
    }

    @Test("averages channels to mono")
    func downmix() throws {
        var interleaved: [Float] = []
        for x in Self.ramp { interleaved += [x, 0, -x / 2, x] }
        let (format, samples) = try readAll(
            WAVWriter.file(interleaved: interleaved, sampleRate: 48_000, channels: 4, encoding: .float32))
        #expect(format.channels == 4)
        for (s, x) in zip(samples, Self.ramp) { #expect(abs(s - (x + 0 - x / 2 + x) / 4) < 1e-6) }
    }

    @Test("reads an open-ended data chunk to the end and drops a partial last frame")
    func openAndTruncatedData() throws {
        var bytes = WAVWriter.file(
            interleaved: Self.ramp, sampleRate: 16_000, channels: 1, encoding: .signedInt16,
            dataSizeOverride: 0xFFFF_FFFF)
        #expect(try readAll(bytes).1.count == Self.ramp.count)
        bytes = WAVWriter.file(interleaved: Self.ramp, sampleRate: 16_000, channels: 1, encoding: .signedInt16)
        bytes.removeLast(101)  // the header claims more than is there; half a sample is left over
        #expect(try readAll(bytes).1.count == Self.ramp.count - 51)
    }

    @Test("a data chunk cut short says how much is missing once read, and nothing before or for a whole file")
    func cutShortNote() throws {
        let whole = WAVWriter.file(interleaved: Self.ramp, sampleRate: 16_000, channels: 1, encoding: .signedInt16)
        let reader = try WAVReader(source: MemoryByteSource(Array(whole.dropLast(2 * (Self.ramp.count - 200)))))
        #expect(reader.framesMissing == 0 && reader.cutShortNote(name: "x.wav") == nil)
        var block = [Float](repeating: 0, count: 64)
        var read = 0
        while case let n = try block.withUnsafeMutableBufferPointer({ try reader.read(into: $0) }), n > 0 { read += n }
        #expect(read == 200)
        #expect(reader.framesMissing == Self.ramp.count - 200)
        #expect(
            reader.cutShortNote(name: "x.wav")
                == "x.wav: the file ends early: its header announces \(formatSeconds(Double(Self.ramp.count) / 16_000)) of audio, it holds 0.01 s; what it holds was used"
        )
        for bytes in [
            whole,
            WAVWriter.file(
                interleaved: Self.ramp, sampleRate: 16_000, channels: 1, encoding: .signedInt16, dataSizeOverride: 0),
        ] {
            let complete = try WAVReader(source: MemoryByteSource(bytes))
            while try block.withUnsafeMutableBufferPointer({ try complete.read(into: $0) }) > 0 {}
            #expect(complete.framesMissing == 0 && complete.cutShortNote(name: "x.wav") == nil)
        }
    }

    @Test("reports malformed and unsupported input in words")
    func badInput() {
        expectError([]) { $0 == .empty }
        expectError(Array("RIFF".utf8) + [1, 0]) { if case .truncatedHeader = $0 { true } else { false } }
        expectError(Array("hello, this is plain text".utf8)) { if case .notWAV = $0 { true } else { false } }
        expectError(WAVWriter.header(formatTag: 7, channels: 1, sampleRate: 8_000, bitsPerSample: 8)) {
            $0.description.contains("µ-law")
        }
        expectError(WAVWriter.header(formatTag: 2, channels: 1, sampleRate: 8_000, bitsPerSample: 4, blockAlign: 256)) {
            $0.description.contains("ADPCM")
        }
        expectError(WAVWriter.header(formatTag: 1, channels: 0, sampleRate: 16_000, bitsPerSample: 16, blockAlign: 2)) {
            $0.description.contains("zero channels")
        }
        expectError(WAVWriter.header(formatTag: 1, channels: 9, sampleRate: 16_000, bitsPerSample: 16)) {
            $0.description.contains("9 channels")
        }
        expectError(WAVWriter.header(formatTag: 1, channels: 1, sampleRate: 1, bitsPerSample: 16)) {
            $0.description.contains("1 Hz")
        }
        expectError(WAVWriter.header(formatTag: 1, channels: 1, sampleRate: 4_000_000_000, bitsPerSample: 16)) {
            $0.description.contains("sample rate")
        }
        expectError(WAVWriter.header(formatTag: 1, channels: 2, sampleRate: 16_000, bitsPerSample: 16, blockAlign: 3)) {
            if case .malformed = $0 { true } else { false }
        }
        // A data chunk before any fmt chunk.
        expectError(Array("RIFF".utf8) + WAVWriter.u32(12) + Array("WAVEdata".utf8) + WAVWriter.u32(0)) {
            $0.description.contains("before the fmt chunk")
        }
    }

    @Test("stops at a NaN or infinite float sample", arguments: [Float.nan, .infinity, -.infinity])
    func nonFinite(bad: Float) {
        var samples = Self.ramp
        samples[123] = bad
        expectError(WAVWriter.file(interleaved: samples, sampleRate: 16_000, channels: 1, encoding: .float32)) {
            $0 == .nonFiniteSample(frame: 123)
        }
    }

    @Test("never crashes on random or mutated bytes")
    func fuzz() {
        var g = SeededGenerator(seed: 99)
        let valid = WAVWriter.file(
            interleaved: Self.ramp, sampleRate: 44_100, channels: 2, encoding: .signedInt24, extraChunk: true)
        for round in 0..<400 {
            var bytes = valid
            if round % 4 == 0 {
                bytes = (0..<Int(g.next() % 200)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            } else {
                for _ in 0..<(1 + Int(g.next() % 6)) {
                    let i = Int(g.next() % UInt64(bytes.count))
                    bytes[i] = UInt8(truncatingIfNeeded: g.next())
                }
                if round % 3 == 0 { bytes.removeLast(Int(g.next() % UInt64(bytes.count))) }
            }
            _ = try? readAll(bytes)  // either decodes or throws; it must not trap or hang
        }
    }

    @Test("a file that cannot be opened: a sentence that names it, the same in every form")
    func openErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wavreader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.wav").path
        #expect(FileManager.default.createFile(atPath: text, contents: Data("not audio".utf8)))
        let cases: [(String, AudioInputError, String)] = [
            (dir.path, .notAFile("a directory"), "is a directory, not an audio file"),
            (dir.appendingPathComponent("missing.wav").path, .noSuchFile, "no such file"),
            (text, .notWAV("no RIFF header"), "is not a WAV file (no RIFF header)"),
        ]
        for (path, problem, words) in cases {
            do {
                _ = try WAVReader(path: path)
                Issue.record("\(path) opened")
            } catch {
                #expect(error == AudioFileError(path: path, problem: problem))
                #expect(error.description == "\(path): \(words)")
                #expect(error.localizedDescription == "\(path): \(words).")
                // Through `any Error`, as an app's catch-all sees it.
                let erased: any Error = error
                #expect(erased.localizedDescription == "\(path): \(words).")
            }
        }
    }

    @Test("every error of the MicCheck library reads as its sentence, not as a type and a code")
    func sentences() {
        var errors: [any MicCheckError] = [
            AudioInputError.empty, AudioFileError(path: "a.wav", problem: .permissionDenied),
            AnalysisError.unsupportedSampleRate(12_345), VoiceActivityModel.LoadError.notAModel("no weights"),
        ]
        do { _ = try WAVFileWriter(path: "/no-such-folder/out.wav", sampleRate: 16_000) } catch { errors.append(error) }
        #expect(errors.count == 5)
        for error in errors {
            let text = (error as any Error).localizedDescription
            #expect(
                !text.contains("could not be completed") && !text.contains("error 0") && text.hasSuffix("."), "\(text)")
            #expect(text.contains(error.description), "\(text)")
        }
        #expect(AudioInputError.empty.localizedDescription == "The audio input is empty (0 bytes).")
    }
}
