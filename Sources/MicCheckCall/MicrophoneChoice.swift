internal import MicCheck

/// A microphone as the models see it: the system's name for it and the name people read.
public struct MicrophoneDevice: Sendable, Hashable {
    /// The system's name ("alsa_input.usb-…", "virtmic"): what switching to it asks for.
    public var id: String
    /// The name people read ("USB Microphone").
    public var name: String

    /// A microphone with the system's name `id` and the name people read, `name`.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// "Name (id)", as the lobby names the microphone in use.
    public var label: String { name == id ? id : "\(name) (\(id))" }
}

/// Microphones that come and go while the lobby is open: the offer to switch to one that appeared, and
/// the notice that the one in use went away and the default took its place.
///
/// A pure value: the app reports what the system says (``appeared(_:at:)``, ``removed(id:)``,
/// ``switched(to:)``, ``fellBack(lost:to:at:)``) and what the user does (``accept()``, ``ignore()``),
/// and moves time on (``advance(to:)``); the screen reads ``offer`` and ``notice``.
public struct MicrophoneChoice: Sendable, Hashable {
    /// How long offers and notices stay up.
    public struct Configuration: Sendable, Hashable {
        /// How long an offer stays up when the user does not answer it.
        public var offerTimeout: Duration
        /// How long the disconnection notice stays up.
        public var noticeDuration: Duration

        /// Timings (defaults: an offer stays up 20 s, a notice 10 s).
        public init(offerTimeout: Duration = .seconds(20), noticeDuration: Duration = .seconds(10)) {
            self.offerTimeout = offerTimeout
            self.noticeDuration = noticeDuration
        }

        /// Timings in seconds.
        @available(
            *, deprecated,
            message: "Pass Durations: Configuration(offerTimeout: .seconds(20), noticeDuration: .seconds(10))"
        )
        @_disfavoredOverload
        public init(offerTimeout: Double = 20, noticeDuration: Double = 10) {
            self.init(offerTimeout: .wait(seconds: offerTimeout), noticeDuration: .wait(seconds: noticeDuration))
        }
        /// An offer stays up 20 s, a notice 10 s.
        public static let `default` = Configuration()
    }

    /// "A new microphone is available: NAME." and whether to switch to it.
    public struct Offer: Sendable, Hashable {
        /// The microphone offered.
        public var device: MicrophoneDevice
        /// When it was offered, and when it goes away unanswered.
        public var since: Double
        /// When it goes away unanswered (seconds): `since` plus `Configuration.offerTimeout`.
        public var until: Double
        /// "A new microphone is available: NAME."
        public var message: String { MicrophoneChoice.offerMessage(device.name) }
    }

    /// "The microphone LOST was disconnected: using FALLBACK."
    public struct Notice: Sendable, Hashable {
        /// The microphone that went away.
        public var lost: MicrophoneDevice
        /// The system's default, in use in its place.
        public var fallback: MicrophoneDevice
        /// When the notice appeared (seconds).
        public var since: Double
        /// When it goes away (seconds): `since` plus `Configuration.noticeDuration`.
        public var until: Double
        /// "The microphone LOST was disconnected: using FALLBACK.", with the names people read.
        public var message: String { MicrophoneChoice.disconnectedMessage(lost: lost.name, fallback: fallback.name) }
    }

    /// What changed when time moved on.
    public enum Expiry: Sendable, Hashable {
        /// The offer of this microphone went unanswered.
        case offer(MicrophoneDevice)
        /// The disconnection notice went.
        case notice
    }

    /// "A new microphone is available: NAME."
    public static func offerMessage(_ name: String) -> String { "A new microphone is available: \(name)." }
    /// The question after the offer; the terminal adds its key ("Switch (w)?").
    public static let switchQuestion = "Switch"
    /// "The microphone LOST was disconnected: using FALLBACK."
    public static func disconnectedMessage(lost: String, fallback: String) -> String {
        "The microphone \(lost) was disconnected: using \(fallback)."
    }

    /// How long offers and notices stay up.
    public let configuration: Configuration
    /// The microphone in use (nil: none, or not known yet).
    public private(set) var inUse: MicrophoneDevice?
    /// The offer on screen, if any.
    public private(set) var offer: Offer?
    /// The disconnection notice on screen, if any.
    public private(set) var notice: Notice?

    /// A choice with `inUse` in use and nothing on screen.
    public init(inUse: MicrophoneDevice? = nil, configuration: Configuration = .default) {
        self.inUse = inUse
        self.configuration = configuration
    }

    /// A microphone appeared. Offered unless it is the one in use. A newer offer replaces an older one.
    /// Returns whether it is offered.
    @discardableResult
    public mutating func appeared(_ device: MicrophoneDevice, at time: Double) -> Bool {
        guard device.id != inUse?.id else { return false }
        offer = Offer(device: device, since: time, until: time + configuration.offerTimeout.seconds)
        return true
    }

    /// A microphone went away: its offer is withdrawn. Returns whether an offer was.
    @discardableResult
    public mutating func removed(id: String) -> Bool {
        guard offer?.device.id == id else { return false }
        offer = nil
        return true
    }

    /// The user said yes: returns the microphone to switch to, and takes the offer down. The app asks
    /// the system for it and reports ``switched(to:)`` once it is in use.
    public mutating func accept() -> MicrophoneDevice? {
        defer { offer = nil }
        return offer?.device
    }

    /// The user said no: the offer goes. Returns the microphone that was offered.
    @discardableResult
    public mutating func ignore() -> MicrophoneDevice? {
        defer { offer = nil }
        return offer?.device
    }

    /// `device` is in use now (the user's switch took effect).
    public mutating func switched(to device: MicrophoneDevice) {
        inUse = device
        if offer?.device.id == device.id { offer = nil }
        notice = nil
    }

    /// The microphone in use went away and the system's default took its place.
    public mutating func fellBack(lost: MicrophoneDevice, to fallback: MicrophoneDevice, at time: Double) {
        inUse = fallback
        if offer?.device.id == lost.id || offer?.device.id == fallback.id { offer = nil }
        notice = Notice(lost: lost, fallback: fallback, since: time, until: time + configuration.noticeDuration.seconds)
    }

    /// Moves time on: an unanswered offer and an old notice go. Returns what went.
    public mutating func advance(to time: Double) -> [Expiry] {
        var gone: [Expiry] = []
        if let o = offer, time >= o.until {
            offer = nil
            gone.append(.offer(o.device))
        }
        if let n = notice, time >= n.until {
            notice = nil
            gone.append(.notice)
        }
        return gone
    }
}
