import Foundation
public import MicCheck
import MicCheckPresence
import PostgresNIO

/// Signals between nodes, and the notifications the node listens to.
extension PostgresPresence {
    /// Hands `payload` to `to`'s connection on this node, or notifies the node that holds it (through a table when
    /// over 7,000 bytes); false when `to` is not a member of the call or cannot be reached.
    public func signal(call id: String, from: String, to: String, payload: JSONValue) async -> Bool {
        await start()
        // Only to a member of the call, on any node: a page in its lobby, or one that left, gets none. This node's
        // own members are known exactly; another node's from the mirror, and again where they are (deliverSignal).
        // On this node: straight to its connection.
        if let target = calls[id]?.subscribers[to] {
            guard own[id]?[to] != nil else { return false }
            if case .dropped = target.yield(.signal(from: from, payload: payload)) { return false }
            return true
        }
        guard link.isOnline, calls[id]?.mirror.members.contains(where: { $0.id == to }) == true else { return false }
        var fields: [(String, JSONValue)] = [
            ("call", .string(id)), ("kind", .string("signal")), ("from", .string(from)),
            ("to", .string(to)),
        ]
        do {
            let data = payload.encoded
            // A notification's payload holds under 8,000 bytes; a larger description goes through a table.
            if data.utf8.count > 7_000 {
                guard let ref = try await write("INSERT INTO miccheck_signals (payload) VALUES (\(data)) RETURNING id")
                else { return false }
                fields.append(("ref", .int(ref)))
            } else {
                fields.append(("data", payload))
            }
            _ = try await write(
                "SELECT 1 FROM pg_notify(\(PostgresSchema.channel), \(JSONValue.object(fields).encoded))")
            return true
        } catch {
            wentAway(error)
            return false
        }
    }

    // MARK: - Notifications

    func notified(_ payload: String) async {
        guard let notification = PresenceNotification(payload: payload) else {
            logger.warning("presence: a notification MicCheck cannot read: \(payload.prefix(200))")
            return
        }
        if notification.kind == .signal {
            await deliverSignal(notification)
            return
        }
        guard let delta = notification.delta else {
            logger.warning("presence: a notification MicCheck cannot read: \(payload.prefix(200))")
            return
        }
        let call = notification.call
        mirror(call) { mirror in
            let actions = mirror.received(delta)
            if actions.contains(.readSnapshot) {
                logger.info("presence: call \(call) went from version \(mirror.version) to \(delta.version); resyncing")
            }
            return actions
        }
    }

    private func deliverSignal(_ n: PresenceNotification) async {
        // The member may have left since the sender's node looked.
        guard let to = n.to, let from = n.from, calls[n.call]?.subscribers[to] != nil, own[n.call]?[to] != nil else {
            return
        }
        var data = n.data
        if data == nil, let ref = n.ref {
            let stored = try? await write("DELETE FROM miccheck_signals WHERE id = \(ref) RETURNING payload") {
                try $0.decode(String?.self)
            }
            data = stored.flatMap { try? JSONDecoder().decode(JSONInput.self, from: Data($0.utf8)) }
        }
        // Passed on as stored: the server that relays it to the page checks it again, as it checks every signal.
        guard let data, case .object = data else {
            logger.warning("presence: a signal for \(to) that MicCheck cannot read")
            return
        }
        _ = calls[n.call]?.subscribers[to]?.yield(.signal(from: from, payload: data.value))
    }
}
