import MicCheckKernel
import MicCheckPresence
import Testing

@Suite("Presence in memory")
struct MemoryPresenceTests {
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

    @Test(
        "signals reach only the member they are addressed to; a stranger, a page in its lobby and one that left are refused"
    )
    func signals() async {
        let presence = MemoryPresence()
        var a = await presence.subscribe(call: "c", subscriber: "a").makeAsyncIterator()
        var b = await presence.subscribe(call: "c", subscriber: "b").makeAsyncIterator()
        _ = await next(&a)
        _ = await next(&b)
        let payload = JSONValue.object([("candidate", .object([("candidate", .string("x"))]))])
        // B is connected but in its lobby: nothing reaches it.
        #expect(await !presence.signal(call: "c", from: "a", to: "b", payload: payload))
        let bob = PresenceMember(id: "b", name: "B", audio: true, video: true)
        await presence.join(call: "c", member: bob)
        #expect(await next(&b) == .joined(version: 1, bob))
        #expect(await presence.signal(call: "c", from: "a", to: "b", payload: payload))
        #expect(await !presence.signal(call: "c", from: "a", to: "nobody", payload: payload))
        #expect(await next(&b) == .signal(from: "a", payload: payload))
        await presence.leave(call: "c", id: "b")
        #expect(await next(&b) == .left(version: 2, id: "b"))
        #expect(await !presence.signal(call: "c", from: "a", to: "b", payload: payload), "B left, though connected")
        await presence.join(call: "c", member: PresenceMember(id: "z", name: "Z", audio: true, video: true))
        // B's next event is the join: no signal reached it after it left.
        if case .joined = await next(&b) {} else { Issue.record("b got something besides the join") }
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
        for i in 0..<10 {
            await presence.join(call: "c", member: PresenceMember(id: "m\(i)", name: "M", audio: true, video: true))
        }
        await presence.unsubscribe(call: "c", subscriber: "slow")
        var versions: [Int?] = []
        for await e in stream { versions.append(e.version) }
        #expect(versions == [0, 1, 2])
        #expect(await presence.snapshot(call: "c").version == 10)
    }
}
