import Foundation
public import MicCheckCall

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The camera permission as Linux grants it: a `/dev/video*` device that opens.
///
/// There is no dialog to show on Linux: access is whether the device exists and the user may open
/// it (the `video` group, or a sandbox's device permission), so a refusal cannot be requested again.
public struct CameraProbe: CameraAccess {
    /// The folder whose `video*` devices are checked.
    public var directory: String

    /// A probe of the `video*` devices in `directory`.
    public init(directory: String = "/dev") { self.directory = directory }

    /// Checks the `video*` devices in `directory` (default `/dev`): granted as soon as one opens for
    /// reading; denied, with the reason, when none exists or none opens.
    public static func probe(directory: String = "/dev") -> Permission { Self(directory: directory).permission() }

    /// Granted as soon as one `video*` device opens for reading; denied, with the reason, when none exists or none opens.
    public func permission() -> Permission {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("video") }.sorted()
        var permission = Permission()
        guard !names.isEmpty else {
            permission.resolve(granted: false, reason: "no camera was found (no \(directory)/video* device)")
            return permission
        }
        var refusal = ""
        for name in names {
            let path = directory + "/" + name
            let fd = open(path, O_RDONLY | O_NONBLOCK)
            if fd >= 0 {
                close(fd)
                permission.resolve(granted: true)
                return permission
            }
            refusal = "\(path) cannot be opened (\(String(cString: strerror(errno))))"
        }
        permission.resolve(granted: false, reason: refusal)
        return permission
    }
}
