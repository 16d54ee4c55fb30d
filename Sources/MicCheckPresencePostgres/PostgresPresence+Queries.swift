import Foundation
import Logging
import MicCheckPresence
import PostgresNIO

/// The queries of ``PostgresPresence``: each one bounded by ``PostgresPresence/Options/writeTimeout``.
extension PostgresPresence {
    /// Runs one statement of the caller's (tests, tools).
    func execute(_ statement: String) async throws {
        _ = try await write(PostgresQuery(unsafeSQL: statement))
    }

    /// Renews this node's lease (making it if it is gone); returns how many members the tables hold for it.
    func renew() async throws -> Int {
        try await write("SELECT miccheck_renew(\(options.node), \(options.lease.seconds))") ?? 0
    }

    func writeJoin(call: String, member: PresenceMember) async throws {
        _ = try await write(
            """
            SELECT miccheck_join(\(call), \(member.id), \(options.node), \(member.name), \(member.audio), \(member.video),
                                 \(member.speaking))
            """)
    }

    /// Runs a statement and returns its first row's first column (nil when there is none, or it is NULL),
    /// giving up after ``Options/writeTimeout``.
    @discardableResult
    func write(_ query: PostgresQuery) async throws -> Int? {
        try await write(query) { try $0.decode(Int?.self) }
    }

    /// Runs a statement and decodes its first row with `decode` (nil when there is no row), giving up after
    /// ``Options/writeTimeout``.
    func write<T: Sendable>(
        _ query: PostgresQuery, decode: @escaping @Sendable (PostgresRow) throws -> T?
    ) async throws -> T? {
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
    func answered<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = options.writeTimeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask(operation: body)
            group.addTask {
                try await Task.sleep(for: timeout)
                throw PresenceError.noAnswer(within: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw PresenceError.noAnswer(within: timeout) }
            return first
        }
    }

    func readSnapshot(_ id: String) async throws -> (Int, [PresenceMember]) {
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
            for try await (v, mid, name, audio, video, speaking) in rows.decode(
                (Int, String?, String?, Bool?, Bool?, Bool?).self)
            {
                version = v
                if let mid, let name {
                    members.append(
                        PresenceMember(
                            id: mid, name: name, audio: audio ?? false, video: video ?? false,
                            speaking: speaking ?? false))
                }
            }
            return (version, members)
        }
    }

    /// Whether the database answered `error` itself (it refused a statement, for this member's data):
    /// not an outage, and writing the same again would fail again.
    nonisolated static func isRefusal(_ error: any Error) -> Bool { (error as? PSQLError)?.serverInfo != nil }

    /// What went wrong with the database, in words (PSQLError's own description hides its details).
    nonisolated static func reason(_ error: any Error) -> String {
        if let e = error as? PresenceError { return e.description }
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
}
