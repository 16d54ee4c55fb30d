import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MicCheck
import MicCheckTesting
import NIOCore
import NIOWebSocket
import Synchronization
import Testing

@testable import MicCheckServer

/// Messages a test's clients received, shared between their tasks.
final class Inbox: Sendable {
    private let messages = Mutex<[Received]>([])
    func add(_ text: String) { if let m = try? Received(text) { messages.withLock { $0.append(m) } } }
    var all: [Received] { messages.withLock { $0 } }
    func has(_ predicate: (Received) -> Bool) -> Bool { messages.withLock { $0.contains(where: predicate) } }
}

@Suite("The server over real WebSockets", .tags(.live))
struct ServerLiveTests {
    private func server(idleTimeout: Double = 10, maxMessageBytes: Int = 65_536) -> CallServer {
        CallServer(
            configuration: .init(
                port: 0, limits: ConnectionLimits(maxMessageBytes: maxMessageBytes, idleTimeout: idleTimeout)))
    }

    /// Waits (polling, at most `seconds`) until `condition` holds.
    private func until(_ seconds: Double = 5, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            guard ContinuousClock.now < deadline else { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("generated speech in, events out with audio-time stamps, then session.closed and a normal close")
    func vadStream() async throws {
        let app = server().application()
        try await app.test(.live) { client in
            let inbox = Inbox()
            let close = try await client.ws("/v1/vad?prefix_padding_ms=200") { inbound, outbound, _ in
                let bytes = pcm16(speechInRoom(onset: 1, speech: 1.5, seconds: 3.5))
                for start in stride(from: 0, to: bytes.count, by: 640) {
                    try await outbound.write(.binary(ByteBuffer(bytes: bytes[start..<min(bytes.count, start + 640)])))
                }
                try await outbound.write(.text(#"{"type": "close_stream"}"#))
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let s) = message { inbox.add(s) }
                }
            }
            #expect(close?.closeCode == .normalClosure)
            let types = inbox.all.map(\.type).filter { $0 != "level" }
            #expect(types.first == "session.created" && types.last == "session.closed")
            // Utterances (the voice may pause between words long enough to end one) start and stop in turn.
            let speech = types.dropFirst().dropLast()
            #expect(
                !speech.isEmpty
                    && speech.enumerated().allSatisfy { $1 == ($0 % 2 == 0 ? "speech_started" : "speech_stopped") })
            let started = try #require(inbox.all.first { $0.type == "speech_started" })
            let at = try #require(started.int("audio_ms"))
            #expect((1_000...1_350).contains(at))
            #expect(started.int("audio_start_ms") == at - 200)
            // A client that reads only at the end gets coalesced levels: fewer, in order, the newest last.
            let levels = inbox.all.filter { $0.type == "level" }.compactMap { $0.int("audio_ms") }
            #expect(!levels.isEmpty && levels == levels.sorted() && levels.last == 3_500)
        }
    }

    @Test("a message over the limit closes with 1009; a malformed one with 1008 and a reason; another stream goes on")
    func badClients() async throws {
        let app = server(maxMessageBytes: 4_096).application()
        try await app.test(.live) { client in
            let inbox = Inbox()
            async let good = client.ws("/v1/vad") { inbound, outbound, _ in
                let bytes = pcm16(speechInRoom(onset: 0.5, speech: 1.5, seconds: 3))
                for start in stride(from: 0, to: bytes.count, by: 640) {
                    try await outbound.write(.binary(ByteBuffer(bytes: bytes[start..<min(bytes.count, start + 640)])))
                    try await Task.sleep(for: .milliseconds(2))
                }
                try await outbound.write(.text(#"{"type": "close_stream"}"#))
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let s) = message { inbox.add(s) }
                }
            }
            let big = try await client.ws("/v1/vad") { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: [UInt8](repeating: 0, count: 8_192))))
                for try await _ in inbound {}
            }
            #expect(big?.closeCode == .messageTooLarge)
            let malformed = try await client.ws("/v1/vad") { inbound, outbound, _ in
                try await outbound.write(.text("{\"type\": \"session.update\", \"session\": {\"threshold\": 7}}"))
                for try await _ in inbound {}
            }
            #expect(malformed?.closeCode == .policyViolation)
            #expect(malformed?.reason == "threshold must be above 0 and at most 1")
            let odd = try await client.ws("/v1/vad") { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: [1, 2, 3])))
                for try await _ in inbound {}
            }
            #expect(odd?.closeCode == .policyViolation)
            let goodClose = try await good
            #expect(goodClose?.closeCode == .normalClosure)
            let types = inbox.all.map(\.type).filter { $0 != "level" }
            #expect(
                types.first == "session.created" && types.last == "session.closed" && types.contains("speech_started"))
        }
    }

    @Test("a silent connection is closed after the idle timeout, with the reason")
    func idle() async throws {
        let app = server(idleTimeout: 1).application()
        try await app.test(.live) { client in
            let close = try await client.ws("/v1/vad") { inbound, _, _ in
                for try await _ in inbound {}
            }
            #expect(close?.closeCode == .policyViolation)
            #expect(close?.reason?.hasPrefix("nothing received for 1 s") == true)
        }
    }

    @Test("bad settings in the query and foreign origins are refused before the WebSocket opens")
    func refusedUpgrades() async throws {
        let app = server().application()
        try await app.test(.live) { client in
            try await client.execute(uri: "/v1/vad?sample_rate=7000", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            var headers = HTTPFields()
            headers[.origin] = "http://evil.example"
            try await client.execute(uri: "/v1/call?call=c", method: .get, headers: headers) { response in
                #expect(response.status == .forbidden)
            }
            headers[.origin] = "null"
            try await client.execute(uri: "/v1/vad", method: .get, headers: headers) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/v1/call", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#"src="/app/main.js""#))
            }
            // The page is built from the client SDK's modules: its texts, its worklet.
            try await client.execute(uri: "/sdk/components/texts.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Before Joining"))
            }
            try await client.execute(uri: "/sdk/pcm-worklet.js", method: .get) { response in
                #expect(response.status == .ok)
            }
            // The analysis kernel, as WebAssembly.compileStreaming needs it (scripts/build-wasm.sh writes it
            // into the resources before the build).
            try await client.execute(uri: "/sdk/miccheck.wasm", method: .get) { response in
                #expect(response.status == .ok, "no miccheck.wasm in the resources: run scripts/build-wasm.sh")
                #expect(response.headers[.contentType] == "application/wasm")
                #expect(Array(response.body.readableBytesView.prefix(4)) == [0, 0x61, 0x73, 0x6D])
            }
        }
    }

    @Test("a signal from the presence store is checked again before the page hears it: a bad one is dropped")
    func storeSignalsAreChecked() async throws {
        let log = LogRecorder()
        let server = CallServer(configuration: .init(port: 0), logger: log.logger())
        let app = server.application()
        let presence = server.presence
        try await app.test(.live) { client in
            _ = try await client.ws("/v1/call?call=relay") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type": "join", "name": "Bob"}"#))
                var it = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                var bob: String?
                while let message = try await it.next() {
                    guard case .text(let s) = message, let m = try? Received(s) else { continue }
                    if m.type == "welcome" { bob = m.string("id") }
                    if m.type == "joined" { break }
                }
                let id = try #require(bob)
                // What another node could have written into a shared store: a field no signal has, then an honest
                // candidate with its keys in another order.
                let forged = JSONValue.object([
                    ("candidate", .object([("candidate", .string("c")), ("evil", .string("x"))]))
                ])
                let honest = JSONValue.object([
                    ("candidate", .object([("sdpMLineIndex", .int(0)), ("candidate", .string("c"))]))
                ])
                #expect(await presence.signal(call: "relay", from: "ada", to: id, payload: forged))
                #expect(await presence.signal(call: "relay", from: "ada", to: id, payload: honest))
                while let message = try await it.next() {
                    guard case .text(let s) = message, let m = try? Received(s), m.type == "signal" else { continue }
                    #expect(
                        s
                            == #"{"type": "signal", "from": "ada", "data": {"candidate": {"candidate": "c", "sdpMLineIndex": 0}}}"#
                    )
                    break
                }
            }
        }
        let dropped = log.entries.filter { $0.message.contains("cannot read") }
        #expect(dropped.map(\.level) == [.warning])
        #expect(dropped.first?.metadata["from"] == "ada" && dropped.first?.metadata["call"] == "relay")
    }

    @Test("two pages in one call: each sees the other join, speak, and leave; nobody stays speaking")
    func twoParticipants() async throws {
        let server = server()
        let app = server.application()
        try await app.test(.live) { client in
            let seenByBob = Inbox()
            let adaID = Mutex<String?>(nil)
            let bobJoined = Inbox()
            async let bob = client.ws("/v1/call?call=standup") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type": "join", "name": "Bob"}"#))
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let s) = message else { continue }
                    seenByBob.add(s)
                    if s.contains("\"joined\"") && s.contains("\"Bob\"") { bobJoined.add(s) }
                    if s.contains("\"left\"") { break }
                }
            }
            try await until { bobJoined.all.count == 1 }
            try await client.ws("/v1/call?call=standup") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type": "join", "name": "Ada"}"#))
                var it = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                while let message = try await it.next() {
                    if case .text(let s) = message, let m = try? Received(s), m.type == "welcome" {
                        adaID.withLock { $0 = m.string("id") }
                    }
                    if case .text(let s) = message, s.contains("\"joined\""), s.contains("\"Ada\"") { break }
                }
                let bytes = pcm16(speechInRoom(onset: 0.3, speech: 1.5, seconds: 2.5))
                for start in stride(from: 0, to: bytes.count, by: 640) {
                    try await outbound.write(.binary(ByteBuffer(bytes: bytes[start..<min(bytes.count, start + 640)])))
                }
                try await until {
                    seenByBob.has { $0.type == "updated" && $0.object("participant")?.bool("speaking") == true }
                }
                // Ada's page goes away while she is speaking (the voice is still on).
                try await outbound.write(
                    .binary(ByteBuffer(bytes: pcm16(Signals.voice(rmsDB: -24, seconds: 0.5, sampleRate: 16_000)))))
            }
            _ = try await bob
            let id = try #require(adaID.withLock { $0 })
            let adaEvents = seenByBob.all.filter {
                $0.object("participant")?.string("id") == id || $0.string("id") == id
            }
            #expect(adaEvents.first?.type == "joined")
            #expect(adaEvents.contains { $0.type == "updated" && $0.object("participant")?.bool("speaking") == true })
            #expect(adaEvents.last?.type == "left")
            // Versions arrive one by one after the snapshot.
            let versions = seenByBob.all.compactMap { $0.type == "presence" ? nil : $0.int("version") }
            #expect(versions == Array((versions.first ?? 0)..<((versions.first ?? 0) + versions.count)))
            // Bob has gone too: the call is empty.
            let presence = server.presence
            for _ in 0..<100 {
                if case .snapshot(_, let members) = await presence.snapshot(call: "standup"), members.isEmpty { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            guard case .snapshot(_, let members) = await presence.snapshot(call: "standup") else { return }
            #expect(members.isEmpty)
        }
    }
}
