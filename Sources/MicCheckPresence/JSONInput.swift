package import MicCheckKernel

/// A JSON value as it came from outside: a page's message, or a signal another node stored.
package enum JSONInput: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONInput])
    case object([String: JSONInput])

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONInput].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONInput].self))
        }
    }
}

extension JSONInput {
    /// `value` as JSON input: an integer is a number, a number keeps its full `Double` (not the decimals it is
    /// written with), and of two fields with one name the last is kept.
    package init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .number(Double(i))
        case .number(let n, _): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(JSONInput.init))
        case .object(let fields):
            self = .object(Dictionary(fields.map { ($0.0, JSONInput($0.1)) }, uniquingKeysWith: { _, last in last }))
        }
    }

    /// The value to write again: a whole number that fits an `Int` as an integer, another number with 6 decimals,
    /// keys in sorted order.
    package var value: JSONValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let n):
            if let i = Int(exactly: n) { .int(i) } else { .number(n, decimals: 6) }
        case .string(let s): .string(s)
        case .array(let a): .array(a.map(\.value))
        case .object(let fields): .object(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.value) })
        }
    }
}
