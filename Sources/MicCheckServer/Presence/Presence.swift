public import MicCheck

/// One person in a call, as everyone in it sees them.
public struct PresenceMember: Sendable, Equatable {
    public var id: String
    public var name: String
    public var audio: Bool
    public var video: Bool
    /// Decided by MicCheck's detector on their audio; never true while their audio is off.
    public var speaking: Bool

    public init(id: String, name: String, audio: Bool, video: Bool, speaking: Bool = false) {
        self.id = id
        self.name = name
        self.audio = audio
        self.video = video
        self.speaking = speaking
    }

    var json: JSONValue {
        .object([
            ("id", .string(id)), ("name", .string(name)), ("audio", .bool(audio)), ("video", .bool(video)),
            ("speaking", .bool(speaking)),
        ])
    }
}

/// What a connection hears about its call.
public enum PresenceEvent: Sendable, Equatable {
    /// Everyone in the call at `version` (the first event of a subscription, and after a gap).
    case snapshot(version: Int, members: [PresenceMember])
    case joined(version: Int, PresenceMember)
    case updated(version: Int, PresenceMember)
    case left(version: Int, id: String)
    /// A WebRTC signalling message from another participant (its JSON, already checked).
    case signal(from: String, payload: JSONValue)

    public var version: Int? {
        switch self {
        case .snapshot(let v, _), .joined(let v, _), .updated(let v, _), .left(let v, _): v
        case .signal: nil
        }
    }

    /// The event as the call protocol's message.
    public var json: JSONValue {
        switch self {
        case .snapshot(let v, let members):
            .object([
                ("type", .string("presence")), ("version", .int(v)), ("participants", .array(members.map(\.json))),
            ])
        case .joined(let v, let m):
            .object([("type", .string("joined")), ("version", .int(v)), ("participant", m.json)])
        case .updated(let v, let m):
            .object([("type", .string("updated")), ("version", .int(v)), ("participant", m.json)])
        case .left(let v, let id):
            .object([("type", .string("left")), ("version", .int(v)), ("id", .string(id))])
        case .signal(let from, let payload):
            .object([("type", .string("signal")), ("from", .string(from)), ("data", payload)])
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

    public init(backlog: Int = 256) { self.backlog = backlog }

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

    public func unsubscribe(call id: String, subscriber: String) {
        calls[id]?.subscribers.removeValue(forKey: subscriber)?.finish()
        dropIfEmpty(id)
    }

    public func snapshot(call id: String) -> PresenceEvent {
        let call = calls[id] ?? Call()
        return .snapshot(version: call.version, members: call.members)
    }

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

    public func update(call id: String, member: PresenceMember) {
        guard var call = calls[id], let i = call.members.firstIndex(where: { $0.id == member.id }),
            call.members[i] != member
        else { return }
        call.version += 1
        call.members[i] = member
        publish(.updated(version: call.version, member), in: call)
        calls[id] = call
    }

    public func leave(call id: String, id member: String) {
        guard var call = calls[id], let i = call.members.firstIndex(where: { $0.id == member }) else { return }
        call.version += 1
        call.members.remove(at: i)
        publish(.left(version: call.version, id: member), in: call)
        calls[id] = call
        dropIfEmpty(id)
    }

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
