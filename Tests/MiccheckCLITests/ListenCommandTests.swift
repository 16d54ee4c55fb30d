#if os(Linux)
    import Foundation
    import MicCheck
    import MicCheckTesting
    import Testing

    /// A corpus speech file cut to its first `seconds`, written as a 16 kHz WAV for playing into the
    /// virtual microphone (nil when ../shared/corpus is not beside the repository).
    func corpusExcerpt(seconds: Double, in dir: URL) throws -> String? {
        let source = CorpusAudio.directory + "/clean_01_asterisk-en-allison.wav"
        guard FileManager.default.fileExists(atPath: source) else { return nil }
        let reader = try WAVReader(path: source)
        var samples = [Float](repeating: 0, count: Int(seconds * Double(reader.format.sampleRate)))
        var n = 0
        while n < samples.count {
            let got = try samples.withUnsafeMutableBufferPointer {
                try reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[n...]))
            }
            if got == 0 { break }
            n += got
        }
        let path = dir.appendingPathComponent("excerpt.wav").path
        let bytes = WAVWriter.file(
            interleaved: Array(samples[0..<n]), sampleRate: reader.format.sampleRate, channels: 1,
            encoding: .signedInt16)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// Energy-averaged level (dB) of frame levels.
    func meanLevel(_ levels: [Double]) -> Double {
        10 * log10(levels.map { pow(10, $0 / 10) }.reduce(0, +) / Double(max(1, levels.count)))
    }

    func percentile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? -160 : s[min(s.count - 1, Int(Double(s.count - 1) * p))]
    }

    @Suite(
        "miccheck listen and devices, against a private PulseAudio server", .serialized, .tags(.live),
        .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
    struct ListenCommandTests {
        @Test("devices lists the server's sources, the default marked, in text and JSON")
        func devices() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let text = try miccheck(["devices", "--server", server.address])
            #expect(text.status == 0)
            #expect(text.stdout.contains("* virtmic"))
            #expect(text.stdout.contains("VirtualMic"))
            #expect(text.stdout.contains("speaker.monitor") && text.stdout.contains("monitor of an output"))

            try server.pactl(["set-source-mute", "virtmic", "1"])
            let json = try miccheck(["devices", "--format", "json", "--server", server.address])
            #expect(json.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["default_source"] as? String == "virtmic")
            let sources = try #require(object["sources"] as? [[String: Any]])
            let mic = try #require(sources.first { $0["name"] as? String == "virtmic" })
            #expect(mic["default"] as? Bool == true)
            #expect(mic["muted"] as? Bool == true)
            #expect(mic["monitor"] as? Bool == false)
            #expect((mic["sample_rate"] as? Int ?? 0) > 0)
            #expect(sources.contains { $0["monitor"] as? Bool == true })
        }

        @Test("with no server, devices and listen exit 69 with a hint", arguments: [["devices"], ["listen"]])
        func noServer(_ command: [String]) throws {
            let r = try miccheck(command + ["--server", "unix:/nonexistent/miccheck/native"])
            #expect(r.status == 69)
            #expect(r.stderr.contains("no PulseAudio server is running"))
            #expect(r.stderr.contains("--sample"))
            #expect(r.stderr.split(separator: "\n").count == 1)
            #expect(r.stdout.isEmpty)
        }

        @Test("a server that refuses this client: exit 77, naming what refused")
        func accessRefused() throws {
            let server = try PrivatePulseServer(requiresCookie: true)
            defer { server.stop() }
            let cookie = tempDir().appendingPathComponent("wrong-cookie")
            _ = FileManager.default.createFile(
                atPath: cookie.path, contents: Data((0..<256).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
            var env = server.environment
            env["PULSE_COOKIE"] = cookie.path
            let p = try LiveProcess(["listen", "--duration", "1", "--server", server.tcpAddress], environment: env)
            #expect(p.finish(timeout: 10) == 77)
            #expect(p.stderr.contains("refused access"))
            #expect(p.stderr.contains("PulseAudio server"))
        }

        @Test("a source that is not there: exit 66, naming the sources there are")
        func unknownSource() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let r = try miccheck(["listen", "--server", server.address, "--source", "no-such-mic", "--duration", "1"])
            #expect(r.status == 66)
            #expect(r.stderr.contains("no source named \"no-such-mic\""))
            #expect(r.stderr.contains("virtmic"))
        }

        @Test("speech played into the microphone: speech_started arrives, levels match the file's within 1 dB")
        func speechAndLevels() throws {
            let dir = tempDir()
            guard let wav = try corpusExcerpt(seconds: 5, in: dir) else { return }
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let p = try LiveProcess(
                ["listen", "--format", "jsonl", "--duration", "7"], environment: server.environment)
            #expect(p.wait(timeout: 5) { p.lastFrameTime != nil })
            try server.play(wav)
            #expect(p.finish(timeout: 20) == 0)

            let offline = try miccheck(["analyze", "--format", "jsonl", wav])
            let offRecords = offline.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let offLevels = offRecords.compactMap { $0["event"] == nil ? $0["level_db"] as? Double : nil }
            let liveLevels = p.records.compactMap { $0["event"] == nil ? $0["level_db"] as? Double : nil }
            #expect(offLevels.count == 500)
            #expect(liveLevels.count == 700)
            #expect(!p.events("speech_started").isEmpty, "\(p.records.filter { $0["event"] != nil })")
            // The played file lies inside the capture; silence around it adds no energy.
            let liveEnergy = meanLevel(liveLevels) + 10 * log10(Double(liveLevels.count) / Double(offLevels.count))
            #expect(
                abs(liveEnergy - meanLevel(offLevels)) < 1, "live \(liveEnergy) dB, file \(meanLevel(offLevels)) dB")
            let live = liveLevels.filter { $0 > -100 }
            #expect(abs(percentile(live, 0.95) - percentile(offLevels, 0.95)) < 1)
            // Time in order, a record every 10 ms.
            let times = p.records.compactMap { $0["event"] == nil ? $0["t"] as? Double : nil }
            #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.01) < 0.001 })
        }

        @Test("a muted source raises microphone_silent within 2 s; unmuted, microphone_active")
        func mutedSource() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            // A steady tone made inside the server (module-sine into the microphone's sink): a player
            // process starved on a loaded machine lets the sink fill a gap with zeros, and a gap bounded by
            // sound is a gated source's, whose silence rightly waits 10 s.
            _ = try server.pactl(["load-module", "module-sine", "sink=micsink", "frequency=300"])
            let p = try LiveProcess(
                ["listen", "--format", "jsonl", "--duration", "9"], environment: server.environment)
            #expect(p.wait(timeout: 5) { (p.lastFrameTime ?? 0) > 1.5 })
            #expect(p.events("microphone_silent").isEmpty)
            try server.pactl(["set-source-mute", "virtmic", "1"])
            let mutedAt = try #require(p.lastFrameTime)
            #expect(p.wait(timeout: 4) { !p.events("microphone_silent").isEmpty })
            try server.pactl(["set-source-mute", "virtmic", "0"])
            #expect(p.wait(timeout: 4) { !p.events("microphone_active").isEmpty })
            #expect(p.finish(timeout: 15) == 0)
            let silent = try #require(p.events("microphone_silent").first)
            #expect(silent["reason"] as? String == "digital_silence")
            let t = try #require(silent["t"] as? Double)
            #expect(t - mutedAt <= 2.0, "silent at \(t) s, muted at \(mutedAt) s")
        }

        @Test("the server dies mid-capture and comes back: listen reconnects and resumes, t keeps counting")
        func serverRestart() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let p = try LiveProcess(
                ["listen", "--format", "jsonl", "--duration", "6", "--reconnect", "10"],
                environment: server.environment)
            #expect(p.wait(timeout: 5) { (p.lastFrameTime ?? 0) > 1 })
            server.kill()
            #expect(p.wait(timeout: 5) { p.stderr.contains("went away") })
            Thread.sleep(forTimeInterval: 0.5)  // the server stays away a while
            try server.start()
            #expect(p.wait(timeout: 10) { p.stderr.contains("reconnected") })
            #expect(p.finish(timeout: 15) == 0)
            let times = p.records.compactMap { $0["event"] == nil ? $0["t"] as? Double : nil }
            let gaps = zip(times, times.dropFirst()).filter { $1 - $0 > 0.015 }
            #expect(gaps.count == 1, "one gap where the server was away")
            if let gap = gaps.first { #expect(gap.1 - gap.0 >= 0.5) }
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
            #expect((times.last ?? 0) > 5.9)
        }

        @Test("the server stays away: listen gives up after --reconnect seconds with exit 69 and a summary")
        func serverGone() throws {
            let server = try PrivatePulseServer()
            let p = try LiveProcess(
                ["listen", "--duration", "30", "--reconnect", "1"], environment: server.environment)
            #expect(p.wait(timeout: 5) { p.stderr.contains("listening to") })
            server.stop()
            #expect(p.finish(timeout: 10) == 69)
            #expect(p.stderr.contains("did not come back within 1 s"))
            #expect(p.lines.contains { $0.contains("summary:") })
        }

        @Test("the source disappears: listen falls back to the default source and says so")
        func sourceDisappears() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let p = try LiveProcess(
                ["listen", "--format", "jsonl", "--source", "virtmic", "--duration", "3"],
                environment: server.environment)
            #expect(p.wait(timeout: 5) { (p.lastFrameTime ?? 0) > 0.5 })
            try server.pactl(["unload-module", "module-remap-source"])
            #expect(p.finish(timeout: 10) == 0, "\(p.stderr)")
            #expect(p.stderr.contains("the source virtmic disappeared; listening to the default source"))
            #expect((p.lastFrameTime ?? 0) > 2.9)
        }

        @Test("SIGINT and SIGTERM end listen cleanly with a summary", arguments: [SIGINT, SIGTERM])
        func signals(_ sig: Int32) throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let p = try LiveProcess(["listen"], environment: server.environment)
            #expect(p.wait(timeout: 5) { p.stderr.contains("listening to") })
            kill(p.process.processIdentifier, sig)
            #expect(p.finish(timeout: 5) == 0)
            #expect(p.lines.contains { $0.contains("summary:") })
            #expect(p.lines.contains { $0.contains(sig == SIGINT ? "stopped by Ctrl-C" : "stopped by SIGTERM") })
        }

        @Test("--sample plays the bundled sample in real time; --muted shows \"You are muted.\" once per utterance")
        func sampleMuted() throws {
            let p = try LiveProcess(["listen", "--sample", "--muted", "--duration", "2"], environment: [:])
            #expect(p.finish(timeout: 10) == 0, "\(p.stderr)")
            let out = p.lines
            #expect(out.contains { $0.hasSuffix("speech started") })
            #expect(out.filter { $0.hasSuffix("You are muted.") }.count == 1)
            #expect(out.contains { $0.contains("\"You are muted.\" shown 1 time") })
            #expect(p.stderr.contains("the bundled sample"))
        }

        @Test(
            "listen rejects bad options with exit 64",
            arguments: [
                ["--duration", "0"], ["--duration", "nan"], ["--reconnect", "-1"], ["--sample", "--source", "x"],
                ["--format", "json"],
            ])
        func badOptions(_ args: [String]) throws {
            let r = try miccheck(["listen"] + args)
            #expect(r.status == 64)
        }
    }
#endif
