#if os(Linux)
    public import Foundation
    public import MicCheck

    /// A private PulseAudio server with a virtual microphone, for tests: it never touches the user's own
    /// server, and each instance has its own runtime folder, so tests that kill or reconfigure a server can
    /// run side by side.
    ///
    /// Devices: sinks `speaker` (the default output) and `micsink`; the default source `virtmic` remaps
    /// `micsink.monitor`, so whatever ``play(_:sink:)`` sends into `micsink` is what a client reads from the
    /// microphone. `norewinds=1` keeps captured time equal to wall time. Needs Debian's `pulseaudio` and
    /// `pulseaudio-utils` (`scripts/setup.sh` installs them); `scripts/pulse-server.sh` starts the same
    /// server from a shell.
    public final class PrivatePulseServer: @unchecked Sendable {
        // @unchecked Sendable: every stored property is a `let` of a Sendable type except `players`, which
        // is guarded by `lock`.
        /// The runtime folder (XDG_RUNTIME_DIR of the server and its clients).
        public let directory: URL
        /// Whether the server also listens on TCP (``tcpAddress``) and requires the server's cookie there
        /// (the Unix socket always admits clients of the same user, whatever their cookie).
        public let requiresCookie: Bool
        /// The TCP port of a cookie-checking server.
        public let tcpPort: Int
        private let lock = NSLock()
        private var players: [Process] = []

        /// The TCP address of a cookie-checking server ("tcp:127.0.0.1:PORT").
        public var tcpAddress: String { "tcp:127.0.0.1:\(tcpPort)" }

        /// The address a client passes as its server ("unix:/…/pulse/native").
        public var address: String { "unix:" + directory.appendingPathComponent("pulse/native").path }

        /// The environment a client process needs (this process's environment with the server's folders).
        public var environment: [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["XDG_RUNTIME_DIR"] = directory.path
            env["PULSE_RUNTIME_PATH"] = directory.appendingPathComponent("pulse").path
            env.removeValue(forKey: "PULSE_SERVER")
            return env
        }

        /// Starts a server in a new folder under the temporary directory.
        /// - Parameter requiresCookie: also listen on ``tcpAddress``, refusing clients there that lack the
        ///   server's own cookie (to test refusals).
        public init(requiresCookie: Bool = false) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "miccheck-pa-\(UUID().uuidString.prefix(8))")
            self.requiresCookie = requiresCookie
            tcpPort = Int.random(in: 20_000..<60_000)
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try start()
        }

        /// Stops the daemon and removes its folder.
        deinit {
            stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// Starts the daemon (again) in ``directory`` and waits until it answers.
        public func start() throws {
            var args = [
                "--daemonize=yes", "--exit-idle-time=-1", "-n", "--use-pid-file=yes", "--system=no",
                "--log-target=file:\(directory.path)/pa.log", "--log-level=info",
                "--load=module-native-protocol-unix auth-anonymous=1",
                "--load=module-null-sink sink_name=speaker norewinds=1 sink_properties=device.description=Speaker",
                "--load=module-null-sink sink_name=micsink norewinds=1 sink_properties=device.description=MicFeed",
                "--load=module-remap-source master=micsink.monitor source_name=virtmic source_properties=device.description=VirtualMic",
                "--load=module-always-sink",
            ]
            if requiresCookie {
                args.append(
                    "--load=module-native-protocol-tcp port=\(tcpPort) listen=127.0.0.1 auth-anonymous=0 "
                        + "auth-cookie-enabled=1 auth-cookie=\(directory.path)/server-cookie")
            }
            let status = try Self.run("pulseaudio", args, environment: environment).status
            guard status == 0 else {
                throw ServerError("pulseaudio exited with status \(status); see \(directory.path)/pa.log")
            }
            for _ in 0..<100 {
                if (try? pactl(["info"])) != nil { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            _ = try pactl(["set-default-sink", "speaker"])
            _ = try pactl(["set-default-source", "virtmic"])
        }

        /// The daemon's process id, while it runs.
        public var pid: Int32? {
            guard let s = try? String(contentsOf: directory.appendingPathComponent("pulse/pid"), encoding: .utf8) else {
                return nil
            }
            return Int32(s.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        /// Kills the daemon at once (SIGKILL), as a crash would, and waits until it is gone.
        public func kill() {
            guard let pid else { return }
            _ = Glibc.kill(pid, SIGKILL)
            Self.waitUntilGone(pid)
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("pulse/pid"))
        }

        /// Stops players and the daemon.
        public func stop() {
            lock.withLock {
                for player in players where player.isRunning { player.terminate() }
                players.removeAll()
            }
            guard let pid else { return }
            _ = Glibc.kill(pid, SIGTERM)
            Self.waitUntilGone(pid)
            if Glibc.kill(pid, 0) == 0 { _ = Glibc.kill(pid, SIGKILL) }
        }

        /// Polls until process `pid` has gone, for at most 2 s.
        private static func waitUntilGone(_ pid: Int32) {
            for _ in 0..<100 where Glibc.kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.02) }
        }

        /// Runs `pactl` against this server and returns what it printed.
        @discardableResult
        public func pactl(_ args: [String]) throws -> String {
            let r = try Self.run("pactl", args, environment: environment)
            guard r.status == 0 else { throw ServerError("pactl \(args.joined(separator: " ")) failed: \(r.output)") }
            return r.output
        }

        /// Writes mono `samples` at `sampleRate` as a 16-bit WAV file named `name` in the server's folder (removed
        /// with the server), and returns its path, for ``play(_:sink:)``.
        public func writeWAV(_ samples: [Float], sampleRate: Int, named name: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            let bytes = WAVWriter.file(
                interleaved: samples, sampleRate: sampleRate, channels: 1, encoding: .signedInt16)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// Starts playing the WAV file at `path` into `sink` (default `micsink`: the virtual microphone).
        @discardableResult
        public func play(_ path: String, sink: String = "micsink") throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
            p.arguments = ["-d", sink, path]
            p.environment = environment
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            lock.withLock { players.append(p) }
            return p
        }

        /// Why the server could not start, or a command for it failed.
        public struct ServerError: MicCheckError {
            /// What went wrong, as one sentence.
            public var description: String
            init(_ d: String) { description = d }
        }

        private static func run(
            _ tool: String, _ args: [String], environment: [String: String]
        ) throws -> (status: Int32, output: String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
            guard FileManager.default.isExecutableFile(atPath: p.executableURL?.path ?? "") else {
                throw ServerError("\(tool) is not installed (run scripts/setup.sh)")
            }
            p.arguments = args
            p.environment = environment
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
#endif
