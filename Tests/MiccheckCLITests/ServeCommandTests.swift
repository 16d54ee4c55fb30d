#if os(Linux)
    import Foundation
    import FoundationNetworking
    import MicCheckTesting
    import Testing

    @Suite(
        "miccheck serve", .tags(.live),
        .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build the miccheck binary first"))
    struct ServeCommandTests {
        @Test("binds loopback by default and says so; a call file's members are in the call; SIGTERM stops it")
        func startsAndStops() throws {
            let dir = tempDir()
            let call = dir.appendingPathComponent("call.json")
            try Data(
                #"{"id": "standup", "participants": [{"id": "ada", "name": "Ada Lovelace", "speaking": [[0, 60]]}]}"#
                    .utf8
            )
            .write(to: call)
            let p = try LiveProcess(
                ["serve", "--port", "0", "--call", call.path], environment: ProcessInfo.processInfo.environment)
            #expect(p.wait(timeout: 20) { p.lines.count >= 2 })
            let first = try #require(p.lines.first)
            #expect(first.hasPrefix("miccheck: serving http://127.0.0.1:"))
            #expect(first.contains("loopback only"))
            #expect(p.lines.dropFirst().first == "miccheck: call standup with 1 scripted member(s).")
            let port = try #require(
                first.split(separator: ":").dropFirst(3).first.flatMap { Int($0.prefix { $0.isNumber }) })
            // The scripted member is there, speaking, for anyone who asks.
            var snapshot = ""
            poll(timeout: 5) {
                snapshot = get("http://127.0.0.1:\(port)/v1/calls/standup")
                return snapshot.contains("\"speaking\": true")
            }
            #expect(snapshot.contains("\"name\": \"Ada Lovelace\""))
            #expect(snapshot.contains("\"speaking\": true"))
            p.process.terminate()
            #expect(p.finish(timeout: 10) == 0)
        }

        @Test("bad options and call files: one sentence, the documented status")
        func refusals() throws {
            let bad = try miccheck(["serve", "--port", "70000"])
            #expect(bad.status == 64 && bad.stderr.contains("--port must be from 0 to 65535"))
            let origin = try miccheck(["serve", "--allow-origin", "example.com"])
            #expect(origin.status == 64 && origin.stderr.contains("an origin starts with http:// or https://"))
            let missing = try miccheck(["serve", "--call", "/nonexistent/call.json"])
            #expect(missing.status == 66 && missing.stderr == "miccheck: /nonexistent/call.json: no such file.\n")
            let dir = tempDir()
            let broken = dir.appendingPathComponent("broken.json")
            try Data("{".utf8).write(to: broken)
            let malformed = try miccheck(["serve", "--call", broken.path])
            #expect(malformed.status == 65 && malformed.stderr.hasPrefix("miccheck: \(broken.path): not a usable call"))
        }

        @Test(
            "invitations: open calls on a public address need saying so; tokens need a long secret; a token opens its call only"
        )
        func invitations() throws {
            var env = ProcessInfo.processInfo.environment
            env["MICCHECK_TOKEN_SECRET"] = nil
            let open = try miccheck(["serve", "--host", "0.0.0.0", "--port", "0"], environment: env)
            #expect(open.status == 64 && open.stderr.contains("set MICCHECK_TOKEN_SECRET"))
            #expect(open.stderr.contains("--insecure-open-calls"))
            let noSecret = try miccheck(["token", "--call", "standup", "--name", "Ada"], environment: env)
            #expect(noSecret.status == 64 && noSecret.stderr.contains("token needs MICCHECK_TOKEN_SECRET"))
            env["MICCHECK_TOKEN_SECRET"] = "too short"
            let short = try miccheck(["token", "--call", "standup", "--name", "Ada"], environment: env)
            #expect(short.status == 64 && short.stderr.contains("needs 32 or more"))
            let role = try miccheck(
                ["token", "--call", "standup", "--name", "Ada", "--role", "king"], environment: env)
            #expect(role.status == 64 && role.stderr.contains("--role must be host, speaker or listener"))

            env["MICCHECK_TOKEN_SECRET"] = String(repeating: "s", count: 40)
            let minted = try miccheck(
                ["token", "--call", "standup", "--name", "Ada Lovelace", "--role", "listener"], environment: env)
            #expect(minted.status == 0)
            let token = minted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(token.split(separator: ".").count == 3)
            let link = try miccheck(
                ["token", "--call", "standup", "--name", "Ada", "--url", "http://example.test:8080"], environment: env)
            #expect(link.stdout.hasPrefix("http://example.test:8080/?call=standup&token=ey"))

            let p = try LiveProcess(["serve", "--port", "0"], environment: env)
            defer {
                p.process.terminate()
                _ = p.finish(timeout: 10)
            }
            #expect(p.wait(timeout: 20) { p.lines.count >= 2 })
            #expect(p.lines.contains("miccheck: calls need a join token (miccheck token)."))
            let line = try #require(p.lines.first)
            let port = try #require(
                line.split(separator: ":").dropFirst(3).first.flatMap { Int($0.prefix { $0.isNumber }) })
            #expect(status("http://127.0.0.1:\(port)/v1/call?call=standup") == 401)
            #expect(status("http://127.0.0.1:\(port)/v1/call?call=retro&token=\(token)") == 401)
            #expect(status("http://127.0.0.1:\(port)/v1/call?call=standup&token=\(token)") != 401)
        }

        @Test("a port in use: a sentence and exit 69")
        func portInUse() throws {
            let first = try LiveProcess(["serve", "--port", "0"], environment: ProcessInfo.processInfo.environment)
            defer {
                first.process.terminate()
                _ = first.finish(timeout: 10)
            }
            #expect(first.wait(timeout: 20) { !first.lines.isEmpty })
            let line = try #require(first.lines.first)
            let port = try #require(
                line.split(separator: ":").dropFirst(3).first.flatMap { Int($0.prefix { $0.isNumber }) })
            let second = try miccheck(["serve", "--port", String(port)])
            #expect(second.status == 69)
            #expect(second.stderr.hasPrefix("miccheck: cannot serve on 127.0.0.1:\(port):"))
        }
    }

    /// The HTTP status of a GET, 0 when none came.
    private func status(_ address: String) -> Int {
        guard let url = URL(string: address) else { return 0 }
        let box = LockedBox("")
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: url) { _, response, _ in
            box.set(String((response as? HTTPURLResponse)?.statusCode ?? 0))
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        return Int(box.get()) ?? 0
    }

    /// The body of a GET, or "" when it fails.
    private func get(_ address: String) -> String {
        guard let url = URL(string: address) else { return "" }
        let body = LockedBox("")
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: url) { data, _, _ in
            body.set(data.map { String(decoding: $0, as: UTF8.self) } ?? "")
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 5)
        return body.get()
    }

    private final class LockedBox: @unchecked Sendable {
        // @unchecked Sendable: `value` is read and written only under `lock`.
        private let lock = NSLock()
        private var value: String
        init(_ value: String) { self.value = value }
        func set(_ v: String) { lock.withLock { value = v } }
        func get() -> String { lock.withLock { value } }
    }
#endif
