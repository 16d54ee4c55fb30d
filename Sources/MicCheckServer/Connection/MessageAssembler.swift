import HummingbirdWebSocket
package import NIOCore

/// A client's message, whole.
package enum InboundMessage: Sendable, Equatable {
    case text(String)
    case binary(ByteBuffer)

    var text: String? {
        guard case .text(let s) = self else { return nil }
        return s
    }

    /// The bytes of a binary message.
    package func withBinary<R>(_ body: (UnsafeRawBufferPointer) throws(ProtocolError) -> R) throws(ProtocolError) -> R?
    {
        guard case .binary(let buffer) = self else { return nil }
        do {
            return try buffer.withUnsafeReadableBytes { bytes in try body(bytes) }
        } catch let e as ProtocolError {
            throw e
        } catch {
            throw ProtocolError("unreadable binary message")
        }
    }
}

/// One data frame from a client, as the WebSocket layer hands it over (control frames it answers itself).
package struct ClientFrame: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case text, binary, continuation }
    var kind: Kind
    var data: ByteBuffer
    var fin: Bool

    package init(_ kind: Kind, _ data: ByteBuffer, fin: Bool = true) {
        self.kind = kind
        self.data = data
        self.fin = fin
    }

    init(_ frame: WebSocketDataFrame) {
        let kind: Kind =
            switch frame.opcode {
            case .text: .text
            case .binary: .binary
            case .continuation: .continuation
            }
        self.init(kind, frame.data, fin: frame.fin)
    }
}

/// Joins a client's frames into messages, within bounds: a message of at most `maxBytes`, in at most
/// `maxFrames` frames (empty frames count: a message of endless empty continuations costs memory and
/// time, not bytes), text that is UTF-8 (RFC 6455: 1007 otherwise), and frames in the order the protocol
/// allows (1002 otherwise). Pure: the connection's reader feeds it frame by frame.
package struct MessageAssembler: Sendable {
    let maxBytes: Int
    let maxFrames: Int
    private var opcode: ClientFrame.Kind?
    private var buffer = ByteBuffer()
    private var frames = 0

    package init(maxBytes: Int, maxFrames: Int = 64) {
        self.maxBytes = maxBytes
        self.maxFrames = maxFrames
    }

    /// Adds a frame; returns the message it completes.
    package mutating func add(_ frame: ClientFrame) throws(ProtocolError) -> InboundMessage? {
        switch (frame.kind, opcode) {
        case (.continuation, nil):
            throw ProtocolError("a continuation frame with no message to continue", code: .protocolError)
        case (.text, .some), (.binary, .some):
            throw ProtocolError("a new message before the last one ended", code: .protocolError)
        case (.continuation, .some):
            break
        case (let first, nil):
            opcode = first
            buffer.clear()
            frames = 0
        }
        frames += 1
        guard buffer.readableBytes + frame.data.readableBytes <= maxBytes else {
            throw ProtocolError("a message over \(maxBytes) bytes", code: .messageTooLarge)
        }
        guard frames <= maxFrames else {
            throw ProtocolError("a message in more than \(maxFrames) frames", code: .messageTooLarge)
        }
        guard frame.fin else {
            var data = frame.data
            buffer.writeBuffer(&data)
            return nil
        }
        let kind = opcode
        opcode = nil
        // One frame, the usual case: its own buffer, no copy.
        var whole = frames == 1 ? frame.data : buffer
        if frames > 1 {
            var data = frame.data
            whole.writeBuffer(&data)
            buffer = ByteBuffer()
        }
        if kind == .binary { return .binary(whole) }
        guard let text = whole.withUnsafeReadableBytes({ String(validating: $0, as: UTF8.self) }) else {
            throw ProtocolError("a text message that is not UTF-8", code: .invalidPayload)
        }
        return .text(text)
    }
}
