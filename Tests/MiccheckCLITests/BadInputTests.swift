import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// Every command given what it should refuse: malformed option values, missing and unreadable paths,
/// directories, devices, FIFOs, damaged files, outputs that cannot be written. Each answer is one sentence
/// on stderr with the documented status, never a crash, and no output file left behind. Guides/BadInput.md
/// is this table in words.
@Suite(
    "bad input everywhere",
    .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
struct BadInputTests {
    /// One row: the arguments (`{name}` is a fixture's path), the status, words the sentence holds.
    struct Row: Sendable, CustomTestStringConvertible {
        var args: [String]
        var status: Int32
        var words: String
        /// Sentences from miccheck on stderr: one, or one a file when several fail.
        var sentences = 1
        var testDescription: String { args.joined(separator: " ") }
        init(_ args: [String], _ status: Int32, _ words: String, sentences: Int = 1) {
            (self.args, self.status, self.words, self.sentences) = (args, status, words, sentences)
        }
    }

    /// The fixtures, made fresh for each row: `{wav}` speech, `{cut}` a WAV cut short, `{text}`, `{empty}`,
    /// `{dir}`, `{fifo}` (no writer), `{missing}`, `{model}` JSON that is not a model, `{out}` (must never appear).
    struct Fixtures {
        let dir = tempDir()
        var paths: [String: String] = [:]

        init() throws {
            let speech = WAVWriter.file(
                interleaved: Signals.voice(rmsDB: -24, seconds: 2, sampleRate: 16_000), sampleRate: 16_000,
                channels: 1, encoding: .signedInt16)
            paths["wav"] = writeWAV(dir, "speech.wav", speech)
            paths["cut"] = writeWAV(dir, "cut.wav", Array(speech.prefix(44 + 3_200)))
            paths["text"] = writeWAV(dir, "text.wav", Array("just some text, not audio\n".utf8))
            paths["empty"] = writeWAV(dir, "empty.wav", [])
            paths["model"] = writeWAV(dir, "model.json", Array(#"{"format": "miccheck-vad", "version": 1}"#.utf8))
            let folder = dir.appendingPathComponent("folder.wav")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            paths["dir"] = folder.path
            paths["fifo"] = dir.appendingPathComponent("fifo.wav").path
            #expect(mkfifo(paths["fifo"] ?? "", 0o600) == 0)
            paths["missing"] = dir.appendingPathComponent("missing.wav").path
            paths["out"] = dir.appendingPathComponent("out.wav").path
        }

        func fill(_ args: [String]) -> [String] {
            args.map { a in paths.reduce(a) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) } }
        }
    }

    static let secret = "0123456789abcdef0123456789abcdef"

    static let rows: [Row] = [
        // Audio inputs
        Row(["analyze", "{missing}"], 66, "no such file"),
        Row(["analyze", "{dir}"], 66, "is a directory"),
        Row(["analyze", "{empty}"], 65, "is empty"),
        Row(["analyze", "{text}"], 65, "not a WAV file"),
        Row(["analyze", "/dev/zero"], 65, "no RIFF header"),
        Row(["analyze", "/dev/null"], 65, "is empty"),
        Row(["analyze", "{cut}"], 0, "the file ends early"),
        Row(["analyze", "{wav}", "{missing}", "{text}"], 66, "no such file", sentences: 2),
        Row(["mic-test", "--input", "{dir}"], 66, "is a directory, not an audio file"),
        Row(["mic-test", "--input", "{text}"], 65, "not a WAV file"),
        Row(["features", "{dir}", "--output", "{out}"], 66, "is a directory, not an audio file"),
        Row(["process", "--near", "{text}", "--out", "{out}"], 65, "not a WAV file"),
        Row(["process", "--near", "{wav}", "--far", "{dir}", "--aec", "--out", "{out}"], 66, "is a directory"),
        Row(["process", "--near", "{cut}", "--out", "{out}.cut.wav"], 0, "the file ends early"),
        // Option values
        Row(["bogus"], 64, "Unexpected argument"),
        Row(["analyze"], 64, "Name at least one WAV file"),
        Row(["analyze", "--sample", "{wav}"], 64, "either --sample or files"),
        Row(["analyze", "--sample", "--hangover", "nan"], 64, "--hangover must be between"),
        Row(["analyze", "--sample", "--hangover=-1"], 64, "--hangover must be between"),
        Row(["analyze", "--sample", "--hangover", "1e400"], 64, "--hangover must be between"),
        Row(["analyze", "--sample", "--start-threshold", "2"], 64, "must be between 0 and 1"),
        Row(["analyze", "--sample", "--frame-hold", "abc"], 64, "invalid"),
        Row(["analyze", "--sample", "--min-speech-level", "10"], 64, "--min-speech-level"),
        Row(["analyze", "--sample", "--format", "xml"], 64, "invalid"),
        Row(["analyze", "--sample", "--plot", ""], 64, "--plot needs a file name"),
        Row(["process", "--near", "{wav}", "--out", "{out}", "--aec"], 64, "--aec needs --far"),
        Row(["process", "--near", "{wav}", "--out", "{wav}"], 64, "must not be an input file"),
        Row(["process", "--near", "{wav}", "--out", "{out}", "--agc-target", "99"], 64, "--agc-target"),
        Row(["process", "--near", "{wav}", "--out", "{out}", "--ns", "extreme"], 64, "invalid"),
        Row(["listen", "--duration", "0"], 64, "--duration"),
        Row(["listen", "--reconnect", "5000"], 64, "--reconnect"),
        Row(["listen", "--source", ""], 64, "--source needs a source name"),
        Row(["listen", "--sample", "--duck-others", "max"], 64, "needs a PulseAudio server"),
        Row(["listen", "--duck-others", "loud"], 64, "invalid"),
        Row(["serve", "--port", "70000"], 64, "--port"),
        Row(["serve", "--idle-timeout=-1"], 64, "--idle-timeout"),
        Row(["serve", "--max-message-bytes", "0"], 64, "--max-message-bytes"),
        Row(["serve", "--allow-origin", "garbage"], 64, "http:// or https://"),
        Row(["serve", "--max-audio-speed", "0.5"], 64, "--max-audio-speed"),
        Row(["serve", "--max-connections", "0"], 64, "--max-connections"),
        Row(["serve", "--max-connections-per-address", "0"], 64, "--max-connections-per-address"),
        Row(["serve", "--presence-changes-per-second", "0.01"], 64, "--presence-changes-per-second"),
        Row(["serve", "--joins-per-minute=-1"], 64, "--joins-per-minute"),
        Row(["serve", "--joins-per-minute-per-address", "0.5"], 64, "--joins-per-minute-per-address"),
        Row(["serve", "--max-queued-bytes", "1000"], 64, "--max-queued-bytes"),
        Row(["serve", "--ipv6-prefix", "129"], 64, "--ipv6-prefix"),
        Row(["serve", "--ipv4-prefix", "4"], 64, "--ipv4-prefix"),
        Row(["serve", "--presence", "mysql://x"], 64, "not a PostgreSQL address"),
        Row(["serve", "--host", "0.0.0.0", "--port", "0"], 64, "MICCHECK_TOKEN_SECRET"),
        Row(["token", "--call", "c", "--name", "n"], 64, "needs MICCHECK_TOKEN_SECRET"),
        Row(["token", "--call", "c", "--name", "n", "--role", "king"], 64, "--role"),
        Row(["token", "--call", "c", "--name", "n", "--expires-in=-5"], 64, "--expires-in"),
        Row(["token", "--call", "c", "--name", "n", "--url", "ftp://x"], 64, "http:// or https://"),
        Row(["token", "--name", "n"], 64, "--call"),
        Row(["token", "--call", "c", "--name", "n\u{1B}[31m"], 64, "--name: a name without control characters"),
        Row(["token", "--vad", "--call", "c"], 64, "--vad makes a token for /v1/vad"),
        Row(["lobby", "--demo"], 64, "needs a terminal"),
        // Servers and sources that are not there
        Row(["listen", "--server", "unix:{missing}", "--duration", "1"], 69, "no PulseAudio server"),
        Row(["devices", "--server", "unix:{missing}"], 69, "no PulseAudio server"),
        Row(
            ["serve", "--host", "192.0.2.1", "--port", "0", "--insecure-open-calls"], 69,
            "192.0.2.1 is not an address of this machine"),
        // Models and call descriptions
        Row(["analyze", "--sample", "--model", "{missing}"], 66, "no such file"),
        Row(["analyze", "--sample", "--model", "{dir}"], 66, "is a directory"),
        Row(["analyze", "--sample", "--model", "{text}"], 65, "it is not JSON"),
        Row(["analyze", "--sample", "--model", "{model}"], 65, "the model has no"),
        Row(["analyze", "--sample", "--model", "/dev/zero"], 65, "larger than 16 MiB"),
        Row(["lobby", "--call", "{missing}"], 66, "no such file"),
        Row(["lobby", "--call", "{text}"], 65, "it is not JSON"),
        Row(["lobby", "--call", "{model}"], 65, "the call has no \"id\""),
        Row(["serve", "--call", "{dir}", "--port", "0"], 66, "is a directory"),
        Row(["serve", "--call", "/dev/zero", "--port", "0"], 65, "larger than 1 MiB"),
        // Outputs that cannot be written: nothing is read, nothing is left behind
        Row(["analyze", "--sample", "--plot", "{missing}/plot.svg"], 1, "no such folder"),
        Row(["analyze", "--sample", "--plot", "{dir}"], 1, "it is a directory"),
        Row(["analyze", "--sample", "--plot", "/dev/null"], 1, "it is a character device"),
        Row(["process", "--near", "{wav}", "--out", "{missing}/out.wav"], 1, "no such folder"),
        Row(["process", "--near", "{wav}", "--out", "{dir}"], 1, "it is a directory"),
        Row(["process", "--near", "{wav}", "--out", "{fifo}"], 1, "it is a FIFO"),
        Row(["process", "--near", "{wav}", "--out", "/dev/full"], 1, "it is a character device"),
        Row(["lobby", "--demo", "--events", "{dir}"], 1, "it is a directory"),
        Row(["lobby", "--demo", "--events", "{missing}/events.jsonl"], 1, "no such folder"),
    ]

    @Test("one sentence, the documented status, no crash, no output file", arguments: rows)
    func row(_ row: Row) throws {
        let fixtures = try Fixtures()
        defer { try? FileManager.default.removeItem(at: fixtures.dir) }
        var environment = ProcessInfo.processInfo.environment
        environment[JoinTokensSecret.name] = nil
        let r = try miccheck(fixtures.fill(row.args), environment: environment)
        expectAnswer(r, row.status, row.words, row.testDescription, sentences: row.sentences)
        #expect(!FileManager.default.fileExists(atPath: fixtures.paths["out"] ?? ""))
        let partial = try FileManager.default.contentsOfDirectory(atPath: fixtures.dir.path).filter {
            $0.hasSuffix(".partial")
        }
        #expect(partial.isEmpty, "left behind: \(partial)")
        // A device named as an output is never replaced by a file.
        for device in ["/dev/null", "/dev/full"] { #expect(nonRegular(device)) }
    }

    @Test(
        "an audio file's sentence is the library's, word for word, in every command that reads one",
        arguments: ["dir", "missing", "text", "empty"])
    func librarySentence(fixture: String) throws {
        let fixtures = try Fixtures()
        defer { try? FileManager.default.removeItem(at: fixtures.dir) }
        let path = fixtures.paths[fixture] ?? ""
        let library: String
        do {
            _ = try WAVReader(path: path)
            Issue.record("\(fixture) opened")
            return
        } catch {
            #expect(error.path == path)
            library = error.localizedDescription
        }
        #expect(library.hasPrefix(path + ": ") && library.hasSuffix("."), "\(library)")
        for args in [
            ["analyze", "{\(fixture)}"], ["mic-test", "--input", "{\(fixture)}"],
            ["process", "--near", "{\(fixture)}", "--out", "{out}"], ["features", "{\(fixture)}", "--output", "{out}"],
        ] {
            let r = try miccheck(fixtures.fill(args))
            #expect(r.stderr == "miccheck: \(library)\n", "\(args.joined(separator: " ")): \(r.stderr)")
        }
    }

    @Test("a secret too short for a token")
    func shortSecret() throws {
        var environment = ProcessInfo.processInfo.environment
        environment[JoinTokensSecret.name] = "short"
        let r = try miccheck(["token", "--call", "c", "--name", "n"], environment: environment)
        expectAnswer(r, 64, "needs 32 or more", "token with a 5-byte secret")
        environment[JoinTokensSecret.name] = Self.secret
        #expect(try miccheck(["token", "--call", "c", "--name", "n"], environment: environment).status == 0)
    }

    @Test("a port in use: said, with what to do")
    func portInUse() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        #expect(bound)
        let port = UInt16(bigEndian: address.sin_port)
        expectAnswer(try miccheck(["serve", "--port", "\(port)"]), 69, "the port is in use", "serve on a port in use")
    }

    @Test("a FIFO is read as a stream once a writer opens it, like a file")
    func fifoWithWriter() throws {
        let fixtures = try Fixtures()
        defer { try? FileManager.default.removeItem(at: fixtures.dir) }
        let fifo = fixtures.paths["fifo"] ?? ""
        let wav = fixtures.paths["wav"] ?? ""
        let writer = Thread {
            if let h = FileHandle(forWritingAtPath: fifo), let data = FileManager.default.contents(atPath: wav) {
                // In small pieces, as a recorder writing into a pipe would.
                for start in stride(from: 0, to: data.count, by: 4_000) {
                    h.write(data[start..<min(data.count, start + 4_000)])
                }
                try? h.close()
            }
        }
        writer.start()
        let r = try miccheck(["analyze", "--format", "json", fifo])
        let whole = try miccheck(["analyze", "--format", "json", wav])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout.replacingOccurrences(of: fifo, with: wav) == whole.stdout)
    }

    @Test("a file that shrinks while it is read: what was there is processed, and the run says the file ended early")
    func shrinkingFile() throws {
        let fixtures = try Fixtures()
        defer { try? FileManager.default.removeItem(at: fixtures.dir) }
        // 10 minutes at 48 kHz, cut to a tenth while `process` reads it (voice processing runs at about 100× real time).
        let long = fixtures.dir.appendingPathComponent("long.wav").path
        let tone = Signals.voice(rmsDB: -24, seconds: 10, sampleRate: 48_000)
        let body = WAVWriter.file(interleaved: tone, sampleRate: 48_000, channels: 1, encoding: .signedInt16)
        var bytes = WAVFileWriter.header(sampleRate: 48_000, sampleCount: tone.count * 60)
        for _ in 0..<60 { bytes += body.dropFirst(44) }
        #expect(FileManager.default.createFile(atPath: long, contents: Data(bytes)))
        let out = fixtures.paths["out"] ?? ""
        let tenth = off_t(bytes.count / 10)
        let cutter = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            _ = truncate(long, tenth)
        }
        cutter.start()
        let r = try miccheck(["process", "--near", long, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the file ends early: its header announces 600.00 s of audio"), "\(r.stderr)")
        let kept = try WAVReader(path: out).declaredFrameCount ?? 0
        #expect(kept > 0 && kept < 16_000 * 600, "\(kept) samples written")
    }

    @Test("a file that grows while it is read (a recorder that has not finished its header): read to the end as it was")
    func growingFile() throws {
        let fixtures = try Fixtures()
        defer { try? FileManager.default.removeItem(at: fixtures.dir) }
        let path = fixtures.dir.appendingPathComponent("growing.wav").path
        let second = WAVWriter.file(
            interleaved: Signals.voice(rmsDB: -24, seconds: 1, sampleRate: 16_000), sampleRate: 16_000,
            channels: 1, encoding: .signedInt16, dataSizeOverride: 0xFFFF_FFFF)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(second)))
        let grower = Thread {
            guard let h = FileHandle(forWritingAtPath: path) else { return }
            _ = try? h.seekToEnd()
            for _ in 0..<30 {
                h.write(Data(second.dropFirst(44)))
                Thread.sleep(forTimeInterval: 0.005)
            }
            try? h.close()
        }
        grower.start()
        let r = try miccheck(["analyze", "--format", "jsonl", path])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let times = r.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard !line.contains("\"event\""), let t = line.split(separator: ",").first?.split(separator: ":").last
            else { return nil }
            return Double(t.trimmingCharacters(in: .whitespaces))
        }
        #expect(times.count >= 100, "\(times.count) frames")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.01) < 1e-6 })
    }

    @Test("a full disk and a file size limit: the system's reason, status 1, no file left behind")
    func fullDisk() throws {
        let fixtures = try Fixtures()
        defer { try? FileManager.default.removeItem(at: fixtures.dir) }
        let wav = fixtures.paths["wav"] ?? ""
        // A file size limit (ulimit -f, in 512-byte blocks under sh): a 20 KiB limit, a 64 KiB output.
        let limited = try shell(
            "ulimit -f 40; exec \"$0\" process --near \"$1\" --out \"$2\"", binary.path, wav,
            fixtures.dir.appendingPathComponent("limited.wav").path)
        expectAnswer(limited, 1, "File too large", "process under ulimit -f")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixtures.dir.path).filter { $0.contains("limited") }
                .isEmpty)
        // A full disk: a 16 KiB tmpfs, where the caller may mount one (root, as CI runs).
        let disk = fixtures.dir.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        if try shell("mount -t tmpfs -o size=16k tmpfs \"$0\" 2>/dev/null", disk.path).status == 0 {
            defer { _ = try? shell("umount \"$0\"", disk.path) }
            let out = disk.appendingPathComponent("out.wav").path
            expectAnswer(
                try miccheck(["process", "--near", wav, "--out", out]), 1, "No space left on device",
                "process on a full disk")
            expectAnswer(
                try miccheck(["analyze", "--sample", "--plot", disk.appendingPathComponent("p.svg").path]), 1,
                "No space left on device", "analyze --plot on a full disk")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
        } else {
            Issue.record("tmpfs could not be mounted here (not root?): only the file size limit was tried")
        }
        // Standard output on a full disk (/dev/full): said, status 1.
        expectAnswer(
            try shell("exec \"$0\" analyze --sample --format jsonl >/dev/full", binary.path), 1,
            "the output cannot be written (No space left on device)", "stdout to /dev/full")
    }

    @Test("a file this user may not read: 66, permission denied")
    func unreadable() throws {
        let fixtures = try Fixtures()
        defer { try? FileManager.default.removeItem(at: fixtures.dir) }
        let wav = fixtures.paths["wav"] ?? ""
        #expect(chmod(wav, 0o000) == 0)
        // As root every file is readable: run as nobody, who may run the binary but not read the file.
        let asNobody =
            getuid() == 0
            ? "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" analyze \"$1\""
            : "exec \"$0\" analyze \"$1\""
        _ = chmod(fixtures.dir.path, 0o755)
        expectAnswer(
            try shell(asNobody, binary.path, wav), 66, "cannot be read (permission denied)", "an unreadable file")
    }

    private func expectAnswer(
        _ r: Run, _ status: Int32, _ words: String, _ what: String, sentences: Int = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(r.status == status, "\(what): status \(r.status), \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(words), "\(what): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(
            !r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump") && !r.stderr.contains("Sanitizer"),
            "\(what) crashed: \(r.stderr)", sourceLocation: sourceLocation)
        // One sentence from miccheck, or ArgumentParser's error with its usage lines.
        let lines = r.stderr.split(separator: "\n")
        let ours = lines.filter { $0.hasPrefix("miccheck: ") }.count
        let parser = lines.first?.hasPrefix("Error: ") ?? false
        #expect(
            parser ? ours == 0 && status == 64 : ours == sentences, "\(what): \(r.stderr)",
            sourceLocation: sourceLocation)
    }

    private func nonRegular(_ path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFCHR
    }

    /// `script` under /bin/sh with `args` as $0, $1, …, without a token secret.
    private func shell(_ script: String, _ args: String...) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment[JoinTokensSecret.name] = nil
        return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script] + args, environment: environment)
    }
}

/// The environment variable `token` and `serve` read the secret from.
enum JoinTokensSecret { static let name = "MICCHECK_TOKEN_SECRET" }
