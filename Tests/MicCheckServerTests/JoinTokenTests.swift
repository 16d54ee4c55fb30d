import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MicCheckCall
import NIOCore
import Testing

@testable import MicCheckServer

private let secret = String(repeating: "k3", count: 16)  // 32 bytes
/// Ten minutes from when a test asks: read at first use, a stored global would expire
/// when the whole run takes longer than that (a loaded CI machine).
private var later: Date { Date().addingTimeInterval(600) }

@Suite("Join tokens")
struct JoinTokenTests {
    @Test("a valid token gives its call, name and role; every wrong one is refused with its reason")
    func verification() async throws {
        let tokens = try #require(await JoinTokens(secret: secret))
        let expires = later
        let ada = Invitation(call: "standup", name: "Ada", role: .listener, expires: expires)
        let token = try await tokens.mint(ada)
        let got = try await tokens.verify(token, call: "standup")
        #expect(got.call == "standup" && got.name == "Ada" && got.role == .listener)
        #expect(abs(got.expires.timeIntervalSince(expires)) < 1)

        func refusal(_ token: String?, call: String = "standup", with tokens: JoinTokens) async -> InvitationError.Kind?
        {
            do {
                _ = try await tokens.verify(token, call: call)
                return nil
            } catch { return error.kind }
        }
        #expect(await refusal(token, call: "retro", with: tokens) == .otherCall)
        #expect(await refusal(nil, with: tokens) == .missing)
        #expect(await refusal("", with: tokens) == .missing)
        #expect(await refusal("not-a-token", with: tokens) == .malformed)
        let expired = try await tokens.mint(
            Invitation(
                call: "standup", name: "Ada", role: .speaker,
                expires: Date().addingTimeInterval(-5)),
            issued: Date().addingTimeInterval(-60))
        #expect(await refusal(expired, with: tokens) == .expired)
        let other = try #require(await JoinTokens(secret: String(repeating: "x", count: 40)))
        #expect(await refusal(try await other.mint(ada), with: tokens) == .badSignature)
        // A token whose payload was changed (another role) fails its signature.
        let parts = token.split(separator: ".").map(String.init)
        let forged =
            parts[0] + "."
            + Data(#"{"call":"standup","name":"Ada","role":"host","iat":1,"exp":9999999999}"#.utf8)
            .base64EncodedString().replacingOccurrences(of: "=", with: "") + "." + parts[2]
        #expect(await refusal(forged, with: tokens) == .badSignature)
    }

    @Test("a secret shorter than 32 bytes is refused")
    func shortSecret() async {
        #expect(await JoinTokens(secret: "short") == nil)
        #expect(await JoinTokens(secret: String(repeating: "a", count: 31)) == nil)
        #expect(await JoinTokens(secret: String(repeating: "a", count: 32)) != nil)
    }

    @Test("a role bounds what a page may send; its name is the invitation's")
    func roles() throws {
        #expect(CallRole.host.capabilities == [.sendAudio, .sendVideo, .screenshare, .muteUsers])
        #expect(CallRole.listener.capabilities.isEmpty)
        var c = try CallChannel(id: "me", capabilities: CallRole.listener.capabilities, invitedName: "Ada", now: 0)
        #expect(!c.settings.audioOn && !c.settings.videoOn)
        _ = try c.text(#"{"type": "devices", "audio": true, "video": true}"#, now: 0) { _ in }
        #expect(!c.settings.audioOn && !c.settings.videoOn)
        let actions = try c.text(#"{"type": "join", "name": "Mallory"}"#, now: 0) { _ in }
        guard case .join(let member) = actions.first else {
            Issue.record("no join")
            return
        }
        #expect(member.name == "Ada" && !member.audio && !member.video)

        var s = try CallChannel(
            id: "you", capabilities: CallRole.speaker.capabilities.intersection([.sendAudio]), now: 0)
        _ = try s.text(#"{"type": "devices", "audio": true, "video": true}"#, now: 0) { _ in }
        #expect(s.settings.audioOn && !s.settings.videoOn)
    }
}

@Suite("Invitation-only calls over real WebSockets", .tags(.live))
struct InvitationLiveTests {
    @Test(
        "no token, a wrong one or another call's is refused before the WebSocket opens; a valid one joins with its name and role"
    )
    func invitedOnly() async throws {
        let tokens = try #require(await JoinTokens(secret: secret))
        let server = CallServer(configuration: .init(port: 0, tokens: tokens))
        let listener = try await tokens.mint(Invitation(call: "standup", name: "Ada", role: .listener, expires: later))
        let stranger = try await #require(await JoinTokens(secret: String(repeating: "z", count: 32)))
            .mint(Invitation(call: "standup", name: "Eve", role: .host, expires: later))
        try await server.application().test(.live) { client in
            for (uri, reason) in [
                ("/v1/call?call=standup", "needs a join token"),
                ("/v1/call?call=standup&token=\(stranger)", "not signed by this server's secret"),
                ("/v1/call?call=retro&token=\(listener)", "for another call"),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .unauthorized)
                    #expect(String(buffer: response.body).contains(reason))
                }
            }
            try await client.execute(uri: "/v1/calls/standup", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/calls/standup?token=\(listener)", method: .get) { response in
                #expect(response.status == .ok)
            }
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(listener)"
            try await client.execute(uri: "/v1/call?call=standup", method: .get, headers: headers) { response in
                // Past the token check: a plain GET is not an upgrade, so it is not the 401 of a refusal.
                #expect(response.status != .unauthorized)
            }
            try await client.ws("/v1/call?call=standup&token=\(listener)") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type": "devices", "audio": true, "video": true}"#))
                try await outbound.write(.text(#"{"type": "join", "name": "Someone else"}"#))
                var welcome: Received?
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let s) = message, let m = try? Received(s) else { continue }
                    if m.type == "welcome" { welcome = m }
                    if m.type == "joined" {
                        let p = m.object("participant")
                        #expect(p?.string("name") == "Ada")
                        #expect(p?.bool("video") == false && p?.bool("audio") == false)
                        break
                    }
                }
                #expect(welcome?.string("name") == "Ada")
                #expect((welcome?["capabilities"] as? [Any])?.isEmpty == true)
            }
        }
    }
}
