/// One endpoint's protocol on a ``Connection``: what it sends first, what it does with each message, with
/// the clock's ticks and the call's presence, and when the connection ends. `send` queues a message.
protocol ConnectionEndpoint: Sendable {
    /// How often the loop looks at the clock: the idle timeout, a client that reads nothing, the endpoint's
    /// own timers. Each connection has its own timer: a shorter interval costs every connection wake-ups.
    var tickInterval: Duration { get }
    mutating func opened(send: (ServerMessage) -> Void) async
    /// Returns false when the endpoint is done (the connection then closes normally once its messages are out).
    mutating func received(
        _ message: InboundMessage, now: Double, send: (ServerMessage) -> Void
    ) async throws(ProtocolError) -> Bool
    mutating func tick(now: Double, send: (ServerMessage) -> Void) async
    mutating func presence(_ event: PresenceEvent, send: (ServerMessage) -> Void) async
    /// The client, too slow for the call's presence changes, had them dropped and has now read what it held:
    /// send what stands for them (the snapshot).
    mutating func resendPresence(send: (ServerMessage) -> Void) async
    /// The connection ended, however it ended.
    mutating func closed() async
}
