/// A device the app needs the user's (or the system's) permission for.
public enum PermissionDevice: String, Sendable, Hashable, CaseIterable, Codable {
    /// The microphone, or the camera.
    case microphone, camera
}

/// Where the app stands with one permission.
public enum PermissionStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// Not asked yet.
    case unknown
    /// Asked; the answer has not come.
    case requesting
    /// Refused, or the device cannot be opened.
    case denied
    /// The device opens.
    case granted
}

/// One permission: its status, whether the app may still ask for it, and why it was refused.
public struct Permission: Sendable, Hashable {
    /// Where the app stands with it.
    public private(set) var status: PermissionStatus
    /// The app may still ask (show the system's request). When false and the permission is not
    /// granted, only the user can change it, in the system's settings: that is when the permissions
    /// prompt appears.
    public private(set) var canRequest: Bool
    /// Why it was refused, for the "Open Settings" steps ("no /dev/video* device").
    public private(set) var reason: String?

    /// A permission; by default not asked yet, and the app may ask.
    public init(status: PermissionStatus = .unknown, canRequest: Bool = true, reason: String? = nil) {
        self.status = status
        self.canRequest = canRequest
        self.reason = reason
    }

    /// The device opens.
    public var isGranted: Bool { status == .granted }

    /// Only the user can grant it now, in the system's settings.
    public var needsSettings: Bool { status != .granted && status != .requesting && !canRequest }

    /// Starts a request. Returns whether the app should now ask the system (false when already
    /// granted, already asking, or no longer allowed to ask).
    public mutating func request() -> Bool {
        guard status != .granted, status != .requesting, canRequest else { return false }
        status = .requesting
        return true
    }

    /// The answer to a request, or to a check of the device.
    /// - Parameter canRequestAgain: whether asking again could change a refusal (on Linux it cannot:
    ///   access is the system's setting, not a dialog).
    public mutating func resolve(granted: Bool, canRequestAgain: Bool = false, reason: String? = nil) {
        status = granted ? .granted : .denied
        canRequest = granted ? false : canRequestAgain
        self.reason = granted ? nil : reason
    }
}

/// The microphone and camera permissions together.
public struct Permissions: Sendable, Hashable {
    /// The microphone's permission.
    public var microphone: Permission
    /// The camera's permission.
    public var camera: Permission

    /// Both permissions; by default neither is asked yet.
    public init(microphone: Permission = Permission(), camera: Permission = Permission()) {
        self.microphone = microphone
        self.camera = camera
    }

    /// The permission for `device`.
    public subscript(device: PermissionDevice) -> Permission {
        get { device == .microphone ? microphone : camera }
        set { if device == .microphone { microphone = newValue } else { camera = newValue } }
    }
}

extension OwnCapability {
    /// The device this capability needs, if any.
    public var device: PermissionDevice? {
        switch self {
        case .sendAudio: .microphone
        case .sendVideo: .camera
        case .screenshare, .muteUsers: nil
        }
    }
}

/// How an app learns whether it may use the camera, kept apart from the models so that they stay free
/// of device I/O: MicCheckLive's `CameraProbe` opens `/dev/video*`; a test or an app with its own
/// camera stack answers for itself.
public protocol CameraAccess: Sendable {
    /// Where the app stands with the camera now.
    func permission() -> Permission
}
