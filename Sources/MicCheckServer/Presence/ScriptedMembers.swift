public import MicCheckCall
public import ServiceLifecycle

/// The members of a call description (`serve --call FILE`), present in the call from the start, their
/// speaking following the file's script: a call to try the pages against with one browser.
public struct ScriptedMembers: Service {
    /// The call description: its members and the script of their speaking.
    public let call: CallDescription
    /// The store the members join, change in and leave.
    public let presence: any PresenceStore

    /// The members of `call`, kept in `presence`.
    public init(call: CallDescription, presence: any PresenceStore) {
        self.call = call
        self.presence = presence
    }

    /// Joins the members, updates their speaking by the script every 100 ms until a graceful shutdown, then has
    /// them leave.
    public func run() async throws {
        for m in call.participants {
            await presence.join(
                call: call.id, member: PresenceMember(id: m.id, name: m.name, audio: true, video: false))
        }
        // Until the server shuts down (a signal): then the members leave like everyone else.
        try? await cancelWhenGracefulShutdown { try await script() }
        for m in call.participants { await presence.leave(call: call.id, id: m.id) }
    }

    private func script() async throws {
        let start = ContinuousClock.now
        while true {
            let elapsed = ContinuousClock.now - start
            let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            // The script as the terminal lobby plays it; no video (these members send none).
            for p in call.participants(at: t) {
                await presence.update(
                    call: call.id,
                    member: PresenceMember(
                        id: p.id, name: p.name, audio: true, video: false,
                        speaking: p.isSpeaking))
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
