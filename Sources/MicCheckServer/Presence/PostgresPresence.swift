import Foundation
public import Logging
public import MicCheck
import PostgresNIO
public import ServiceLifecycle

/// Presence shared by several `miccheck serve` nodes through PostgreSQL: the members of every call in
/// tables (``PostgresSchema``), each change one transaction that bumps the call's version and NOTIFYs
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
/// Run it as a service (``run()``, which ``CallServer`` does) for as long as it serves; open it with
/// ``open(_:options:logger:)``, which fails at once, with a sentence, when the database cannot be reached.
public actor PostgresPresence: PresenceStore, Service {
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

        public init(lease: Duration = .seconds(10), node: String = PostgresPresence.defaultNode(), backlog: Int = 256,
                    writeTimeout: Duration = .seconds(2)) {
            self.lease = lease
            self.node = node
            self.backlog = backlog
            self.writeTimeout = writeTimeout
        }
    }

    /// A change of a call, as the tables publish it.
    struct Delta: Sendable {
        enum Change: Sendable { case joined(PresenceMember), updated(PresenceMember), left(String) }
        var version: Int
        var change: Change
    }

    /// A call that connections of this node follow.
    private struct Followed {
        var version = 0
        var members: [PresenceMember] = []
        var subscribers: [String: AsyncStream<PresenceEvent>.Continuation] = [:]
        /// A snapshot is being read; deltas wait in `pending` meanwhile.
        var loading = false
        /// Read the snapshot (again) when the current read ends.
        var stale = false
        /// Changed here while the database was away: deltas are ignored until the next snapshot.
        var diverged = false
        var pending: [Delta] = []
        /// Its subscribers have had no snapshot yet.
        var fresh = true

    mutating func apply(_ delta: PostgresPresence.Delta) {
        version = delta.version
        switch delta.change {
        case .joined(let m), .updated(let m):
            if let i = members.firstIndex(where: { $0.id == m.id }) { members[i] = m } else { members.append(m) }
        case .left(let id):
            members.removeAll { $0.id == id }
        }
    }

    func publish(_ event: PresenceEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }
    }

    public nonisolated let address: PostgresAddress
    public nonisolated let options: Options
    private let client: PostgresClient
    private let logger: Logger
    private var calls: [String: Followed] = [:]
    /// The members this node holds, by call then id: what it writes back after an outage.
    private var own: [String: [String: PresenceMember]] = [:]
    /// Members of this node that left while the database was away ("call/id"): written out on return.
    private var departed: Set<String> = []
    /// Whether the listener is connected: writes go to the database only then.
    private var online = false
    private var repairing = false
    private var repairAgain = false
    private var stopped = false
    /// Whether the listener's first attempt has ended (connected or not); calls wait for it until then, so
    /// that nothing is taken for an outage in the node's first moments.
    private var started = false
    private var startWaiters: [CheckedContinuation<Void, Never>] = []

    private init(address: PostgresAddress, options: Options, logger: Logger) {
        self.address = address
        self.options = options
        self.logger = logger
        var configuration = address.clientConfiguration
        configuration.options.connectTimeout = .seconds(5)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// A node name: host, process id and a random part.
    public nonisolated static func defaultNode() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
    }

    /// Connects once to check that the database is there, and installs the tables and functions (each
    /// idempotent). Throws a ``PresenceError`` whose sentence says what failed.
    public static func open(_ address: PostgresAddress, options: Options = Options(),
                            logger: Logger = Logger(label: "miccheck.presence")) async throws(PresenceError) -> PostgresPresence {
        do {
            let connection = try await PostgresConnection.connect(configuration: try address.connectionConfiguration(), id: 0, logger: logger)
            defer { Task { try? await connection.close() } }
            try await connection.query("BEGIN", logger: logger)
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.installLock))", logger: logger)
            for statement in PostgresSchema.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            try await connection.query("SELECT miccheck_renew(\(options.node), \(options.lease.seconds))", logger: logger)
            try await connection.query("COMMIT", logger: logger)
        } catch {
            throw PresenceError("cannot use the presence database \(address): \(Self.reason(error))")
        }
        return PostgresPresence(address: address, options: options, logger: logger)
    }

    /// What went wrong with the database, in words (PSQLError's own description hides its details).
    nonisolated static func reason(_ error: any Error) -> String {
        guard let e = error as? PSQLError else { return "\(error)" }
        if let message = e.serverInfo?[.message] { return message }
        if let underlying = e.underlying {
            let text = "\(underlying)"
            if text.contains("Connection refused") { return "connection refused (is PostgreSQL running there?)" }
            if text.lowercased().contains("timeout") || text.contains("timed out") { return "no answer (timed out)" }
            if text.contains("No such file or directory") { return "no socket there (is PostgreSQL running?)" }
            return text
        }
        return "\(e.code)"
    }

    // MARK: - The service

    /// Runs the connection pool, the listener (reconnecting with backoff) and the lease renewal with the
    /// reaper, until the service group shuts down gracefully (then this node's members leave) or the task
    /// is cancelled (then they stay until their lease runs out, as if the node had died).
    public nonisolated func run() async {
        // The pool must outlive a graceful shutdown (the node's members leave through it), and it would stop
        // at the service group's signal: it runs outside it, and stops last.
        let pool = Task.detached { [client] in await client.run() }
        defer { pool.cancel() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.listen() }
            group.addTask { await self.maintain() }
            if (try? await gracefulShutdown()) != nil { await self.leaveAll() }
            group.cancelAll()
        }
    }

    /// This node's members leave every call (a graceful shutdown).
    public func leaveAll() async {
        stopped = true
        own = [:]
        guard online else { return }
        do {
            _ = try await write("SELECT miccheck_node_leave(\(options.node))")
            logger.info("presence: node \(options.node) left its calls")
        } catch {
            logger.warning("presence: could not remove this node's members (\(Self.reason(error))); their leases will run out")
        }
    }

    private nonisolated func listen() async {
        var delay = 0.25
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                let connection = try await PostgresConnection.connect(configuration: try address.connectionConfiguration(),
                                                                      id: attempt, logger: logger)
                do {
                    try await connection.listen(on: PostgresSchema.channel) { notifications in
                        await self.connected()
                        delay = 0.25
                        for try await notification in notifications { await self.notified(notification.payload) }
                    }
                    try? await connection.close()
                    if Task.isCancelled { return }
                    await disconnected("the listening connection ended", retryIn: delay)
                } catch {
                    // A connection must be closed before it goes, even a broken one.
                    try? await connection.close()
                    throw error
                }
            } catch {
                if Task.isCancelled { return }
                await disconnected(Self.reason(error), retryIn: delay)
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
    private func start() async {
        guard !started else { return }
        await withCheckedContinuation { startWaiters.append($0) }
    }

    private func markStarted() {
        started = true
        for waiter in startWaiters { waiter.resume() }
        startWaiters = []
    }

    private func connected() {
        let wasOnline = online
        online = true
        defer { markStarted() }
        if !wasOnline { logger.notice("presence: listening on \(address)") }
        // Nothing to mend on the first connection: calls wait for it before they touch the tables.
        if started { scheduleRepair() }
    }

    private func disconnected(_ reason: String, retryIn delay: Double) {
        if online || delay == 0.25 {
            logger.warning("presence: lost the database (\(reason)); local calls go on; reconnecting every \(delay < 5 ? "few" : "5") seconds")
        }
        online = false
        markStarted()
    }

    private func renewAndReap() async {
        guard online, !stopped else { return }
        let lease = options.lease.seconds
        do {
            let ownCount = own.values.reduce(0) { $0 + $1.count }
            let renewed = try await renew()
            // Members reaped while this node was cut off (a lease that ran out) are written back.
            if renewed < ownCount { scheduleRepair() }
            _ = try await write("SELECT miccheck_reap(\(lease))::bigint")
        } catch {
            if Task.isCancelled { return }  // the node is stopping
            logger.warning("presence: could not renew leases (\(Self.reason(error)))")
        }
    }

    // MARK: - Repair: after an outage, the database gets this node's members back and the calls their snapshot

    private func scheduleRepair() {
        guard !repairing else { repairAgain = true; return }
        repairing = true
        Task { await self.repair() }
    }

    private func repair() async {
        var delay = 0.25
        while online, !stopped {
            repairAgain = false
            do {
                // The node's lease first: its members are written under it.
                _ = try await renew()
                var count = 0
                for (call, members) in own {
                    for member in members.values {
                        try await writeJoin(call: call, member: member)
                        count += 1
                    }
                }
                for key in departed {
                    let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
                    guard parts.count == 2 else { continue }
                    _ = try await write("SELECT miccheck_leave(\(parts[0]), \(parts[1]))")
                    departed.remove(key)
                }
                for call in calls.keys { await resync(call) }
                if !repairAgain {
                    logger.notice("presence: in step with the database: \(count) member(s) of this node, \(calls.count) call(s) followed")
                    break
                }
            } catch {
                logger.warning("presence: resync failed (\(Self.reason(error))); trying again")
                try? await Task.sleep(for: .seconds(delay))
                delay = min(delay * 2, 5)
            }
        }
        repairing = false
    }

    // MARK: - PresenceStore

    public func subscribe(call id: String, subscriber: String) async -> AsyncStream<PresenceEvent> {
        await start()
        let (stream, continuation) = AsyncStream.makeStream(of: PresenceEvent.self, bufferingPolicy: .bufferingOldest(options.backlog))
        if var call = calls[id] {
            call.subscribers[subscriber]?.finish()
            call.subscribers[subscriber] = continuation
            // Still loading: the snapshot reaches every subscriber when it is read, this one included
            // (even when it tells the others nothing new).
            if call.loading {
                call.fresh = true
            } else {
                continuation.yield(.snapshot(version: call.version, members: call.members))
            }
            calls[id] = call
            return stream
        }
        var call = Followed()
        call.subscribers[subscriber] = continuation
        calls[id] = call
        await resync(id)
        return stream
    }

    public func unsubscribe(call id: String, subscriber: String) {
        calls[id]?.subscribers.removeValue(forKey: subscriber)?.finish()
        if calls[id]?.subscribers.isEmpty == true { calls[id] = nil }
    }

    public func snapshot(call id: String) async -> PresenceEvent {
        await start()
        if let call = calls[id], !call.loading, !call.diverged { return .snapshot(version: call.version, members: call.members) }
        if online, let (version, members) = try? await readSnapshot(id) { return .snapshot(version: version, members: members) }
        return .snapshot(version: calls[id]?.version ?? 0, members: calls[id]?.members ?? ownMembers(id))
    }

    public func join(call id: String, member: PresenceMember) async {
        await start()
        own[id, default: [:]][member.id] = member
        departed.remove("\(id)/\(member.id)")
        if online {
            do {
                try await writeJoin(call: id, member: member)
                return
            } catch {
                wentAway(error)
            }
        }
        applyHere(id, .joined(member))
    }

    public func update(call id: String, member: PresenceMember) async {
        await start()
        guard let old = own[id]?[member.id], old != member else { return }
        own[id]?[member.id] = member
        if online {
            do {
                _ = try await write("""
                    SELECT miccheck_update(\(id), \(member.id), \(member.name), \(member.audio), \(member.video), \(member.speaking))
                    """)
                return
            } catch {
                wentAway(error)
            }
        }
        applyHere(id, .updated(member))
    }

    public func leave(call id: String, id member: String) async {
        await start()
        guard own[id]?.removeValue(forKey: member) != nil else { return }
        if own[id]?.isEmpty == true { own[id] = nil }
        if online {
            do {
                _ = try await write("SELECT miccheck_leave(\(id), \(member))")
                return
            } catch {
                wentAway(error)
            }
        }
        departed.insert("\(id)/\(member)")
        applyHere(id, .left(member))
    }

    public func signal(call id: String, from: String, to: String, payload: JSONValue) async -> Bool {
        await start()
        // On this node: straight to its connection.
        if let target = calls[id]?.subscribers[to] {
            if case .dropped = target.yield(.signal(from: from, payload: payload)) { return false }
            return true
        }
        guard online, calls[id]?.members.contains(where: { $0.id == to }) == true else { return false }
        var fields: [(String, JSONValue)] = [("call", .string(id)), ("kind", .string("signal")), ("from", .string(from)),
                                             ("to", .string(to))]
        do {
            let data = payload.encoded
            // A notification's payload holds under 8,000 bytes; a larger description goes through a table.
            if data.utf8.count > 7_000 {
                guard let ref = try await write("INSERT INTO miccheck_signals (payload) VALUES (\(data)) RETURNING id") else { return false }
                fields.append(("ref", .int(ref)))
            } else {
                fields.append(("data", payload))
            }
            _ = try await write("SELECT 1 FROM pg_notify(\(PostgresSchema.channel), \(JSONValue.object(fields).encoded))")
            return true
        } catch {
            wentAway(error)
            return false
        }
    }

    // MARK: - Notifications

    private func notified(_ payload: String) async {
        guard let message = try? ClientMessage(fields: Self.fields(payload), type: ""), let call = try? message.string("call"),
              let kind = try? message.string("kind") else {
            logger.warning("presence: a notification MicCheck cannot read: \(payload.prefix(200))")
            return
        }
        if kind == "signal" {
            await deliverSignal(message, call: call)
            return
        }
        guard let delta = Self.delta(message, kind: kind) else {
            logger.warning("presence: a notification MicCheck cannot read: \(payload.prefix(200))")
            return
        }
        receive(delta, call: call)
    }

    private func receive(_ delta: Delta, call id: String) {
        guard var call = calls[id], !call.diverged else { return }
        if call.loading {
            calls[id]?.pending.append(delta)
            return
        }
        guard delta.version > call.version else { return }  // in the snapshot already
        guard delta.version == call.version + 1 else {
            logger.info("presence: call \(id) went from version \(call.version) to \(delta.version); resyncing")
            Task { await self.resync(id) }
            return
        }
        call.apply(delta)
        calls[id] = call
        call.publish(Self.event(delta))
    }

    private func deliverSignal(_ message: ClientMessage, call: String) async {
        guard let to = try? message.string("to"), let from = try? message.string("from"),
              calls[call]?.subscribers[to] != nil else { return }
        var data = try? message.object("data")
        if data == nil, let ref = try? message.number("ref"), let id = Int(exactly: ref) {
            let stored = try? await write("DELETE FROM miccheck_signals WHERE id = \(id) RETURNING payload") { try $0.decode(String?.self) }
            data = stored.flatMap { try? ClientMessage(fields: Self.fields($0), type: "signal") }
        }
        guard let data, let payload = try? Signal.check(data) else {
            logger.warning("presence: a signal for \(to) that MicCheck cannot read")
            return
        }
        _ = calls[call]?.subscribers[to]?.yield(.signal(from: from, payload: payload))
    }

    /// Reads the call's snapshot and hands it to its connections, then the deltas that came meanwhile.
    private func resync(_ id: String) async {
        guard calls[id] != nil else { return }
        calls[id]?.stale = true
        guard calls[id]?.loading == false else { return }  // the read under way reads again
        calls[id]?.loading = true
        let before = calls[id].map { (version: $0.version, members: $0.members) }
        while calls[id]?.stale == true {
            calls[id]?.stale = false
            do {
                guard online else { throw PresenceError("the database is away") }
                let (version, members) = try await readSnapshot(id)
                guard calls[id] != nil else { return }
                calls[id]?.version = version
                calls[id]?.members = members
                calls[id]?.diverged = false
            } catch {
                // Without the database: this node's own members, until it is back.
                calls[id]?.members = ownMembers(id)
                calls[id]?.diverged = true
                calls[id]?.stale = false
                if online { wentAway(error) }
            }
        }
        guard var call = calls[id] else { return }
        call.loading = false
        let pending = call.pending.sorted { $0.version < $1.version }
        call.pending = []
        // A snapshot when the subscribers have none yet, or it tells them something new.
        let publish = call.fresh || call.version != before?.version || call.members != before?.members
        call.fresh = false
        calls[id] = call
        if publish { call.publish(.snapshot(version: call.version, members: call.members)) }
        for delta in pending { receive(delta, call: id) }
    }

    // MARK: - Without the database

    /// A write failed: the node carries on alone and writes its members back once it can.
    private func wentAway(_ error: any Error) {
        logger.warning("presence: a write to the database failed (\(Self.reason(error))); local calls go on; resyncing")
        scheduleRepair()
    }

    /// The members of `id` that this node holds, in id order: all it knows of the call without the database.
    private func ownMembers(_ id: String) -> [PresenceMember] {
        (own[id] ?? [:]).values.sorted { $0.id < $1.id }
    }

    /// A change of this node's own member reaches this node's connections without the database.
    private func applyHere(_ id: String, _ change: Delta.Change) {
        guard var call = calls[id] else { return }
        let delta = Delta(version: call.version + 1, change: change)
        call.apply(delta)
        call.diverged = true
        calls[id] = call
        call.publish(Self.event(delta))
    }

    // MARK: - Queries

    /// Runs one statement of the caller's (tests, tools).
    func execute(_ statement: String) async throws {
        _ = try await write(PostgresQuery(unsafeSQL: statement))
    }

    /// Renews this node's lease (making it if it is gone); returns how many members the tables hold for it.
    private func renew() async throws -> Int {
        try await write("SELECT miccheck_renew(\(options.node), \(options.lease.seconds))") ?? 0
    }

    private func writeJoin(call: String, member: PresenceMember) async throws {
        _ = try await write("""
            SELECT miccheck_join(\(call), \(member.id), \(options.node), \(member.name), \(member.audio), \(member.video),
                                 \(member.speaking))
            """)
    }

    /// Runs a statement and returns its first row's first column (nil when there is none, or it is NULL),
    /// giving up after ``Options/writeTimeout``.
    @discardableResult
    private func write(_ query: PostgresQuery) async throws -> Int? {
        try await write(query) { try $0.decode(Int?.self) }
    }

    /// Runs a statement and decodes its first row with `decode` (nil when there is no row), giving up after
    /// ``Options/writeTimeout``.
    private func write<T: Sendable>(_ query: PostgresQuery, decode: @escaping @Sendable (PostgresRow) throws -> T?) async throws -> T? {
        let client = client
        let logger = logger
        return try await answered {
            let rows = try await client.query(query, logger: logger)
            for try await row in rows { return try decode(row) }
            return nil
        }
    }

    /// `body`'s result, or a ``PresenceError`` when it takes longer than ``Options/writeTimeout`` (the
    /// database then counts as away).
    private func answered<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = options.writeTimeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask(operation: body)
            group.addTask {
                try await Task.sleep(for: timeout)
                throw PresenceError("no answer within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw PresenceError("no answer") }
            return first
        }
    }

    private func readSnapshot(_ id: String) async throws -> (Int, [PresenceMember]) {
        let client = client
        let logger = logger
        let query: PostgresQuery = """
            SELECT c.version, m.id, m.name, m.audio, m.video, m.speaking
            FROM miccheck_calls c LEFT JOIN miccheck_members m ON m.call = c.id
            WHERE c.id = \(id) ORDER BY m.seq
            """
        return try await answered {
            var version = 0
            var members: [PresenceMember] = []
            let rows = try await client.query(query, logger: logger)
            for try await (v, mid, name, audio, video, speaking) in rows.decode((Int, String?, String?, Bool?, Bool?, Bool?).self) {
                version = v
                if let mid, let name {
                    members.append(PresenceMember(id: mid, name: name, audio: audio ?? false, video: video ?? false,
                                                  speaking: speaking ?? false))
                }
            }
            return (version, members)
        }
    }

    // MARK: - Reading notifications

    nonisolated static func fields(_ text: String) throws -> [String: JSONInput] {
        guard case .object(let fields) = try JSONDecoder().decode(JSONInput.self, from: Data(text.utf8)) else {
            throw PresenceError("not a JSON object")
        }
        return fields
    }

    nonisolated static func delta(_ message: ClientMessage, kind: String) -> Delta? {
        guard let v = try? message.number("v"), let version = Int(exactly: v) else { return nil }
        switch kind {
        case "joined", "updated":
            guard let m = try? message.object("member"), let id = try? m.string("id"), let name = try? m.string("name"),
                  let audio = try? m.bool("audio"), let video = try? m.bool("video"), let speaking = try? m.bool("speaking")
            else { return nil }
            let member = PresenceMember(id: id, name: name, audio: audio, video: video, speaking: speaking)
            return Delta(version: version, change: kind == "joined" ? .joined(member) : .updated(member))
        case "left":
            guard let id = try? message.string("id") else { return nil }
            return Delta(version: version, change: .left(id))
        default:
            return nil
        }
    }

    nonisolated static func event(_ delta: Delta) -> PresenceEvent {
        switch delta.change {
        case .joined(let m): .joined(version: delta.version, m)
        case .updated(let m): .updated(version: delta.version, m)
        case .left(let id): .left(version: delta.version, id: id)
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
