public import Foundation

extension Connection {
    /// When a connection's invitation ends: at `at` (on `Connection.now()`'s clock) it is closed with 4401
    /// and `reason`, and the page reconnects with a fresh token.
    public struct Expiry: Sendable, Equatable {
        /// When the connection closes, in seconds on the connection's monotonic clock.
        public var at: Double
        /// The close frame's reason.
        public var reason: String

        /// An expiry at `at` seconds on the connection's monotonic clock.
        public init(at: Double, reason: String) {
            self.at = at
            self.reason = reason
        }

        /// The expiry of a token that expires at `date`, on the connection's monotonic clock.
        public init(date: Date, reason: String) {
            self.init(at: Connection.now() + date.timeIntervalSinceNow, reason: reason)
        }
    }
}
