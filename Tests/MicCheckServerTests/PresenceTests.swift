import MicCheck
import Testing

@testable import MicCheckServer

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

    @Test("the presence budget: a burst, then a few updates a second; what waits is the latest state, sent later")
    func budget() {
        var budget = PresenceBudget(changesPerSecond: 5, joinsPerMinute: 12)
        var published: [PresenceMember] = []
        var member = PresenceMember(id: "s", name: "Sam", audio: true, video: false)
        // 2,000 flips in one second: the burst of 20, then each new state waits.
        for i in 0..<2_000 {
            member.audio = i % 2 == 1
            if case .publish(let m) = budget.update(member, now: Double(i) / 2_000) { published.append(m) }
        }
        #expect(published.count == 20 + 5 - 1 || published.count == 20 + 5, "the burst and a second's worth")
        #expect(budget.pending?.audio == true, "the last flip's state waits")
        // The timer, four times a second: the latest state goes out once, then nothing is left.
        #expect(budget.due(now: 1.3)?.audio == true)
        #expect(budget.due(now: 1.55) == nil && budget.pending == nil)
        // Joins: a burst of 4, then one each 5 s.
        var joins = PresenceBudget(changesPerSecond: 5, joinsPerMinute: 12)
        #expect((0..<4).allSatisfy { _ in joins.join(now: 0) })
        #expect(!joins.join(now: 1) && joins.join(now: 5.1) && !joins.join(now: 5.2))
        // A leave drops what waited; 0 is no bound.
        var free = PresenceBudget(changesPerSecond: 0, joinsPerMinute: 0)
        #expect((0..<10_000).allSatisfy { _ in free.join(now: 0) })
        #expect((0..<10_000).allSatisfy { free.update(member, now: Double($0) * 1e-6) == .publish(member) })
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

    @Test(
        "joins into a call from one address, across connections: a burst, then one a second; calls and addresses apart")
    func joinLedger() {
        let ledger = JoinLedger(perMinute: 60)
        #expect((0..<32).allSatisfy { ledger.join(call: "c", address: "2001:db8::/64", now: Double($0) * 0.01) })
        #expect(!ledger.join(call: "c", address: "2001:db8::/64", now: 0.5), "a looper that connects again")
        #expect(ledger.join(call: "c", address: "2001:db8:1::/64", now: 0.5), "another address")
        #expect(ledger.join(call: "d", address: "2001:db8::/64", now: 0.5), "another call")
        #expect(ledger.join(call: "c", address: "2001:db8::/64", now: 1.6), "a second later")
        #expect(!ledger.join(call: "c", address: "2001:db8::/64", now: 1.7))
        // Thousands of addresses: the buckets that filled again are forgotten, the others kept.
        for i in 0..<(JoinLedger.pruneAt + 10) { _ = ledger.join(call: "c", address: "10.0.\(i)", now: 1.75) }
        #expect(!ledger.join(call: "c", address: "2001:db8::/64", now: 1.8), "the looper's bucket is not forgotten")
        #expect(ledger.join(call: "c", address: "10.0.1", now: 100))
        let free = JoinLedger(perMinute: 0)
        #expect((0..<1_000).allSatisfy { _ in free.join(call: "c", address: "a", now: 0) })
    }

    @Test("events as the call protocol's messages")
    func messages() {
        let m = PresenceMember(id: "a", name: "Ada \"A\"", audio: true, video: false, speaking: true)
        #expect(
            PresenceEvent.updated(version: 7, m).json.encoded
                == #"{"type": "updated", "version": 7, "participant": {"id": "a", "name": "Ada \"A\"", "audio": true, "video": false, "speaking": true}}"#
        )
        #expect(PresenceEvent.left(version: 8, id: "a").json.encoded == #"{"type": "left", "version": 8, "id": "a"}"#)
    }
}

@Suite("The outbox of a connection")
struct OutboxTests {
    private func event(_ text: String) -> Connection.Message { Connection.Message(text: text, isLevel: false) }
    private func level(_ text: String) -> Connection.Message { Connection.Message(text: text, isLevel: true) }

    @Test("levels coalesce; events are kept in order; past the count the client is too slow")
    func coalesce() {
        var box = Outbox(limit: 3)
        let ok1 = box.push(event("e1"))
        #expect(ok1)
        let ok2 = box.push(level("l1"))
        #expect(ok2)
        let ok3 = box.push(level("l2"))
        #expect(ok3)
        let ok4 = box.push(event("e2"))
        #expect(ok4)
        #expect(box.count == 3)
        let ok5 = box.push(event("e3"))
        #expect(!ok5)
        let ok6 = box.push(level("l3"))
        #expect(ok6, "a level replaces the unsent one and never overflows")
        #expect(box.takeAll() == ["e1", "l3", "e2"])
        #expect(box.isEmpty && box.bytes == 0)
        let ok7 = box.push(level("l4"))
        #expect(ok7)
        let ok8 = box.push(level("l5"))
        #expect(ok8)
        #expect(box.takeAll() == ["l5"], "after a hand-over the next level queues anew")
    }

    @Test("presence changes waiting are dropped whole; the rest keeps its order, and the level its place")
    func presenceDropped() {
        var box = Outbox(limit: 100)
        func change(_ text: String) -> Connection.Message {
            Connection.Message(text: text, isLevel: false, isPresence: true)
        }
        var pushed: [Bool] = []
        for message in [change("j1"), event("signal"), change("u1"), level("l1"), change("left1"), event("notice")] {
            pushed.append(box.push(message))
        }
        #expect(pushed.allSatisfy { $0 })
        #expect(box.presenceWaiting == 3 && box.count == 6)
        box.dropPresence()
        #expect(box.presenceWaiting == 0 && box.bytes == "signall1notice".utf8.count)
        let levelCoalesced = box.push(level("l2"))
        let changeQueued = box.push(change("j2"))
        #expect(levelCoalesced && changeQueued)
        #expect(box.takeAll() == ["signal", "l2", "notice", "j2"], "the level coalesces where it stands")
        #expect(box.presenceWaiting == 0)
    }

    @Test(
        "past the size the client is too slow, counting what the writer holds; a replaced level is counted at its size")
    func bytes() {
        var box = Outbox(limit: 100, byteLimit: 10)
        let ok9 = box.push(event("12345"))
        #expect(ok9)
        let ok10 = box.push(level("12"))
        #expect(ok10)
        #expect(box.bytes == 7)
        let ok11 = box.push(level("1234"))
        #expect(ok11)
        #expect(box.bytes == 9)
        let ok12 = box.push(event("12"))
        #expect(!ok12, "11 bytes")
        let ok13 = box.push(event("1"))
        #expect(ok13)
        #expect(box.takeAll().count == 3)
        let ok14 = box.push(event("123"), inFlight: 8)
        #expect(!ok14, "8 bytes still with the writer")
        let ok15 = box.push(event("12"), inFlight: 8)
        #expect(ok15)
    }
}
