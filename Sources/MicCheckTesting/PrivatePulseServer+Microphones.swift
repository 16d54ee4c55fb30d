#if os(Linux)
    import Foundation

    extension PrivatePulseServer {
        /// A microphone plugged in for a test: a null sink `NAME_feed` (what is played into it is what the
        /// microphone hears) and the source `NAME` remapping the sink's monitor, the way the server's own
        /// `virtmic` is made.
        public struct VirtualMicrophone: Sendable, Hashable {
            /// The source's name (`--source NAME`).
            public var name: String
            /// The sink to play into.
            public var feed: String
            /// The modules that make it, the source's last.
            public var modules: [Int]
        }

        /// Plugs in a new microphone: the source `name`, described as `description`.
        public func addMicrophone(name: String, description: String) throws -> VirtualMicrophone {
            let feed = name + "_feed"
            let sink = try pactl([
                "load-module", "module-null-sink", "sink_name=\(feed)", "norewinds=1",
                "sink_properties=device.description=\(description)Feed",
            ])
            let source = try pactl([
                "load-module", "module-remap-source", "master=\(feed).monitor", "source_name=\(name)",
                "source_properties=device.description=\(description)",
            ])
            let modules = [sink, source].compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return VirtualMicrophone(name: name, feed: feed, modules: modules)
        }

        /// Unplugs a microphone made by ``addMicrophone(name:description:)``: the source first, then its sink.
        public func remove(_ microphone: VirtualMicrophone) throws {
            for module in microphone.modules.reversed() { try pactl(["unload-module", "\(module)"]) }
        }

        /// Unplugs the server's own microphone, `virtmic` (its sink `micsink` stays), and no other.
        public func removeVirtmic() throws {
            let line = try pactl(["list", "short", "modules"]).split(separator: "\n")
                .first { $0.contains("module-remap-source") && $0.contains("source_name=virtmic") }
            guard let module = line?.split(separator: "\t").first else {
                throw ServerError("the server has no virtmic to remove")
            }
            try pactl(["unload-module", String(module)])
        }
    }
#endif
