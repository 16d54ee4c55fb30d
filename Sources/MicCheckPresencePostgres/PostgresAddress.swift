import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL address as libpq writes it: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with
/// `?sslmode=disable|prefer|require` (prefer when absent, as libpq) and `?host=/run/postgresql` for a Unix
/// socket folder (PORT then names the socket's file, `.s.PGSQL.PORT`).
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS, as libpq's `sslmode`: `disable` never, `prefer` when the server offers it,
    /// `require` always.
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    /// The server's host name or address (`localhost` when the address gives only a socket folder).
    public var host: String
    /// The server's port (5432 by default); with a socket folder, the number in the socket file's name.
    public var port: Int
    /// The folder of the server's Unix socket, instead of `host`.
    public var socketFolder: String?
    /// The user to connect as.
    public var user: String
    /// The user's password, when the address has one.
    public var password: String?
    /// The database; nil: PostgreSQL's default, the one named after the user.
    public var database: String?
    /// How the connection uses TLS (`prefer` by default, as libpq).
    public var tls: TLSMode

    /// Reads an address, or says in one sentence what is wrong with it.
    public init(_ text: String) throws(PresenceError) {
        guard let url = URLComponents(string: text), let scheme = url.scheme,
            ["postgres", "postgresql"].contains(scheme)
        else {
            throw .badAddress("\(Self.redacted(text)) is not a PostgreSQL address (postgres://USER@HOST:PORT/DATABASE)")
        }
        var query: [String: String] = [:]
        for item in url.queryItems ?? [] {
            guard ["sslmode", "host"].contains(item.name), let value = item.value else {
                throw .badAddress(
                    "the PostgreSQL address has an unknown parameter \"\(item.name)\" (sslmode and host are known)")
            }
            query[item.name] = value
        }
        guard let user = url.user, !user.isEmpty else {
            throw .badAddress("the PostgreSQL address needs a user (postgres://USER@HOST/DATABASE)")
        }
        let mode = query["sslmode"] ?? "prefer"
        guard let tls = TLSMode(rawValue: mode) else {
            throw .badAddress("sslmode=\(mode): MicCheck knows disable, prefer and require")
        }
        let port = url.port ?? 5432
        guard (1...65_535).contains(port) else { throw .badAddress("the PostgreSQL port must be from 1 to 65535") }
        socketFolder = query["host"]
        guard socketFolder != nil || !(url.host ?? "").isEmpty else {
            throw .badAddress("the PostgreSQL address needs a host")
        }
        host = url.host ?? "localhost"
        self.port = port
        self.user = user
        password = url.password
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = path.isEmpty ? nil : path
        self.tls = tls
    }

    /// The address with its password hidden, for logs and messages.
    public var description: String {
        let at = socketFolder.map { "\($0)/.s.PGSQL.\(port)" } ?? "\(host):\(port)"
        return "postgres://\(user)\(password == nil ? "" : ":***")@\(at)/\(database ?? user)"
    }

    static func redacted(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "***"
        return url.string ?? "the address"
    }

    var clientTLS: PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    var clientConfiguration: PostgresClient.Configuration {
        guard let socketFolder else {
            return .init(host: host, port: port, username: user, password: password, database: database, tls: clientTLS)
        }
        return .init(
            unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
    }

    /// The configuration of a single connection (the listener's); throws when no TLS context can be made.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        guard let socketFolder else {
            let tls: PostgresConnection.Configuration.TLS =
                switch self.tls {
                case .disable: .disable
                case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            return .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        return .init(
            unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
    }
}
