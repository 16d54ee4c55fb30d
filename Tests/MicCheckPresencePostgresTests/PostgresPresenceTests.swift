import Foundation
import MicCheck
import MicCheckPresence
import MicCheckTesting
import Testing

@testable import MicCheckPresencePostgres

@Suite("PostgreSQL addresses")
struct PostgresAddressTests {
    @Test("libpq's URL forms: host and port, socket folder, sslmode; the password never shown")
    func forms() throws {
        let a = try PostgresAddress("postgres://ada:secret@db.example:6543/calls?sslmode=require")
        #expect(a.host == "db.example" && a.port == 6543 && a.user == "ada" && a.password == "secret")
        #expect(a.database == "calls" && a.tls == .require && a.socketFolder == nil)
        #expect(a.description == "postgres://ada:***@db.example:6543/calls")
        let b = try PostgresAddress("postgresql://postgres@localhost/postgres")
        #expect(b.port == 5432 && b.tls == .prefer && b.password == nil)
        let c = try PostgresAddress("postgres://postgres@/postgres?host=/run/postgresql")
        #expect(c.socketFolder == "/run/postgresql")
        #expect(c.description == "postgres://postgres@/run/postgresql/.s.PGSQL.5432/postgres")
    }

    @Test("what is wrong with an address, in one sentence that hides the password")
    func refusals() {
        func reason(_ text: String) -> String {
            do {
                _ = try PostgresAddress(text)
                return "accepted"
            } catch { return error.description }
        }
        #expect(reason("mysql://ada@db/calls").contains("is not a PostgreSQL address"))
        #expect(
            reason("postgres://ada:hunter2@db/calls?sslmode=maybe")
                == "sslmode=maybe: MicCheck knows disable, prefer and require")
        #expect(reason("postgres://db/calls").contains("needs a user"))
        #expect(reason("postgres://ada@db/calls?timeout=3").contains("unknown parameter \"timeout\""))
        #expect(reason("postgres://ada@:5432/calls").contains("needs a host"))
        #expect(!reason("mysql://ada:hunter2@db/calls").contains("hunter2"))
    }
}

/// Presence through a real PostgreSQL: `MICCHECK_TEST_POSTGRES` (scripts/test.sh starts a private cluster
/// and sets it). Each test uses calls of its own, so that tests may share the database.
@Suite(
    "Presence in PostgreSQL", .tags(.live), .timeLimit(.minutes(1)),
    .enabled(if: ProcessInfo.processInfo.environment["MICCHECK_TEST_POSTGRES"] != nil, "needs MICCHECK_TEST_POSTGRES"))
struct PostgresPresenceTests {
    let address: PostgresAddress

    init() throws {
        address = try PostgresAddress(ProcessInfo.processInfo.environment["MICCHECK_TEST_POSTGRES"] ?? "")
    }

    /// A node: the store, running until the returned task is cancelled (as if the node died).
    private func node(
        _ name: String, lease: Duration = .seconds(10)
    ) async throws -> (PostgresPresence, Task<Void, Never>) {
        let presence = try await PostgresPresence.open(
            address, options: .init(lease: lease, node: name + "-" + UUID().uuidString))
        let task = Task { await presence.run() }
        return (presence, task)
    }

    private func call() -> String { "test-" + UUID().uuidString.prefix(8).lowercased() }

    @Test(
        "two nodes: a snapshot, then each change of the other node's member with the next version; nothing for no change"
    )
    func acrossNodes() async throws {
        let (one, t1) = try await node("one")
        let (two, t2) = try await node("two")
        defer {
            t1.cancel()
            t2.cancel()
        }
        let id = call()
        let ada = PresenceMember(id: "ada", name: "Ada", audio: true, video: false)
        await one.join(call: id, member: ada)
        let stream = await two.subscribe(call: id, subscriber: "bob")
        var it = stream.makeAsyncIterator()
        #expect(await it.next() == .snapshot(version: 1, members: [ada]))
        var speaking = ada
        speaking.speaking = true
        await one.update(call: id, member: speaking)
        await one.update(call: id, member: speaking)  // no change: nothing published
        #expect(await it.next() == .updated(version: 2, speaking))
        let bob = PresenceMember(id: "bob", name: "Bob", audio: false, video: true)
        await two.join(call: id, member: bob)
        #expect(await it.next() == .joined(version: 3, bob))
        await one.leave(call: id, id: "ada")
        #expect(await it.next() == .left(version: 4, id: "ada"))
        #expect(await one.snapshot(call: id) == .snapshot(version: 4, members: [bob]))
        await two.leave(call: id, id: "bob")
        await two.unsubscribe(call: id, subscriber: "bob")
    }

    @Test("a gap in versions (a change the node never heard) brings a fresh snapshot")
    func gapResyncs() async throws {
        let (one, t1) = try await node("one")
        defer { t1.cancel() }
        let id = call()
        var it = await one.subscribe(call: id, subscriber: "s").makeAsyncIterator()
        #expect(await it.next() == .snapshot(version: 0, members: []))
        // Another writer bumps the version without a notification: the next delta shows a gap.
        let (other, t2) = try await node("other")
        defer { t2.cancel() }
        let ghost = PresenceMember(id: "ghost", name: "Ghost", audio: true, video: true)
        await other.join(call: id, member: ghost)
        #expect(await it.next() == .joined(version: 1, ghost))
        try await sql(other, "UPDATE miccheck_calls SET version = version + 5 WHERE id = '\(id)'")
        let ada = PresenceMember(id: "ada", name: "Ada", audio: true, video: true)
        await other.join(call: id, member: ada)
        #expect(await it.next() == .snapshot(version: 7, members: [ghost, ada]))
        await other.leaveAll()
    }

    /// A signal's sender and JSON, whatever its keys' order (a stored signal comes back with its keys sorted).
    static func signal(_ event: PresenceEvent?) -> JSONInput? {
        guard case .signal(let from, let payload)? = event else { return nil }
        return .object(["from": .string(from), "data": JSONInput(payload)])
    }

    @Test("signals between nodes, small and over a notification's size; a stranger is refused")
    func signals() async throws {
        let (one, t1) = try await node("one")
        let (two, t2) = try await node("two")
        defer {
            t1.cancel()
            t2.cancel()
        }
        let id = call()
        await one.join(call: id, member: PresenceMember(id: "ada", name: "Ada", audio: true, video: true))
        var ada = await one.subscribe(call: id, subscriber: "ada").makeAsyncIterator()
        _ = await ada.next()
        await two.join(call: id, member: PresenceMember(id: "bob", name: "Bob", audio: true, video: true))
        var bob = await two.subscribe(call: id, subscriber: "bob").makeAsyncIterator()
        _ = await bob.next()
        _ = await ada.next()  // Bob joined
        let big = JSONValue.object([
            (
                "description",
                .object([
                    ("type", .string("offer")),
                    ("sdp", .string(String(repeating: "a=x\r\n", count: 3_000))),
                ])
            )
        ])
        #expect(await one.signal(call: id, from: "ada", to: "bob", payload: big))
        #expect(Self.signal(await bob.next()) == Self.signal(.signal(from: "ada", payload: big)))
        let small = JSONValue.object([
            (
                "candidate",
                .object([
                    ("candidate", .string("candidate:1 1 udp 1 127.0.0.1 9 typ host")),
                    ("sdpMLineIndex", .int(0)),
                ])
            )
        ])
        #expect(await two.signal(call: id, from: "bob", to: "ada", payload: small))
        #expect(Self.signal(await ada.next()) == Self.signal(.signal(from: "bob", payload: small)))
        #expect(await !one.signal(call: id, from: "ada", to: "nobody", payload: small))
        await one.leaveAll()
        await two.leaveAll()
    }

    @Test("a node that stops without leaving (it died): its members are reaped after the lease, and leave")
    func reaper() async throws {
        let (dying, t1) = try await node("dying", lease: .seconds(1))
        let (alive, t2) = try await node("alive", lease: .seconds(1))
        defer { t2.cancel() }
        let id = call()
        var ada = PresenceMember(id: "ada", name: "Ada", audio: true, video: false)
        await dying.join(call: id, member: ada)
        ada.speaking = true
        await dying.update(call: id, member: ada)
        var it = await alive.subscribe(call: id, subscriber: "bob").makeAsyncIterator()
        #expect(await it.next() == .snapshot(version: 2, members: [ada]))
        let died = ContinuousClock.now
        t1.cancel()
        #expect(await it.next() == .left(version: 3, id: "ada"))
        // Within the lease and a renewal period, with a second's slack for this machine.
        #expect(ContinuousClock.now - died < .milliseconds(2_400))
    }

    private func sql(_ presence: PostgresPresence, _ statement: String) async throws {
        try await presence.execute(statement)
    }
}
