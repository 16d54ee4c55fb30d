import Foundation
package import MicCheckPresence

/// A client's text message as a JSON object, with typed reads that fail as ``ProtocolError``s naming the
/// field.
package struct ClientMessage: Sendable {
    let fields: [String: JSONInput]
    let type: String

    /// The deepest nesting a message may have: MicCheck's deepest (a signal's description) has 3.
    static let maxDepth = 8
    /// The most values a message may hold, counted as its objects and arrays and the commas between
    /// members and elements: MicCheck's widest (a candidate) holds under 16.
    static let maxValues = 256

    package init(_ text: String) throws(ProtocolError) {
        // Before any decoding: a message nested deeper than any of the protocol's costs its decoder time
        // that grows much faster than its size.
        let shape = Self.shape(of: text.utf8)
        guard shape.depth <= Self.maxDepth else {
            throw ProtocolError("a text message may nest objects and arrays \(Self.maxDepth) deep at most")
        }
        // So is a wide one (`[{},{},…]` in 64 KB is twenty thousand values to build and free).
        guard shape.values <= Self.maxValues else {
            throw ProtocolError("a text message may hold \(Self.maxValues) values at most")
        }
        guard let input = try? JSONDecoder().decode(JSONInput.self, from: Data(text.utf8)),
            case .object(let fields) = input
        else {
            throw ProtocolError("a text message must be a JSON object")
        }
        guard case .string(let type) = fields["type"] else { throw ProtocolError("a message needs a \"type\" string") }
        self.fields = fields
        self.type = type
    }

    /// How deep objects and arrays nest in `json`, and how many values it holds (its objects and arrays, and
    /// the commas between members and elements), strings skipped (a bracket in a string is text); it stops
    /// counting past ``maxDepth`` or ``maxValues``. One pass, no allocation. Malformed JSON gets numbers too:
    /// the decoder refuses it next.
    package static func shape(of json: String.UTF8View) -> (depth: Int, values: Int) {
        var depth = 0
        var deepest = 0
        var values = 0
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                values += 1
                deepest = max(deepest, depth)
                if deepest > maxDepth || values > maxValues { return (deepest, values) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","):
                values += 1
                if values > maxValues { return (deepest, values) }
            default: break
            }
        }
        return (deepest, values)
    }

    package init(fields: [String: JSONInput], type: String) {
        self.fields = fields
        self.type = type
    }

    func string(_ key: String) throws(ProtocolError) -> String? {
        guard let value = fields[key] else { return nil }
        guard case .string(let s) = value else { throw ProtocolError("\"\(key)\" must be a string") }
        return s
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = fields[key] else { return nil }
        guard case .bool(let b) = value else { throw ProtocolError("\"\(key)\" must be true or false") }
        return b
    }

    func number(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = fields[key] else { return nil }
        guard case .number(let n) = value, n.isFinite else { throw ProtocolError("\"\(key)\" must be a number") }
        return n
    }

    func object(_ key: String) throws(ProtocolError) -> ClientMessage? {
        guard let value = fields[key] else { return nil }
        guard case .object(let o) = value else { throw ProtocolError("\"\(key)\" must be an object") }
        return ClientMessage(fields: o, type: type)
    }

    /// Refuses fields the message does not know, so that a misspelt setting is not silently ignored.
    func only(_ keys: Set<String>, in what: String) throws(ProtocolError) {
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            throw ProtocolError("\(what) has no field \"\(unknown)\"")
        }
    }
}
