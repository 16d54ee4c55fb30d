import MicCheck
import Testing

@testable import MicCheckServer

@Suite("Presence on the server")
struct PresenceTests {
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
    private func event(_ text: String) -> ServerMessage { ServerMessage(text: text, isLevel: false) }
    private func level(_ text: String) -> ServerMessage { ServerMessage(text: text, isLevel: true) }

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
        func change(_ text: String) -> ServerMessage {
            ServerMessage(text: text, isLevel: false, isPresence: true)
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
