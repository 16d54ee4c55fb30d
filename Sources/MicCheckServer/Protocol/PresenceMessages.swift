public import MicCheck
public import MicCheckPresence

// Presence as the call protocol's messages: the one place that writes them (Guides/Browser.md, `/v1/call`).

extension PresenceMember {
    /// The member as a participant of the call protocol's messages.
    var json: JSONValue {
        .object([
            ("id", .string(id)), ("name", .string(name)), ("audio", .bool(audio)), ("video", .bool(video)),
            ("speaking", .bool(speaking)),
        ])
    }
}

extension PresenceEvent {
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
