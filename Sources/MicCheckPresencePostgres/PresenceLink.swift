/// A node's link to the presence database, decided without I/O: whether writes go to the database, and
/// when the node must write its members back and take every snapshot again (a repair). Each input returns
/// what the node must do.
///
/// ```
///   starting ──connected──▶ online ──write failed──▶ repairing ──repair done──▶ online
///      │                      │                          │
///      └──────lost────────▶ offline ◀───────lost─────────┘
///                             └────────connected───────▶ repairing
/// ```
struct PresenceLink: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// The listener's first attempt has not ended: calls wait, so that nothing is taken for an outage
        /// in the node's first moments.
        case starting
        /// Listening, and in step with the database.
        case online
        /// No connection: the node's calls go on with its own members.
        case offline
        /// Connected, writing its members back and taking the snapshots again. `again`: trouble came during
        /// the repair, which repairs once more.
        case repairing(again: Bool)
    }

    enum Action: Sendable, Equatable {
        /// Let the calls that waited for the first attempt go on.
        case releaseWaiters
        /// Write this node's members back, and take every followed call's snapshot again.
        case repair
    }

    private(set) var state = State.starting

    /// Writes go to the database (a repair writes too).
    var isOnline: Bool {
        switch state {
        case .online, .repairing: true
        case .starting, .offline: false
        }
    }

    var hasStarted: Bool { state != .starting }

    /// The listener connected.
    mutating func connected() -> [Action] {
        switch state {
        case .starting:
            // Nothing to mend on the first connection: calls wait for it before they touch the tables.
            state = .online
            return [.releaseWaiters]
        case .offline:
            state = .repairing(again: false)
            return [.repair]
        case .online, .repairing:
            return []
        }
    }

    /// The listener's connection failed or ended.
    mutating func lost() -> [Action] {
        let first = state == .starting
        state = .offline
        return first ? [.releaseWaiters] : []
    }

    /// A write failed, or the lease renewal found members of this node missing (reaped while it was cut
    /// off): the database must get them back.
    mutating func trouble() -> [Action] {
        switch state {
        case .online:
            state = .repairing(again: false)
            return [.repair]
        case .repairing:
            state = .repairing(again: true)
            return []
        case .starting, .offline:
            return []
        }
    }

    /// A repair pass succeeded. Returns whether to repair once more (trouble came meanwhile).
    mutating func repaired() -> Bool {
        guard case .repairing(let again) = state else { return false }
        state = again ? .repairing(again: false) : .online
        return again
    }
}
