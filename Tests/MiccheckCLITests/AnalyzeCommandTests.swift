import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// Runs the built `miccheck` binary and collects what it prints.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

let binary: URL = {
    // The test bundle sits in the build products folder beside the executable.
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let direct = products.appendingPathComponent("miccheck")
    if FileManager.default.fileExists(atPath: direct.path) { return direct }
    return products.deletingLastPathComponent().appendingPathComponent("miccheck")
}()

func miccheck(_ args: [String], environment: [String: String]? = nil) throws -> Run {
    try run(binary, args, environment: environment)
}

/// Runs `executable` with `args` and collects what it prints.
/// Runs `executable` to its end; `input`, when given, is written to its standard input and closed.
func run(_ executable: URL, _ args: [String], environment: [String: String]? = nil, input: Data? = nil) throws -> Run {
    let p = Process()
    p.executableURL = executable
    p.arguments = args
    if let environment { p.environment = environment }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let stdin = input.map { _ in Pipe() }
    if let stdin { p.standardInput = stdin }
    try p.run()
    if let stdin, let input {
        // On a thread of its own: a child that writes before it has read everything would block us otherwise.
        Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }.start()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Run(
        status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
        stderr: String(decoding: e, as: UTF8.self))
}

func tempDir() -> URL {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent("miccheck-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    return d
}

func writeWAV(_ dir: URL, _ name: String, _ bytes: [UInt8]) -> String {
    let path = dir.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
}

@Suite(
    "miccheck analyze",
    .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
struct AnalyzeCommandTests {
    let speechWAV: [UInt8] = {
        let rate = 16_000
        let x =
            [Float](repeating: 0, count: rate / 2) + Signals.voice(rmsDB: -24, seconds: 2, sampleRate: rate)
            + Signals.pinkNoise(rmsDB: -70, seconds: 2, sampleRate: rate)
        return WAVWriter.file(interleaved: x, sampleRate: rate, channels: 1, encoding: .signedInt16)
    }()

    @Test(
        "jsonl: a frame record every 10 ms with the contract's keys, events in time order (the bundled model's look-ahead, and none)",
        arguments: [nil, 0])
    func jsonlContract(lookahead: Int?) throws {
        let dir = tempDir()
        let wav = writeWAV(dir, "speech.wav", speechWAV)
        var modelArguments: [String] = []
        if let lookahead {
            // The bundled model (3 frames of look-ahead: its frame records lag the events), told otherwise.
            let path = dir.appendingPathComponent("ahead.json")
            try ModelFiles.bundled(lookahead: lookahead).write(to: path)
            modelArguments = ["--model", path.path]
        }
        let r = try miccheck(["analyze", "--format", "jsonl"] + modelArguments + [wav])
        #expect(r.status == 0)
        var lastT = -1.0
        var frames = 0
        var events: [String] = []
        for line in r.stdout.split(separator: "\n") {
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let t = try #require(obj["t"] as? Double)
            #expect(t >= lastT - 1e-9)
            lastT = t
            if let e = obj["event"] as? String {
                events.append(e)
            } else {
                #expect(abs(t - Double(frames) * 0.01) < 1e-6)
                #expect(obj["level_db"] is Double && obj["prob"] is Double && obj["speech"] is Bool)
                frames += 1
            }
        }
        #expect(frames == 450)
        #expect(events.contains("speech_started") && events.contains("speech_ended"))
    }

    @Test("text gives a timeline and a summary; json one object per file; --plot an SVG")
    func textJsonPlot() throws {
        let dir = tempDir()
        let wav = writeWAV(dir, "speech.wav", speechWAV)
        let text = try miccheck(["analyze", wav, "--plot", dir.appendingPathComponent("p.svg").path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("speech started") && text.stdout.contains("summary: speech"))
        let svg = try String(contentsOf: dir.appendingPathComponent("p.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("<path") && svg.contains("speech_started"))
        let json = try miccheck(["analyze", "--format", "json", wav, wav])
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(obj["microphone"] as? String == "works")
        #expect((obj["duration_s"] as? Double).map { abs($0 - 4.5) < 0.02 } == true)
    }

    @Test("bad files: one sentence each on stderr naming the file, the right status, the good file still analysed")
    func badFiles() throws {
        let dir = tempDir()
        let good = writeWAV(dir, "good.wav", speechWAV)
        var nan = Signals.sine(frequency: 300, rmsDB: -20, seconds: 0.5, sampleRate: 16_000)
        nan[4_000] = .nan
        let cases: [(String, [UInt8], String)] = [
            ("empty.wav", [], "empty"),
            ("truncated.wav", Array(speechWAV[0..<30]), "header"),
            ("text.wav", Array("just some text, not audio".utf8), "not a WAV"),
            ("mulaw.wav", WAVWriter.header(formatTag: 7, channels: 1, sampleRate: 8_000, bitsPerSample: 8), "µ-law"),
            (
                "adpcm.wav",
                WAVWriter.header(formatTag: 0x11, channels: 1, sampleRate: 8_000, bitsPerSample: 4, blockAlign: 256),
                "ADPCM"
            ),
            (
                "nochannels.wav",
                WAVWriter.header(formatTag: 1, channels: 0, sampleRate: 16_000, bitsPerSample: 16, blockAlign: 2),
                "zero channels"
            ),
            (
                "rate.wav", WAVWriter.header(formatTag: 1, channels: 1, sampleRate: 3_000_000, bitsPerSample: 16),
                "sample rate"
            ),
            (
                "nan.wav", WAVWriter.file(interleaved: nan, sampleRate: 16_000, channels: 1, encoding: .float32),
                "not a finite number"
            ),
        ]
        for (name, bytes, words) in cases {
            let path = writeWAV(dir, name, bytes)
            let r = try miccheck(["analyze", "--format", "json", path, good])
            #expect(r.status == 65, "\(name): status \(r.status)")
            let errLines = r.stderr.split(separator: "\n")
            #expect(
                errLines.count == 1 && errLines[0].contains(name) && errLines[0].contains(words), "\(name): \(r.stderr)"
            )
            #expect(r.stdout.contains("good.wav"), "\(name): the good file was not analysed")
        }
        let missing = try miccheck(["analyze", dir.appendingPathComponent("nope.wav").path, good])
        #expect(missing.status == 66 && missing.stderr.contains("no such file"))
        let directory = try miccheck(["analyze", dir.path])
        #expect(directory.status == 66 && directory.stderr.contains("directory"))
    }

    @Test(
        "bad arguments exit 64",
        arguments: [
            ["analyze"], ["analyze", "--format", "xml", "a.wav"], ["analyze", "--start-threshold", "2", "a.wav"],
            ["analyze", "--frame-threshold", "-0.1", "a.wav"], ["analyze", "--frame-hold", "61", "a.wav"],
            ["analyze", "--end-threshold", "0.9", "a.wav"],
            ["analyze", "--start-threshold", "0.5", "--end-threshold", "0.6", "a.wav"],
        ])
    func usage(args: [String]) throws {
        let r = try miccheck(args)
        #expect(r.status == 64)
        #expect(!r.stderr.isEmpty)
    }

    @Test("a negative level is a value, not an option: --min-speech-level -20 is --min-speech-level=-20")
    func negativeLevel() throws {
        let spaced = try miccheck(["analyze", "--sample", "--format", "jsonl", "--min-speech-level", "-20"])
        let joined = try miccheck(["analyze", "--sample", "--format", "jsonl", "--min-speech-level=-20"])
        let plain = try miccheck(["analyze", "--sample", "--format", "jsonl"])
        #expect(spaced.status == 0, "\(spaced.stderr)")
        #expect(spaced.stdout == joined.stdout && !spaced.stdout.isEmpty)
        #expect(spaced.stdout != plain.stdout, "the limit changes nothing on the sample: pick a level that does")
        #expect(try miccheck(["analyze", "--help"]).stdout.contains("(dBFS, e.g. -45)"))
    }

    @Test("the overview lists every command a user runs (duck-guard, which listen starts, is left out)")
    func overview() throws {
        let help = try miccheck(["--help"]).stdout
        for command in ["analyze", "listen", "mic-test", "devices", "lobby", "serve", "token", "process", "features"] {
            #expect(help.contains("\n  \(command) "), "\(command) is missing from miccheck --help")
        }
        #expect(!help.contains("duck-guard"))
    }

    @Test("a start threshold below the default end threshold is accepted alone: the end threshold follows it down")
    func lowStartThreshold() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = writeWAV(dir, "speech.wav", speechWAV)
        let r = try miccheck(["analyze", "--format", "jsonl", "--start-threshold", "0.4", wav])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"speech_started\""))
    }

    @Test(
        "--model: the bundled model's own file gives the same output; a model for other features, a non-model and a missing file are refused"
    )
    func modelOption() throws {
        let dir = tempDir()
        let wav = writeWAV(dir, "speech.wav", speechWAV)
        let bundled = try #require(VoiceActivityModel.bundledURL)
        let plain = try miccheck(["analyze", "--format", "jsonl", wav])
        let same = try miccheck(["analyze", "--format", "jsonl", "--model", bundled.path, wav])
        #expect(plain.status == 0 && same.status == 0)
        #expect(same.stdout == plain.stdout)

        // A well-formed model that reads two features, neither the extractor's 50 nor its core 47.
        let two = dir.appendingPathComponent("two.json")
        try Data(
            """
            {"format":"miccheck-vad","version":1,"features":2,"inputMean":[0,0],"inputScale":[1,1],
             "dense":{"inputs":2,"outputs":1,"weights":[0.5,0.5],"bias":[0]},
             "gru":{"inputs":1,"hidden":1,"inputWeights":[0.3,0.3,0.3],"recurrentWeights":[0.2,0.2,0.2],
                    "inputBias":[0,0,0],"recurrentBias":[0,0,0]},
             "output":{"inputs":1,"outputs":1,"weights":[1],"bias":[0]}}
            """.utf8
        ).write(to: two)
        let wrong = try miccheck(["analyze", "--model", two.path, wav])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("reads 2 features"), "\(wrong.stderr)")
        #expect(wrong.stdout.isEmpty)

        let notModel = try miccheck(["analyze", "--model", wav, wav])
        #expect(notModel.status == 65)
        #expect(notModel.stderr.contains("not a MicCheck voice activity model"), "\(notModel.stderr)")

        let missing = try miccheck(["analyze", "--model", dir.appendingPathComponent("none.json").path, wav])
        #expect(missing.status == 66)
        #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
    }

    @Test("the bundled sample: speech found, microphone works")
    func sample() throws {
        let r = try miccheck(["analyze", "--sample"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("speech started") && r.stdout.contains("the microphone works"))
    }

    @Test("--detector level follows the cookbook rule: it fires on typing, the voice detector does not")
    func levelDetector() throws {
        let dir = tempDir()
        var clicks = [Float](repeating: 0, count: 48_000)
        var g = SeededGenerator(seed: 5)
        for start in stride(from: 1_000, to: 46_000, by: 2_400) {
            for i in 0..<300 {
                clicks[start + i] = Float(
                    Double(Int64(bitPattern: g.next() % 2000) - 1000) / 1000 * 0.3 * exp(-Double(i) / 40))
            }
        }
        let wav = writeWAV(
            dir, "typing.wav",
            WAVWriter.file(interleaved: clicks, sampleRate: 16_000, channels: 1, encoding: .signedInt16))
        let level = try miccheck(["analyze", "--format", "jsonl", "--detector", "level", wav])
        let vad = try miccheck(["analyze", "--format", "jsonl", wav])
        let count = { (s: String) in s.components(separatedBy: "\"speech_started\"").count - 1 }
        #expect(count(level.stdout) >= 10)
        #expect(count(vad.stdout) <= 1)
    }

    @Test(
        "warnings: clipped speech gives one clipping record in jsonl, a counter in json and lines in the text timeline and summary"
    )
    func clippingWarning() throws {
        let rate = 16_000
        let v = Signals.voice(rmsDB: -20, seconds: 5, sampleRate: rate)
        let scale = 2 / (v.map(abs).max() ?? 1)
        let x = v.map { min(1, max(-1, $0 * scale)) }
        let wav = writeWAV(
            tempDir(), "clipped.wav",
            WAVWriter.file(interleaved: x, sampleRate: rate, channels: 1, encoding: .signedInt16))
        let jsonl = try miccheck(["analyze", "--format", "jsonl", wav])
        #expect(jsonl.status == 0)
        let records = jsonl.stdout.split(separator: "\n").filter { $0.contains("\"event\": \"clipping\"") }
        #expect(records.count == 1)
        let record = try records.first.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect((record?["ceiling_db"] as? Double).map { abs($0) < 0.2 } == true, "\(String(describing: record))")
        #expect((record?["clipped_percent"] as? Double).map { $0 > 0 } == true)
        let json = try miccheck(["analyze", "--format", "json", wav])
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(
            summary?["clipping"] as? Int == 1 && summary?["noisy_microphone"] as? Int == 0
                && summary?["speech_too_quiet"] as? Int == 0)
        let text = try miccheck(["analyze", wav])
        #expect(text.stdout.contains("clipping: Your microphone is too loud and distorts"))
        #expect(text.stdout.contains("warnings: clipping 1×"))
    }
}

#if os(Linux)
    /// The resident memory of process `pid`, from /proc (nil once it has gone).
    func residentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kib * 1_024
    }

    @Suite(
        "miccheck analyze on a long file", .enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/sox")),
        .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
    struct LongFileTests {
        // Under AddressSanitizer freed memory waits in a quarantine (256 MB) and every byte has a shadow: the
        // resident size then says nothing about the analysis (scripts/test.sh exports MICCHECK_SANITIZE).
        @Test(
            "memory stays flat over 30 minutes of 48 kHz audio streamed through a pipe, in its own process",
            .disabled(
                if: !(ProcessInfo.processInfo.environment["MICCHECK_SANITIZE"] ?? "").isEmpty,
                "resident memory is the sanitizer's"))
        func flatMemory() throws {
            let dir = tempDir()
            defer { try? FileManager.default.removeItem(at: dir) }
            // sox writes the audio into a named pipe as fast as the analysis reads it: half an hour of audio
            // (several seconds of analysis, however fast the build) and nothing on disk.
            let path = dir.appendingPathComponent("long.wav").path
            try #require(mkfifo(path, 0o600) == 0)
            let sox = Process()
            sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
            sox.arguments = [
                "-n", "-r", "48000", "-c", "1", "-b", "16", "-t", "wav", path,
                "synth", "1800", "pinknoise", "vol", "0.1",
            ]
            // Its warning that a pipe's header cannot be rewritten, and miccheck's that the header's length
            // (sox's guess) is more than the pipe held.
            sox.standardError = FileHandle.nullDevice
            try sox.run()
            defer { if sox.isRunning { sox.terminate() } }
            let p = Process()
            p.executableURL = binary
            p.arguments = ["analyze", "--format", "json", path]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            let started = Date()
            var early: Int?
            var peak = 0
            while p.isRunning {
                if let rss = residentBytes(of: p.processIdentifier) {
                    // The first second builds the tables and buffers; growth is measured after it.
                    if Date().timeIntervalSince(started) >= 1 { early = early ?? rss }
                    peak = max(peak, rss)
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            p.waitUntilExit()
            sox.waitUntilExit()
            #expect(p.terminationStatus == 0)
            #expect(sox.terminationStatus == 0)
            let baseline = try #require(early, "the analysis finished within a second; nothing to compare")
            #expect(
                peak - baseline < 4 << 20, "resident memory grew by \(peak - baseline) bytes after the first second")
        }
    }
#endif
