import MicCheckKernel
import MicCheckPresence
import Testing

@Suite("The version rule")
struct PresenceVersionRuleTests {
    @Test("the next version applies, one seen is dropped, one further ahead is a gap")
    func steps() {
        #expect(PresenceVersionRule.step(5, after: 4) == .apply)
        #expect(PresenceVersionRule.step(4, after: 4) == .alreadySeen)
        #expect(PresenceVersionRule.step(2, after: 4) == .alreadySeen)
        #expect(PresenceVersionRule.step(6, after: 4) == .gap)
        #expect(PresenceVersionRule.step(1, after: 0) == .apply)
    }

    @Test("a connection relays in order, drops what it has, and fetches a snapshot on a gap or before its first")
    func follower() {
        var f = PresenceFollower()
        let m = PresenceMember(id: "a", name: "A", audio: true, video: true)
        #expect(f.take(.joined(version: 1, m)) == .fetchSnapshot, "nothing before a snapshot")
        #expect(f.take(.snapshot(version: 3, members: [m])) == .relay)
        #expect(f.version == 3)
        #expect(f.take(.updated(version: 3, m)) == .drop)
        #expect(f.take(.updated(version: 4, m)) == .relay)
        #expect(f.take(.left(version: 6, id: "a")) == .fetchSnapshot)
        #expect(f.version == 4, "a gap moves nothing until the snapshot")
        #expect(f.take(.snapshot(version: 2, members: [])) == .relay, "a snapshot is taken whole, even an older one")
        #expect(f.version == 2)
        #expect(f.take(.signal(from: "b", payload: .null)) == .relay, "signals carry no version")
        #expect(f.version == 2)
    }
}

@Suite("A node's mirror of a call")
struct PresenceMirrorTests {
    let ada = PresenceMember(id: "ada", name: "Ada", audio: true, video: false)
    let bob = PresenceMember(id: "bob", name: "Bob", audio: false, video: true)

    private func joined(_ v: Int, _ m: PresenceMember) -> PresenceDelta {
        PresenceDelta(version: v, change: .joined(m))
    }

    /// A mirror that has read `version` with `members` and told its first connection.
    private func live(_ version: Int, _ members: [PresenceMember]) -> PresenceMirror {
        var (mirror, _) = PresenceMirror.start()
        _ = mirror.snapshotRead(version: version, members: members)
        return mirror
    }

    @Test(
        "loading: a new mirror reads; connections that come meanwhile get the snapshot when it is read, even with nothing in it"
    )
    func firstSnapshot() {
        var (mirror, actions) = PresenceMirror.start()
        #expect(actions == [.readSnapshot])
        #expect(mirror.state == .loading(pending: [], again: false))
        #expect(mirror.subscribed("s1") == [])
        #expect(mirror.snapshotRead(version: 0, members: []) == [.publish(.snapshot(version: 0, members: []))])
        #expect(mirror.state == .live && mirror.isLive)
        #expect(
            mirror.subscribed("s2") == [.sendSnapshot(to: "s2")], "live: a new connection gets the snapshot at once")
    }

    @Test("loading: deltas wait, then apply by the rule after the snapshot (those it holds dropped)")
    func pendingDeltas() {
        var (mirror, _) = PresenceMirror.start()
        #expect(mirror.received(joined(2, bob)) == [])
        #expect(mirror.received(joined(1, ada)) == [])
        #expect(mirror.state == .loading(pending: [joined(2, bob), joined(1, ada)], again: false))
        let actions = mirror.snapshotRead(version: 1, members: [ada])
        #expect(actions == [.publish(.snapshot(version: 1, members: [ada])), .publish(.joined(version: 2, bob))])
        #expect(mirror.version == 2 && mirror.members == [ada, bob])
    }

    @Test("loading: a resync asked during a read reads again, and only the second read is told")
    func readAgain() {
        var (mirror, _) = PresenceMirror.start()
        #expect(mirror.resync() == [])
        #expect(mirror.state == .loading(pending: [], again: true))
        #expect(mirror.snapshotRead(version: 1, members: [ada]) == [.readSnapshot])
        #expect(mirror.state == .loading(pending: [], again: false))
        #expect(
            mirror.snapshotRead(version: 2, members: [ada, bob]) == [
                .publish(.snapshot(version: 2, members: [ada, bob]))
            ])
    }

    @Test("live: the next version is published, one seen is dropped, a gap reads the snapshot again")
    func liveDeltas() {
        var mirror = live(1, [ada])
        #expect(mirror.received(joined(2, bob)) == [.publish(.joined(version: 2, bob))])
        #expect(mirror.received(joined(2, bob)) == [])
        var speaking = ada
        speaking.speaking = true
        #expect(
            mirror.received(PresenceDelta(version: 3, change: .updated(speaking))) == [
                .publish(.updated(version: 3, speaking))
            ])
        #expect(mirror.members == [speaking, bob])
        #expect(
            mirror.received(PresenceDelta(version: 4, change: .left("ada"))) == [.publish(.left(version: 4, id: "ada"))]
        )
        #expect(mirror.members == [bob])
        #expect(mirror.received(PresenceDelta(version: 9, change: .left("bob"))) == [.readSnapshot])
        #expect(mirror.state == .loading(pending: [], again: false))
        #expect(mirror.members == [bob], "the gap's delta is not applied: the snapshot holds it")
    }

    @Test("live: a resync that tells nothing new publishes nothing; one that does publishes the snapshot")
    func quietResync() {
        var mirror = live(2, [ada])
        #expect(mirror.resync() == [.readSnapshot])
        #expect(mirror.snapshotRead(version: 2, members: [ada]) == [])
        #expect(mirror.resync() == [.readSnapshot])
        #expect(
            mirror.snapshotRead(version: 3, members: [ada, bob]) == [
                .publish(.snapshot(version: 3, members: [ada, bob]))
            ])
    }

    @Test("a gap among the waiting deltas reads again; the rest wait for that read")
    func gapInPending() {
        var (mirror, _) = PresenceMirror.start()
        _ = mirror.received(joined(5, bob))
        _ = mirror.received(PresenceDelta(version: 6, change: .left("bob")))
        let actions = mirror.snapshotRead(version: 1, members: [ada])
        #expect(actions == [.publish(.snapshot(version: 1, members: [ada])), .readSnapshot])
        #expect(mirror.state == .loading(pending: [PresenceDelta(version: 6, change: .left("bob"))], again: false))
        #expect(
            mirror.snapshotRead(version: 5, members: [ada, bob]) == [
                .publish(.snapshot(version: 5, members: [ada, bob])),
                .publish(.left(version: 6, id: "bob")),
            ])
    }

    @Test(
        "an outage: a failed read leaves the node's own members; deltas are dropped; own changes are told at the next version"
    )
    func alone() {
        var mirror = live(4, [ada, bob])
        #expect(mirror.resync() == [.readSnapshot])
        #expect(mirror.snapshotFailed(ownMembers: [bob]) == [.publish(.snapshot(version: 4, members: [bob]))])
        #expect(mirror.state == .alone && !mirror.isLive)
        #expect(mirror.received(joined(5, ada)) == [], "a delta while alone is dropped")
        #expect(mirror.subscribed("s") == [.sendSnapshot(to: "s")])
        var muted = bob
        muted.audio = false
        muted.video = false
        #expect(mirror.changedHere(.updated(muted)) == [.publish(.updated(version: 5, muted))])
        #expect(mirror.state == .alone)
        // The database is back: the snapshot is taken whole, whatever it holds.
        #expect(mirror.resync() == [.readSnapshot])
        #expect(
            mirror.snapshotRead(version: 7, members: [ada, muted]) == [
                .publish(.snapshot(version: 7, members: [ada, muted]))
            ])
        #expect(mirror.state == .live)
    }

    @Test(
        "a change made here while live turns the mirror alone until the next snapshot; during a read the read decides")
    func changedHere() {
        var mirror = live(1, [ada])
        #expect(mirror.changedHere(.joined(bob)) == [.publish(.joined(version: 2, bob))])
        #expect(mirror.state == .alone)
        var loading = live(1, [ada])
        _ = loading.resync()
        #expect(loading.changedHere(.left("ada")) == [.publish(.left(version: 2, id: "ada"))])
        #expect(loading.state == .loading(pending: [], again: false))
        #expect(loading.snapshotRead(version: 2, members: []) == [])
        #expect(loading.state == .live)
    }

    @Test("results for no read are ignored")
    func strayResults() {
        var mirror = live(1, [ada])
        #expect(mirror.snapshotRead(version: 9, members: []) == [])
        #expect(mirror.snapshotFailed(ownMembers: []) == [])
        #expect(mirror.version == 1 && mirror.members == [ada])
    }
}
