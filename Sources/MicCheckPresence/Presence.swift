public import MicCheckKernel

/// One person in a call, as everyone in it sees them.
public struct PresenceMember: Sendable, Equatable {
    /// The participant's id, which is also its connection's subscriber id.
    public var id: String
    /// The name everyone sees (checked by `ParticipantName`).
    public var name: String
    /// Their microphone is on.
    public var audio: Bool
    /// Their camera is on.
    public var video: Bool
    /// Decided by MicCheck's detector on their audio; never true while their audio is off.
    public var speaking: Bool

    /// Makes a member; not speaking by default.
    public init(id: String, name: String, audio: Bool, video: Bool, speaking: Bool = false) {
        self.id = id
        self.name = name
        self.audio = audio
        self.video = video
        self.speaking = speaking
    }
}

/// What a connection hears about its call.
public enum PresenceEvent: Sendable, Equatable {
    /// Everyone in the call at `version` (the first event of a subscription, and after a gap).
    case snapshot(version: Int, members: [PresenceMember])
    /// `PresenceMember` joined the call at `version`.
    case joined(version: Int, PresenceMember)
    /// A member's audio, video or speaking changed (or it joined again) at `version`.
    case updated(version: Int, PresenceMember)
    /// The member `id` left the call at `version`.
    case left(version: Int, id: String)
    /// A WebRTC signalling message from another participant: its JSON, as the sender's server checked it. A
    /// store passes it on as it was given; the server that relays it to a page checks it again.
    case signal(from: String, payload: JSONValue)

    /// The call's version after the event; nil for a signal, which has none.
    public var version: Int? {
        switch self {
        case .snapshot(let v, _), .joined(let v, _), .updated(let v, _), .left(let v, _): v
        case .signal: nil
        }
    }
}

/// Where the members of calls live, and how changes reach every connection of a call. One process keeps
/// them in memory (``MemoryPresence``); several nodes would keep them in a shared database behind the
/// same protocol.
///
/// Each change bumps the call's version by one. A subscriber gets a snapshot, then every change after
/// it; one that misses a version (a slow connection whose queue overflowed) must take a new snapshot.
public protocol PresenceStore: Sendable {
    /// Follows `call` for the connection `subscriber`: a snapshot first, then changes and the signals
    /// addressed to `subscriber`. The stream ends with ``unsubscribe(call:subscriber:)``.
    func subscribe(call: String, subscriber: String) async -> AsyncStream<PresenceEvent>
    /// Stops following `call` for `subscriber`: its stream ends.
    func unsubscribe(call: String, subscriber: String) async
    /// The current members of `call`, with its version.
    func snapshot(call: String) async -> PresenceEvent
    /// Adds or replaces `member` (its `id` is the subscriber's).
    func join(call: String, member: PresenceMember) async
    /// Changes a member's audio, video or speaking; nothing when it is not in the call or nothing changed.
    func update(call: String, member: PresenceMember) async
    /// Removes a member: the others hear it left (so it never stays "speaking").
    func leave(call: String, id: String) async
    /// Passes a signalling message to one member's subscription: only to a member of the call (a page in its
    /// lobby, or one that left, gets none); false when `to` is not one, or cannot be reached.
    func signal(call: String, from: String, to: String, payload: JSONValue) async -> Bool
}

/// Presence for one process: calls in memory, changes fanned out to the subscriptions of the call.
public actor MemoryPresence: PresenceStore {
    private struct Call {
        var version = 0
        var members: [PresenceMember] = []
        var subscribers: [String: AsyncStream<PresenceEvent>.Continuation] = [:]
    }

    private var calls: [String: Call] = [:]
    /// Events kept for a subscriber that falls behind; past that it resyncs from a snapshot.
    private let backlog: Int

    /// Presence in memory; `backlog` events (256 by default) wait for a subscriber that falls behind.
    public init(backlog: Int = 256) { self.backlog = backlog }

    /// Follows `call` for `subscriber`, ending an earlier subscription of the same id: a snapshot first.
    public func subscribe(call id: String, subscriber: String) -> AsyncStream<PresenceEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PresenceEvent.self, bufferingPolicy: .bufferingOldest(backlog))
        var call = calls[id] ?? Call()
        call.subscribers[subscriber]?.finish()
        call.subscribers[subscriber] = continuation
        continuation.yield(.snapshot(version: call.version, members: call.members))
        calls[id] = call
        return stream
    }

    /// Ends `subscriber`'s stream; a call with no members and no subscribers is forgotten.
    public func unsubscribe(call id: String, subscriber: String) {
        calls[id]?.subscribers.removeValue(forKey: subscriber)?.finish()
        dropIfEmpty(id)
    }

    /// The members of `call` with its version (version 0 and nobody for a call it does not know).
    public func snapshot(call id: String) -> PresenceEvent {
        let call = calls[id] ?? Call()
        return .snapshot(version: call.version, members: call.members)
    }

    /// Adds `member`, or replaces the member of the same id (then published as `updated`).
    public func join(call id: String, member: PresenceMember) {
        var call = calls[id] ?? Call()
        call.version += 1
        if let i = call.members.firstIndex(where: { $0.id == member.id }) {
            call.members[i] = member
            publish(.updated(version: call.version, member), in: call)
        } else {
            call.members.append(member)
            publish(.joined(version: call.version, member), in: call)
        }
        calls[id] = call
    }

    /// Replaces the member of `member`'s id when it is in the call and differs; otherwise nothing.
    public func update(call id: String, member: PresenceMember) {
        guard var call = calls[id], let i = call.members.firstIndex(where: { $0.id == member.id }),
            call.members[i] != member
        else { return }
        call.version += 1
        call.members[i] = member
        publish(.updated(version: call.version, member), in: call)
        calls[id] = call
    }

    /// Removes the member `id`: the others hear it left.
    public func leave(call id: String, id member: String) {
        guard var call = calls[id], let i = call.members.firstIndex(where: { $0.id == member }) else { return }
        call.version += 1
        call.members.remove(at: i)
        publish(.left(version: call.version, id: member), in: call)
        calls[id] = call
        dropIfEmpty(id)
    }

    /// Hands `payload` to the subscription of `to` when it is a member of the call; false when it is not, or its
    /// queue is full.
    public func signal(call id: String, from: String, to: String, payload: JSONValue) -> Bool {
        // A page still in its lobby, or one that left, is connected but not in the call: no signal reaches it.
        guard let call = calls[id], call.members.contains(where: { $0.id == to }), let target = call.subscribers[to]
        else { return false }
        if case .dropped = target.yield(.signal(from: from, payload: payload)) { return false }
        return true
    }

    private func publish(_ event: PresenceEvent, in call: Call) {
        for continuation in call.subscribers.values { continuation.yield(event) }
    }

    private func dropIfEmpty(_ id: String) {
        if let call = calls[id], call.members.isEmpty, call.subscribers.isEmpty { calls[id] = nil }
    }
}
