import Foundation
public import Logging
import MicCheck
public import MicCheckPresence
import PostgresNIO
public import ServiceLifecycle

/// Presence shared by several `miccheck serve` nodes through PostgreSQL: the members of every call in
/// tables (`PostgresSchema`), each change one transaction that bumps the call's version and NOTIFYs
/// the delta; every node LISTENs and fans the deltas out to its own connections.
///
/// - A node holds a mirror of each call one of its connections follows: a snapshot from the tables, then
///   the deltas above its version. A gap in versions, or a lost connection to the database, makes it take
///   the snapshot again and hand it to its connections.
/// - The members a node holds live under its lease, which it renews every third of ``Options/lease``
///   (one row, however many members); any node reaps the members of a node whose lease ran out (a node
///   that died), and they leave like anyone else.
/// - Only the changes of members cross nodes (toggles and speaking transitions, with the detector's
///   hysteresis); levels stay on the node that holds the connection. WebRTC signals to a participant on
///   another node travel as notifications too (through a table when over 7 KB).
/// - When the database goes away the node keeps its calls going: its own members' changes reach its own
///   connections, it reconnects with backoff, writes its members back, takes every snapshot again and
///   says so in its log.
///
/// Run it as a service (``run()``, which `CallServer` does) for as long as it serves; open it with
/// ``open(_:options:logger:)``, which fails at once, with a sentence, when the database cannot be reached.
public actor PostgresPresence: PresenceStore, Service {
    /// How a node shares presence: its lease, its name, its backlog and its write timeout.
    public struct Options: Sendable {
        /// How long a member outlives its node's last renewal: the time within which a dead node's
        /// participants leave the others' calls. Renewed every third of it.
        public var lease: Duration
        /// This node's name in the tables: unique among the nodes (host, process and a random part by default).
        public var node: String
        /// Events kept for a connection that falls behind; past that it resyncs from a snapshot.
        public var backlog: Int
        /// How long a write may wait for the database before the node goes on without it.
        public var writeTimeout: Duration

        /// Options with the defaults: a 10 s lease, `defaultNode()`, a backlog of 256 events and a 2 s write timeout.
        public init(
            lease: Duration = .seconds(10), node: String = PostgresPresence.defaultNode(), backlog: Int = 256,
            writeTimeout: Duration = .seconds(2)
        ) {
            self.lease = lease
            self.node = node
            self.backlog = backlog
            self.writeTimeout = writeTimeout
        }
    }

    /// A call that connections of this node follow: its mirror and their subscriptions.
    struct Followed {
        var mirror: PresenceMirror
        var subscribers: [String: AsyncStream<PresenceEvent>.Continuation] = [:]
    }

    /// One member of one call.
    struct MemberKey: Hashable {
        var call: String
        var id: String
    }

    /// Work that runs as a child task of ``run()``.
    enum Job: Sendable {
        case repair
        case readSnapshot(call: String)
    }

    /// The database's address.
    public nonisolated let address: PostgresAddress
    /// The options the store was opened with.
    public nonisolated let options: Options
    let client: PostgresClient
    let logger: Logger
    var calls: [String: Followed] = [:]
    /// The members this node holds, by call then id: what it writes back after an outage.
    var own: [String: [String: PresenceMember]] = [:]
    /// Members of this node whose join is being written: the lease renewal does not count them yet.
    var joining: Set<MemberKey> = []
    /// Members of this node that left while the database was away: written out on return.
    var departed: Set<MemberKey> = []
    var link = PresenceLink()
    var stopped = false
    private var startWaiters: [CheckedContinuation<Void, Never>] = []
    private nonisolated let jobs: AsyncStream<Job>
    nonisolated let queue: AsyncStream<Job>.Continuation

    private init(address: PostgresAddress, options: Options, logger: Logger) {
        self.address = address
        self.options = options
        self.logger = logger
        var configuration = address.clientConfiguration
        configuration.options.connectTimeout = .seconds(5)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        (jobs, queue) = AsyncStream.makeStream(of: Job.self)
    }

    /// A node name: host, process id and a random part.
    public nonisolated static func defaultNode() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
    }

    /// Connects once to check that the database is there, and installs the tables and functions (each
    /// idempotent). Throws ``PresenceError/unusable(address:reason:)`` saying what failed.
    public static func open(
        _ address: PostgresAddress, options: Options = Options(),
        logger: Logger = Logger(label: "miccheck.presence")
    ) async throws(PresenceError) -> PostgresPresence {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try address.connectionConfiguration(), id: 0, logger: logger)
            do {
                try await connection.query("BEGIN", logger: logger)
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(PostgresSchema.installLock))", logger: logger)
                for statement in PostgresSchema.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "SELECT miccheck_renew(\(options.node), \(options.lease.seconds))", logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } catch {
            throw .unusable(address: address.description, reason: Self.reason(error))
        }
        return PostgresPresence(address: address, options: options, logger: logger)
    }

    // MARK: - The service

    /// Runs the connection pool, the listener (reconnecting with backoff), the lease renewal with the
    /// reaper, and the repairs and snapshot reads, until the service group shuts down gracefully (then
    /// this node's members leave) or the task is cancelled (then they stay until their lease runs out, as
    /// if the node had died).
    public nonisolated func run() async {
        // The pool must outlive a graceful shutdown (the node's members leave through it), and it would
        // stop at the service group's signal if it were a child here: it runs outside the group, is
        // cancelled when run() returns, and holds nothing of the node's state.
        let pool = Task.detached { [client] in await client.run() }
        defer { pool.cancel() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.listen() }
            group.addTask { await self.maintain() }
            group.addTask { await self.work() }
            if (try? await gracefulShutdown()) != nil { await self.leaveAll() }
            group.cancelAll()
        }
        await stop()
    }

    /// The node stops (its service ended, or its task was cancelled): no more repairs, and calls that wait
    /// for the listener's first attempt go on without it.
    private func stop() {
        stopped = true
        perform(link.lost())
    }

    /// This node's members leave every call (a graceful shutdown).
    public func leaveAll() async {
        stopped = true
        own = [:]
        guard link.isOnline else { return }
        do {
            _ = try await write("SELECT miccheck_node_leave(\(options.node))")
            logger.info("presence: node \(options.node) left its calls")
        } catch {
            logger.warning(
                "presence: could not remove this node's members (\(Self.reason(error))); their leases will run out")
        }
    }

    /// Repairs and snapshot reads, each a child task, for as long as the node runs.
    private nonisolated func work() async {
        await withTaskGroup(of: Void.self) { group in
            for await job in jobs {
                switch job {
                case .repair: group.addTask { await self.repair() }
                case .readSnapshot(let call): group.addTask { await self.load(call) }
                }
            }
            group.cancelAll()
        }
    }

    private nonisolated func listen() async {
        var delay = 0.25
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: try address.connectionConfiguration(),
                    id: attempt, logger: logger)
                do {
                    try await connection.listen(on: PostgresSchema.channel) { notifications in
                        await self.connected()
                        delay = 0.25
                        for try await notification in notifications { await self.notified(notification.payload) }
                    }
                    try? await connection.close()
                    if Task.isCancelled { return }
                    await lost("the listening connection ended", retryIn: delay)
                } catch {
                    // A connection must be closed before it goes, even a broken one.
                    try? await connection.close()
                    throw error
                }
            } catch {
                if Task.isCancelled { return }
                await lost(Self.reason(error), retryIn: delay)
            }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, 5)
        }
    }

    private nonisolated func maintain() async {
        let every = options.lease / 3
        while !Task.isCancelled {
            try? await Task.sleep(for: every)
            await renewAndReap()
        }
    }

    /// Waits until the listener's first attempt has ended.
    func start() async {
        guard !link.hasStarted else { return }
        await withCheckedContinuation { startWaiters.append($0) }
    }

    private func connected() {
        let wasOnline = link.isOnline
        if !wasOnline { logger.notice("presence: listening on \(address)") }
        perform(link.connected())
    }

    private func lost(_ reason: String, retryIn delay: Double) {
        if link.isOnline || delay == 0.25 {
            logger.warning(
                "presence: lost the database (\(reason)); local calls go on; reconnecting every \(delay < 5 ? "few" : "5") seconds"
            )
        }
        perform(link.lost())
    }

    private func perform(_ actions: [PresenceLink.Action]) {
        for action in actions {
            switch action {
            case .releaseWaiters:
                for waiter in startWaiters { waiter.resume() }
                startWaiters = []
            case .repair:
                queue.yield(.repair)
            }
        }
    }

    private func renewAndReap() async {
        guard link.isOnline, !stopped else { return }
        do {
            // The members whose rows the renewal must find: those whose join was written, counted again after it
            // without those that left meanwhile (a join in flight, or a leave during the renewal, is not a row
            // the database lost; under a join and leave churn they were taken for one, and every call resynced).
            let settled = own.flatMap { call, members in members.keys.map { MemberKey(call: call, id: $0) } }
                .filter { !joining.contains($0) }
            let renewed = try await renew()
            let expected = settled.filter { own[$0.call]?[$0.id] != nil }.count
            // Members reaped while this node was cut off (a lease that ran out) are written back.
            if renewed < expected { perform(link.trouble()) }
            _ = try await write("SELECT miccheck_reap(\(options.lease.seconds))::bigint")
        } catch {
            if Task.isCancelled { return }  // the node is stopping
            logger.warning("presence: could not renew leases (\(Self.reason(error)))")
        }
    }

    /// The database refused a member's write: the member stays on this node's connections, and the calls
    /// go on for everyone else.
    func refused(_ error: any Error, member: String, call: String) {
        own[call]?[member] = nil
        if own[call]?.isEmpty == true { own[call] = nil }
        logger.warning(
            "presence: the database refused member \(member) of call \(call) (\(Self.reason(error))); the others do not see it"
        )
    }

    /// A write failed: the node carries on alone and writes its members back once it can.
    func wentAway(_ error: any Error) {
        logger.warning("presence: a write to the database failed (\(Self.reason(error))); local calls go on; resyncing")
        perform(link.trouble())
    }

    // MARK: - PresenceStore

    /// Follows `call` for `subscriber`; a call new to this node has its snapshot read before the stream is returned.
    public func subscribe(call id: String, subscriber: String) async -> AsyncStream<PresenceEvent> {
        await start()
        let (stream, continuation) = AsyncStream.makeStream(
            of: PresenceEvent.self, bufferingPolicy: .bufferingOldest(options.backlog))
        let isNew = calls[id] == nil
        if isNew { calls[id] = Followed(mirror: PresenceMirror()) }
        calls[id]?.subscribers[subscriber]?.finish()
        calls[id]?.subscribers[subscriber] = continuation
        mirror(id) { $0.subscribed(subscriber) }
        // A call new to this node: its first snapshot is read before the subscription is handed out.
        if isNew { await load(id) }
        return stream
    }

    /// Ends `subscriber`'s stream; the node stops following a call that none of its connections follows.
    public func unsubscribe(call id: String, subscriber: String) {
        calls[id]?.subscribers.removeValue(forKey: subscriber)?.finish()
        if calls[id]?.subscribers.isEmpty == true { calls[id] = nil }
    }

    /// The members of `call` with its version: the live mirror's, else read from the database, else what this node
    /// knows.
    public func snapshot(call id: String) async -> PresenceEvent {
        await start()
        if let call = calls[id], call.mirror.isLive { return call.mirror.snapshot }
        if link.isOnline, let (version, members) = try? await readSnapshot(id) {
            return .snapshot(version: version, members: members)
        }
        return calls[id]?.mirror.snapshot ?? .snapshot(version: 0, members: ownMembers(id))
    }

    /// Writes the join under this node's lease (a join the database refuses is seen by nobody else); while the
    /// database is away, this node's connections hear it from here.
    public func join(call id: String, member: PresenceMember) async {
        await start()
        own[id, default: [:]][member.id] = member
        let key = MemberKey(call: id, id: member.id)
        departed.remove(key)
        if link.isOnline {
            joining.insert(key)
            defer { joining.remove(key) }
            do {
                try await writeJoin(call: id, member: member)
                return
            } catch  where Self.isRefusal(error) {
                refused(error, member: member.id, call: id)
                return
            } catch {
                wentAway(error)
            }
        }
        mirror(id) { $0.changedHere(.joined(member)) }
    }

    /// Writes the change of a member this node holds when it differs; while the database is away, this node's
    /// connections hear it from here.
    public func update(call id: String, member: PresenceMember) async {
        await start()
        guard let old = own[id]?[member.id], old != member else { return }
        own[id]?[member.id] = member
        if link.isOnline {
            do {
                _ = try await write(
                    """
                    SELECT miccheck_update(\(id), \(member.id), \(member.name), \(member.audio), \(member.video), \(member.speaking))
                    """)
                return
            } catch  where Self.isRefusal(error) {
                // The member stays as the database has it.
                own[id]?[member.id] = old
                logger.warning(
                    "presence: the database refused a change of member \(member.id) of call \(id) (\(Self.reason(error)))"
                )
                return
            } catch {
                wentAway(error)
            }
        }
        mirror(id) { $0.changedHere(.updated(member)) }
    }

    /// Writes the leave of a member this node holds; while the database is away, this node's connections hear it
    /// from here and the leave is written on return.
    public func leave(call id: String, id member: String) async {
        await start()
        guard own[id]?.removeValue(forKey: member) != nil else { return }
        if own[id]?.isEmpty == true { own[id] = nil }
        if link.isOnline {
            do {
                _ = try await write("SELECT miccheck_leave(\(id), \(member))")
                return
            } catch {
                wentAway(error)
            }
        }
        departed.insert(MemberKey(call: id, id: member))
        mirror(id) { $0.changedHere(.left(member)) }
    }
}
