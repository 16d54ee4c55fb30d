#if os(Linux)
    import Foundation
    import MicCheck
    import MicCheckTesting
    import Testing

    /// Files for `process`: a far-end voice, its echo through a 40 ms, -10 dB path over a -70 dBFS floor,
    /// and the echo with a second voice talking over it. 10 s at 16 kHz.
    struct EchoFiles {
        let dir = tempDir()
        let far: [Float]
        let echo: [Float]
        let talker: [Float]

        init() throws {
            let far = try #require(try CorpusAudio.mono("clean_01_asterisk-en-allison", seconds: 10))
            let talker = try #require(try CorpusAudio.mono("clean_00_hedgewars-British", seconds: 10))
            let count = min(far.count, talker.count)
            self.far = Array(far[0..<count])
            self.talker = Array(talker[0..<count])
            let floor = Signals.whiteNoise(rmsDB: -70, seconds: Double(count) / 16_000, sampleRate: 16_000)
            echo = zip(CorpusAudio.echo(of: self.far, delaySeconds: 0.04, gainDB: -10, sampleRate: 16_000), floor).map {
                $0 + $1
            }
        }

        func write(_ name: String, _ samples: [Float]) -> String {
            writeWAV(
                dir, name, WAVWriter.file(interleaved: samples, sampleRate: 16_000, channels: 1, encoding: .signedInt16)
            )
        }

        func read(_ path: String) throws -> [Float] { try CorpusAudio.readMono(path: path, sampleRate: 16_000) }
    }

    @Suite(
        "miccheck process", .enabled(if: CorpusAudio.isPresent, "needs ../shared/corpus"),
        .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
    struct ProcessCommandTests {
        @Test("echo only: at least 30 dB of echo removed after the first second")
        func echoOnly() throws {
            let files = try EchoFiles()
            let far = files.write("far.wav", files.far)
            let near = files.write("near.wav", files.echo)
            let out = files.dir.appendingPathComponent("out.wav").path
            let r = try miccheck(["process", "--near", near, "--far", far, "--out", out, "--aec", "--ns", "moderate"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("echo return loss enhancement"))
            let processed = try files.read(out)
            #expect(abs(processed.count - files.echo.count) <= 1)
            let erle = Signals.rmsDB(files.echo[16_000..<processed.count]) - Signals.rmsDB(processed[16_000...])
            #expect(erle >= 30, "ERLE \(erle) dB")
        }

        @Test(
            "the report gives the echo's figures once the canceller has them, and says why when it has not")
        func echoFigures() throws {
            let files = try EchoFiles()
            let far = files.write("far.wav", files.far)
            let out = files.dir.appendingPathComponent("out.wav").path
            func report(_ near: [Float]) throws -> [String: Any] {
                let r = try miccheck([
                    "process", "--near", files.write("near.wav", near), "--far", far, "--out", out, "--aec",
                    "--format", "json",
                ])
                #expect(r.status == 0, "\(r.stderr)")
                return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            }
            // The whole echo: every figure, no note.
            let whole = try report(files.echo)
            #expect((whole["erle_db"] as? Double).map { $0 > 20 } == true, "\(whole)")
            #expect(whole["delay_ms"] as? Int == 40, "\(whole)")
            #expect(whole["echo_note"] is NSNull, "\(whole)")
            // 3 s: too short for the canceller's averages; the note says so, and the delay is still there.
            let short = try report(Array(files.echo.prefix(3 * 16_000)))
            #expect(short["erle_db"] is NSNull, "\(short)")
            #expect(short["delay_ms"] as? Int == 40, "\(short)")
            #expect(
                (short["echo_note"] as? String)?.contains("after about 4 s of the far end; this one has 3.00 s")
                    == true,
                "\(short)")
            // jsonl is not offered, and refused as any other value.
            let help = try miccheck(["process", "--help"])
            #expect(help.stdout.contains("(values: text, json;"), "\(help.stdout)")
            #expect(try miccheck(["process", "--near", far, "--out", out, "--format", "jsonl"]).status == 64)
        }

        @Test("double talk: the near-end talker loses at most 3 dB")
        func doubleTalk() throws {
            let files = try EchoFiles()
            let near = files.write("near.wav", zip(files.echo, files.talker).map { $0 + $1 })
            let far = files.write("far.wav", files.far)
            let out = files.dir.appendingPathComponent("out.wav").path
            let r = try miccheck([
                "process", "--near", near, "--far", far, "--out", out, "--aec", "--ns", "moderate",
                "--format", "json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            #expect(report?["aec"] as? String == "moderate" && report?["sample_rate"] as? Int == 16_000)
            let processed = try files.read(out)
            let drop = Signals.rmsDB(files.talker[16_000..<processed.count]) - Signals.rmsDB(processed[16_000...])
            #expect(drop <= 3, "the talker dropped \(drop) dB")
        }

        @Test("without --aec the echo stays; 44.1 kHz stereo comes out at 48 kHz mono")
        func noCancellerAndRates() throws {
            let files = try EchoFiles()
            let stereo = CorpusAudio.resample(files.echo, from: 16_000, to: 44_100).flatMap { [$0, $0] }
            let near = writeWAV(
                files.dir, "near44.wav",
                WAVWriter.file(
                    interleaved: stereo, sampleRate: 44_100, channels: 2,
                    encoding: .float32))
            let out = files.dir.appendingPathComponent("out.wav").path
            let r = try miccheck(["process", "--near", near, "--out", out, "--format", "json"])
            #expect(r.status == 0, "\(r.stderr)")
            let reader = try WAVReader(path: out)
            #expect(reader.format.sampleRate == 48_000 && reader.format.channels == 1)
            let processed = try files.read(out)
            let kept =
                Signals.rmsDB(processed[16_000...])
                - Signals.rmsDB(files.echo[16_000..<min(processed.count, files.echo.count)])
            #expect(abs(kept) <= 1, "the high-pass filter alone changed the level by \(kept) dB")
        }

        @Test("bad input: one sentence naming the file, the status analyze gives, and no output file")
        func badInput() throws {
            let files = try EchoFiles()
            let near = files.write("near.wav", files.echo)
            let garbage = writeWAV(files.dir, "text.wav", Array("just some text, not audio".utf8))
            let out = files.dir.appendingPathComponent("out.wav").path
            let cases: [([String], Int32, String)] = [
                (["--near", files.dir.appendingPathComponent("missing.wav").path, "--out", out], 66, "no such file"),
                (["--near", garbage, "--out", out], 65, "not a WAV"),
                (["--near", near, "--far", garbage, "--out", out, "--aec"], 65, "not a WAV"),
                (
                    ["--near", near, "--out", files.dir.appendingPathComponent("no/such/folder.wav").path], 1,
                    "cannot be written"
                ),
            ]
            for (args, status, words) in cases {
                let r = try miccheck(["process"] + args)
                let lines = r.stderr.split(separator: "\n")
                #expect(
                    r.status == status && lines.count == 1 && lines[0].contains(words),
                    "\(args): \(r.status) \(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: files.dir.path).filter {
                $0.hasSuffix(".partial")
            }
            #expect(leftovers.isEmpty)
        }

        @Test(
            "bad arguments: exit 64",
            arguments: [
                ["--near", "a.wav", "--out", "b.wav", "--aec"],
                ["--near", "a.wav", "--out", "a.wav"],
                ["--near", "a.wav", "--out", "b.wav", "--agc", "adaptive-analog"],
                ["--near", "a.wav", "--out", "b.wav", "--ns", "extreme"],
                ["--near", "a.wav", "--out", "b.wav", "--agc-target", "40"],
                ["--near", "a.wav"],
            ])
        func badArguments(args: [String]) throws {
            let r = try miccheck(["process"] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
        }
    }
#endif
