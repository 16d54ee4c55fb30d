import Hummingbird
import HummingbirdWebSocket
import Logging
import MicCheck
import NIOCore

/// `/v1/vad` on a ``Connection``: the ``VADSession`` protocol, nothing else.
struct VADEndpoint: ConnectionEndpoint {
    /// Only the idle timeout and a client that reads nothing: a second is close enough.
    var tickInterval: Duration { .seconds(1) }
    var session: VADSession
    var pace: AudioPace

    init(session: VADSession, maxAudioSpeed: Double) {
        self.session = session
        pace = AudioPace(speed: maxAudioSpeed)
    }

    mutating func opened(send: (ServerMessage) -> Void) async { send(session.created()) }

    mutating func received(
        _ message: InboundMessage, now: Double, send: (ServerMessage) -> Void
    ) async throws(ProtocolError) -> Bool {
        if let text = message.text { return try session.text(text, emit: send) != .close }
        if case .binary(let audio) = message {
            await pace.admit(pcmBytes: audio.readableBytes, rate: session.settings.sampleRate, now: now)
        }
        try message.withBinary { bytes throws(ProtocolError) in try session.audio(bytes, emit: send) }
        return true
    }

    func tick(now: Double, send: (ServerMessage) -> Void) async {}
    func presence(_ event: PresenceEvent, send: (ServerMessage) -> Void) async {}
    func resendPresence(send: (ServerMessage) -> Void) async {}
    // A client that went without close_stream gets nothing more: its last records are not analysed.
    func closed() async {}
}

/// `/v1/call` on a ``Connection``: the page's ``CallChannel``, its actions carried out in the call's
/// presence, and the call's presence events relayed by the version rule (`PresenceFollower`).
struct CallEndpoint: ConnectionEndpoint {
    /// Analysed here, the microphone check's stall shows within a quarter of a second. Analysed on the device,
    /// only the page's speaking stalls (a second after its last statement): half a second is close enough, and
    /// half the wake-ups of a connection that is most of a device participant's cost (`bench-call-device.py`).
    var tickInterval: Duration { channel.analysis == .device ? .milliseconds(500) : .milliseconds(250) }
    let call: String
    var channel: CallChannel
    let presence: any PresenceStore
    /// The connection's clock starts at 0 when it opens (the microphone check's grace and stall times).
    let start: Double
    var follower = PresenceFollower()
    var pace: AudioPace
    /// What this connection may change in the call's presence, and the member's state that waits for it.
    var budget: PresenceBudget
    let joinsPerMinute: Double
    /// The joins of this call from this connection's address, across connections.
    let ledger: JoinLedger?
    let address: String
    /// Where a signal the store handed over and the check refused is told (nil: nowhere).
    let logger: Logger?

    init(
        call: String, channel: CallChannel, presence: any PresenceStore, start: Double, limits: ConnectionLimits,
        ledger: JoinLedger? = nil, address: String = "", logger: Logger? = nil
    ) {
        self.logger = logger
        self.ledger = ledger
        self.address = address
        pace = AudioPace(speed: limits.maxAudioSpeed)
        budget = PresenceBudget(
            changesPerSecond: limits.presenceChangesPerSecond, joinsPerMinute: limits.joinsPerMinute)
        joinsPerMinute = limits.joinsPerMinute
        self.call = call
        self.channel = channel
        self.presence = presence
        self.start = start
    }

    mutating func opened(send: (ServerMessage) -> Void) async { send(channel.welcome(call: call)) }

    mutating func received(
        _ message: InboundMessage, now: Double, send: (ServerMessage) -> Void
    ) async throws(ProtocolError) -> Bool {
        var actions: [CallChannel.Action] = []
        if let text = message.text {
            actions = try channel.text(text, now: now - start, emit: send)
        } else {
            if case .binary(let audio) = message {
                await pace.admit(pcmBytes: audio.readableBytes, rate: channel.sampleRate, now: now)
            }
            let action = try message.withBinary { bytes throws(ProtocolError) in
                try channel.audio(bytes, now: now - start, emit: send)
            }
            if let action = action ?? nil { actions = [action] }
        }
        for action in actions {
            if case .join = action {
                guard budget.join(now: now) else {
                    throw ProtocolError("more than \(Int(joinsPerMinute)) joins a minute")
                }
                if let ledger, !ledger.join(call: call, address: address, now: now) {
                    throw ProtocolError(
                        "more than \(Int(ledger.perMinute)) joins a minute into this call from \(address)")
                }
            }
            await perform(action, now: now, send: send)
        }
        return true
    }

    mutating func tick(now: Double, send: (ServerMessage) -> Void) async {
        if let action = channel.tick(now: now - start, emit: send) { await perform(action, now: now, send: send) }
        // A state held back by the budget goes out once it allows.
        if let member = budget.due(now: now) { await presence.update(call: call, member: member) }
    }

    mutating func presence(_ event: PresenceEvent, send: (ServerMessage) -> Void) async {
        var event = event
        if case .signal(let from, let payload) = event {
            // Checked where it entered (the sender's page, with its role) and here again, whatever the store: one
            // that another process writes (a shared database) is not taken on trust.
            guard let checked = Signal.recheck(payload) else {
                logger?.warning(
                    "presence: a signal for a page that MicCheck cannot read; dropped",
                    metadata: ["call": "\(call)", "from": "\(from)", "to": "\(channel.id)"])
                return
            }
            // A host's mute acts on this connection's channel; the page hears of it from the channel.
            if let host = Signal.mutedBy(checked) {
                let now = Connection.now()
                if let action = channel.mutedByHost(name: host, from: from, now: now - start, emit: send) {
                    await perform(action, now: now, send: send)
                }
                return
            }
            event = .signal(from: from, payload: checked)
        }
        switch follower.take(event) {
        case .relay:
            send(.presence(event))
        case .drop: break
        case .fetchSnapshot: await sendSnapshot(send: send)
        }
    }

    mutating func resendPresence(send: (ServerMessage) -> Void) async { await sendSnapshot(send: send) }

    /// Gone, however it went: the others see this participant leave, never stuck "speaking".
    func closed() async {
        await presence.leave(call: call, id: channel.id)
        await presence.unsubscribe(call: call, subscriber: channel.id)
    }

    private mutating func sendSnapshot(send: (ServerMessage) -> Void) async {
        let snapshot = await presence.snapshot(call: call)
        _ = follower.take(snapshot)
        send(.snapshot(snapshot))
    }

    /// Carries out `action` in the call's presence; a join has passed the budget already, an update goes
    /// through it.
    private mutating func perform(_ action: CallChannel.Action, now: Double, send: (ServerMessage) -> Void) async {
        let id = channel.id
        switch action {
        case .join(let member): await presence.join(call: call, member: member)
        case .update(let member):
            if case .publish(let member) = budget.update(member, now: now) {
                await presence.update(call: call, member: member)
            }
        case .leave:
            budget.left()
            await presence.leave(call: call, id: id)
        case .resync: await sendSnapshot(send: send)
        case .signal(let to, let payload):
            // Only to a member of the call (the store checks, on every node): a page in its lobby, or one that
            // left, gets no offer and no host's mute.
            if !(await presence.signal(call: call, from: id, to: to, payload: payload)) {
                send(CallChannel.error("no participant \(to) in the call"))
            }
        }
    }
}

/// The request context of the server's routes: Hummingbird's, with the connection's channel, which a
/// WebSocket whose client reads nothing needs to hang up (``Connection/run(_:inbound:outbound:limits:presence:hangUp:)``).
struct ServerRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
