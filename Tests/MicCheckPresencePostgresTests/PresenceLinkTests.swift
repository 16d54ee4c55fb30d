import MicCheck
import MicCheckPresence
import Testing

@testable import MicCheckPresencePostgres

@Suite("A node's link to the presence database")
struct PresenceLinkTests {
    @Test("the first attempt releases the calls that wait for it, connected or not, and repairs nothing")
    func start() {
        var link = PresenceLink()
        #expect(!link.hasStarted && !link.isOnline)
        #expect(link.connected() == [.releaseWaiters])
        #expect(link.state == .online && link.isOnline)
        var failed = PresenceLink()
        #expect(failed.lost() == [.releaseWaiters])
        #expect(failed.state == .offline && failed.hasStarted && !failed.isOnline)
        #expect(failed.connected() == [.repair], "connected after a failed start: its members are written")
    }

    @Test("an outage and the return: offline, then a repair that ends online")
    func outage() {
        var link = PresenceLink()
        _ = link.connected()
        #expect(link.lost() == [])
        #expect(link.state == .offline)
        #expect(link.trouble() == [], "offline: nothing to write to")
        #expect(link.connected() == [.repair])
        #expect(link.state == .repairing(again: false) && link.isOnline)
        #expect(link.connected() == [])
        let again = link.repaired()
        #expect(!again)
        #expect(link.state == .online)
        let stray = link.repaired()
        #expect(!stray, "no repair under way")
    }

    @Test("trouble during a repair repairs once more; a failed write while online starts one")
    func troubleDuringRepair() {
        var link = PresenceLink()
        _ = link.connected()
        #expect(link.trouble() == [.repair])
        #expect(link.trouble() == [])
        #expect(link.trouble() == [])
        #expect(link.state == .repairing(again: true))
        let once = link.repaired()
        #expect(once)
        #expect(link.state == .repairing(again: false))
        let twice = link.repaired()
        #expect(!twice)
        #expect(link.state == .online)
        _ = link.trouble()
        #expect(link.lost() == [])
        #expect(link.state == .offline, "a repair cut off by an outage ends with it")
    }
}

@Suite("Notifications of presence in PostgreSQL")
struct PresenceNotificationTests {
    @Test("the schema's deltas and a node's signals decode; anything else is refused")
    func decode() throws {
        let joined = try #require(
            PresenceNotification(
                payload: """
                    {"call" : "c1", "v" : 3, "kind" : "joined", "member" : {"id" : "a", "name" : "Ada", "audio" : true, "video" : false, "speaking" : false}}
                    """))
        #expect(joined.call == "c1")
        #expect(
            joined.delta
                == PresenceDelta(
                    version: 3, change: .joined(PresenceMember(id: "a", name: "Ada", audio: true, video: false))))
        let left = try #require(PresenceNotification(payload: #"{"call": "c1", "v": 4, "kind": "left", "id": "a"}"#))
        #expect(left.delta == PresenceDelta(version: 4, change: .left("a")))
        let signal = try #require(
            PresenceNotification(payload: #"{"call": "c1", "kind": "signal", "from": "a", "to": "b", "ref": 12}"#))
        #expect(signal.kind == .signal && signal.ref == 12 && signal.delta == nil)
        #expect(PresenceNotification(payload: #"{"call": "c1", "kind": "exploded"}"#) == nil)
        #expect(PresenceNotification(payload: "not json") == nil)
        #expect(
            PresenceNotification(payload: #"{"call": "c1", "kind": "left", "v": 4}"#)?.delta == nil,
            "a left without its id")
        #expect(
            PresenceNotification(payload: #"{"call": "c1", "kind": "joined", "id": "a"}"#)?.delta == nil,
            "a join without version or member")
    }
}
