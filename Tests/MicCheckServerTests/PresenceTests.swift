import MicCheck
@testable import MicCheckServer
import Testing

@Suite("Presence in memory")
struct PresenceTests {
    private func next(_ it: inout AsyncStream<PresenceEvent>.Iterator) async -> PresenceEvent? { await it.next() }

    @Test("a subscriber gets a snapshot, then every change with the next version; a joiner sees current speakers")
    func snapshotThenDeltas() async throws {
        let presence = MemoryPresence()
        let ada = PresenceMember(id: "a", name: "Ada", audio: true, video: true)
        await presence.join(call: "c", member: ada)
        var speaking = ada
        speaking.speaking = true
        await presence.update(call: "c", member: speaking)
        var it = await presence.subscribe(call: "c", subscriber: "b").makeAsyncIterator()
        #expect(await next(&it) == .snapshot(version: 2, members: [speaking]))
        let bob = PresenceMember(id: "b", name: "Bob", audio: false, video: false)
        await presence.join(call: "c", member: bob)
        #expect(await next(&it) == .joined(version: 3, bob))
        await presence.update(call: "c", member: speaking)  // no change: no event, no version
        await presence.leave(call: "c", id: "a")
        #expect(await next(&it) == .left(version: 4, id: "a"))
        #expect(await presence.snapshot(call: "c") == .snapshot(version: 4, members: [bob]))
        await presence.unsubscribe(call: "c", subscriber: "b")
        #expect(await next(&it) == nil)
    }

    @Test("signals reach only the one they are addressed to; a stranger is refused")
    func signals() async {
        let presence = MemoryPresence()
        var a = await presence.subscribe(call: "c", subscriber: "a").makeAsyncIterator()
        var b = await presence.subscribe(call: "c", subscriber: "b").makeAsyncIterator()
        _ = await next(&a); _ = await next(&b)
        let payload = JSONValue.object([("candidate", .object([("candidate", .string("x"))]))])
        #expect(await presence.signal(call: "c", from: "a", to: "b", payload: payload))
        #expect(await !presence.signal(call: "c", from: "a", to: "nobody", payload: payload))
        #expect(await next(&b) == .signal(from: "a", payload: payload))
        await presence.join(call: "c", member: PresenceMember(id: "z", name: "Z", audio: true, video: true))
        // A's next event is the join: the signal never reached it.
        if case .joined = await next(&a) {} else { Issue.record("a got something besides the join") }
    }

    @Test("calls are separate")
    func separateCalls() async {
        let presence = MemoryPresence()
        await presence.join(call: "one", member: PresenceMember(id: "a", name: "A", audio: true, video: true))
        #expect(await presence.snapshot(call: "two") == .snapshot(version: 0, members: []))
    }

    @Test("a subscriber that falls behind loses the newest changes, which shows as a gap in versions")
    func backlog() async {
        let presence = MemoryPresence(backlog: 3)
        let stream = await presence.subscribe(call: "c", subscriber: "slow")
        for i in 0..<10 { await presence.join(call: "c", member: PresenceMember(id: "m\(i)", name: "M", audio: true, video: true)) }
        await presence.unsubscribe(call: "c", subscriber: "slow")
        var versions: [Int?] = []
        for await e in stream { versions.append(e.version) }
        #expect(versions == [0, 1, 2])
        #expect(await presence.snapshot(call: "c").version == 10)
    }

    @Test("events as the call protocol's messages")
    func messages() {
        let m = PresenceMember(id: "a", name: "Ada \"A\"", audio: true, video: false, speaking: true)
        #expect(PresenceEvent.updated(version: 7, m).json.encoded
                == #"{"type": "updated", "version": 7, "participant": {"id": "a", "name": "Ada \"A\"", "audio": true, "video": false, "speaking": true}}"#)
        #expect(PresenceEvent.left(version: 8, id: "a").json.encoded == #"{"type": "left", "version": 8, "id": "a"}"#)
    }
}

@Suite("The outbox of a connection")
struct OutboxTests {
    @Test("levels coalesce; events are kept in order; past the limit the client is too slow")
    func coalesce() async {
        let box = Outbox(limit: 3)
        #expect(box.push("e1"))
        #expect(box.push("l1", level: true))
        #expect(box.push("l2", level: true))
        #expect(box.push("e2"))
        #expect(box.count == 3)
        #expect(!box.push("e3"))
        #expect(box.push("l3", level: true), "a level replaces the unsent one and never overflows")
        #expect(await box.next() == "e1")
        #expect(await box.next() == "l3")
        #expect(await box.next() == "e2")
        #expect(box.push("l4", level: true))
        box.close()
        #expect(await box.next() == "l4")
        #expect(await box.next() == nil)
    }

    @Test("a reader gets a message pushed before or while it waits")
    func waiting() async {
        let box = Outbox()
        let reader = Task { await box.next() }
        box.push("x")
        #expect(await reader.value == "x")
        #expect(box.count == 0)
    }
}
