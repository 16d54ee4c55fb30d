// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// MICCHECK_OPTIMIZED_TESTS=1 (scripts/test.sh sets it): the analysis (the kernel, the Foundation layer over it, and
// the tests' signal generators) compiled with -O in a debug build too. The tests run hours of audio through it,
// about 25 times faster than unoptimised; everything else keeps the debug build's checks. Read from the
// environment so that a package depending on MicCheck never sees an unsafe flag.
let optimizedForTests: [SwiftSetting] =
    Context.environment["MICCHECK_OPTIMIZED_TESTS"] == "1" ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let package = Package(
    name: "MicCheck",
    // Linux needs nothing more; on Apple platforms MicCheckLive's Mutex and Atomic (Synchronization) and the
    // kernel's typed throws set the floor.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "MicCheck", targets: ["MicCheck"]),
        .library(name: "MicCheckKernel", targets: ["MicCheckKernel"]),
        .library(name: "MicCheckLive", targets: ["MicCheckLive"]),
        .library(name: "MicCheckLivePulse", targets: ["MicCheckLivePulse"]),
        .library(name: "MicCheckPulse", targets: ["MicCheckPulse"]),
        .library(name: "MicCheckVoiceProcessing", targets: ["MicCheckVoiceProcessing"]),
        .library(name: "MicCheckCall", targets: ["MicCheckCall"]),
        .library(name: "MicCheckTerminal", targets: ["MicCheckTerminal"]),
        .library(name: "MicCheckPresence", targets: ["MicCheckPresence"]),
        .library(name: "MicCheckServer", targets: ["MicCheckServer"]),
        .library(name: "MicCheckPresencePostgres", targets: ["MicCheckPresencePostgres"]),
        .library(name: "MicCheckTesting", targets: ["MicCheckTesting"]),
        .executable(name: "miccheck", targets: ["miccheck"]),
        .executable(name: "muted-notice", targets: ["MutedNotice"]),
        .executable(name: "core-only", targets: ["CoreOnly"]),
        .executable(name: "fed-audio", targets: ["FedAudio"]),
        .executable(name: "mic-test-file", targets: ["MicTestFile"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        // Already in Hummingbird's graph; named for WebSocket close codes, logging and the service protocol.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Join tokens (HS256 JWT) for calls that only those invited may join.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // Presence shared by several serve nodes through PostgreSQL (LISTEN/NOTIFY).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // In postgres-nio's graph; named for the TLS context of the presence listener's connection.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        // The analysis kernel: framing, resampling, levels, the FFT and features, the voice model (its weights
        // in the source, written by scripts/embed-model.py), speech events, the detectors, the microphone
        // test. No Foundation, no existentials, no allocation per frame: it also builds with Embedded Swift
        // for WebAssembly (scripts/build-wasm.sh), the page's own analysis.
        .target(name: "MicCheckKernel", swiftSettings: strict + optimizedForTests),
        // The kernel's C ABI for the page's WebAssembly (scripts/build-wasm.sh compiles it with the kernel into
        // miccheck.wasm); built natively too, so that every build checks it. Not API of MicCheck.
        .target(name: "MicCheckWasm", dependencies: ["MicCheckKernel"], swiftSettings: strict),
        // The kernel (re-exported) and what needs Foundation: WAV files, model files (the bundled model's
        // JSON, written by training/train_vad.py, is a resource), JSON Lines, state files.
        .target(
            name: "MicCheck", dependencies: ["MicCheckKernel"], resources: [.copy("Resources/VoiceActivityModel.json")],
            swiftSettings: strict + optimizedForTests),
        // The call's models: settings, capabilities, participants, permissions, lobby, "You are muted.",
        // tiles, the permissions prompt. Pure values and transitions; builds wherever Swift does.
        .target(name: "MicCheckCall", dependencies: ["MicCheck", "MicCheckKernel"], swiftSettings: strict),
        // Terminal rendering of the lobby and the call (a cell canvas and a replaceable view factory), and the
        // reports of analyze and listen (the timeline, the live display).
        // Pure Swift; the executable paints the canvas with ncurses.
        .target(
            name: "MicCheckTerminal",
            dependencies: [
                "MicCheck", "MicCheckCall", "MicCheckLive", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // ncurses (Debian's libncurses-dev) behind a small C API, with the signal handlers that give the
        // terminal back on a signal or a crash. Not API of MicCheck.
        .target(name: "CTerminal", linkerSettings: [.linkedLibrary("ncursesw", .when(platforms: [.linux]))]),
        // Signal generators, in-memory WAV files and a manual clock for tests and benchmarks.
        // Its voice.wav is written by scripts/make_test_voice.py.
        .target(
            name: "MicCheckTesting",
            dependencies: [
                "MicCheck", "MicCheckLive", .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/voice.wav")], swiftSettings: strict + optimizedForTests),
        // libpulse (PulseAudio, and PipeWire's Pulse server): a system library, not API.
        // Headers and library from Debian's libpulse-dev (scripts/setup.sh installs it). No pkgConfig: its
        // -D_REENTRANT and -pthread flags are refused by SwiftPM with a warning, and neither is needed.
        .systemLibrary(name: "CPulseAudio"),
        // A C API over Debian's webrtc-audio-processing 0.3 (what PulseAudio's echo-cancel module uses;
        // libwebrtc-audio-processing-dev, which scripts/setup.sh installs). Swift does not import its
        // pure-virtual C++ methods, hence the shim. Not API of MicCheck.
        // No pkg-config system library: SwiftPM warns about and drops its two -D flags. The shim sets
        // them and reaches the headers through `system/webrtc`, a link to Debian's
        // /usr/include/webrtc_audio_processing/webrtc (where pkg-config's -I points).
        .target(
            name: "CVoiceProcessingShim",
            cxxSettings: [
                .headerSearchPath("system"),
                .define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD"),
            ],
            linkerSettings: [.linkedLibrary("webrtc_audio_processing", .when(platforms: [.linux]))]
        ),
        // Echo cancellation, noise suppression, gain control and high-pass filtering on Linux.
        .target(
            name: "MicCheckVoiceProcessing",
            dependencies: ["MicCheck", .target(name: "CVoiceProcessingShim", condition: .when(platforms: [.linux]))],
            swiftSettings: strict
        ),
        // Live capture and devices on Linux over libpulse.
        .target(
            name: "MicCheckPulse",
            dependencies: [
                "MicCheck", "MicCheckKernel", .target(name: "CPulseAudio", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Live analysis: audio sources (WAV files, the bundled sample, fed blocks) and the session that reads
        // one, analyses it and delivers time-ordered records; the camera probe (device I/O kept out of the
        // call models). No native library: an app on files or fed audio links neither libpulse nor
        // webrtc-audio-processing. The sample is a resource (written by scripts/make_sample.py).
        .target(
            name: "MicCheckLive", dependencies: ["MicCheck", "MicCheckCall"],
            resources: [.copy("Resources/sample.wav")],
            swiftSettings: strict),
        // The live sources on a PulseAudio server (PulseAudioSource, and VoiceProcessedSource through
        // webrtc-audio-processing), the microphones around the one in use (MicrophoneDevices), and the
        // ducker following a session: what links the native libraries, on Linux.
        .target(
            name: "MicCheckLivePulse",
            dependencies: [
                "MicCheck", "MicCheckCall", "MicCheckLive",
                .target(name: "MicCheckPulse", condition: .when(platforms: [.linux])),
                .target(name: "MicCheckVoiceProcessing", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Who is in each call: the store protocol, its events, the in-memory store, the mirror of a shared store and
        // the one version rule. Pure Swift on the kernel's JSONValue: no server, no database, no Foundation.
        .target(name: "MicCheckPresence", dependencies: ["MicCheckKernel"], swiftSettings: strict),
        // The browser client, in its own home (Web/): the SDK (sdk/, with its generated declarations) and
        // MicCheck's own page (index.html, app/), as resources served as they are: no build step.
        .target(
            name: "MicCheckWeb", path: "Web", exclude: ["README.md"], sources: ["MicCheckWeb.swift"],
            resources: [
                .copy("index.html"), .copy("style.css"), .copy("favicon.svg"), .copy("package.json"), .copy("app"),
                .copy("sdk"),
            ],
            swiftSettings: strict
        ),
        // The browser server (miccheck serve): the lobby and the call as pages (MicCheckWeb), a WebSocket per
        // browser with a live analysis of its audio, presence, WebRTC signalling, and the streaming VAD endpoint
        // /v1/vad.
        .target(
            name: "MicCheckServer",
            dependencies: [
                "MicCheck", "MicCheckCall", "MicCheckPresence", "MicCheckWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The server's child channel (HTTPServerBuilder, ServerChildChannel): the connection guard.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strict
        ),
        // Presence shared by several serve nodes through PostgreSQL: the I/O only (the listener, the lease
        // and the reaper, the queries). What each node's connections are told is decided by MicCheckPresence's
        // pure PresenceMirror; the server checks every signal it relays, so the store needs no server.
        .target(
            name: "MicCheckPresencePostgres",
            dependencies: [
                "MicCheck", "MicCheckPresence",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "miccheck",
            dependencies: [
                "MicCheck", "MicCheckCall", "MicCheckLive", "MicCheckLivePulse", "MicCheckTerminal", "MicCheckServer",
                "MicCheckPresencePostgres",
                .target(name: "CTerminal", condition: .when(platforms: [.linux])),
                .target(name: "MicCheckPulse", condition: .when(platforms: [.linux])),
                .target(name: "MicCheckVoiceProcessing", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Examples: small apps on the public API only, built with everything else and run by the tests.
        .executableTarget(
            name: "MutedNotice", dependencies: ["MicCheck", "MicCheckLive", "MicCheckLivePulse"],
            path: "Examples/MutedNotice",
            swiftSettings: strict),
        // The kernel alone: no Foundation, no native library.
        .executableTarget(
            name: "CoreOnly", dependencies: ["MicCheckKernel"], path: "Examples/CoreOnly", swiftSettings: strict),
        // Fed audio and the microphone test on files: MicCheckLive without the native libraries.
        .executableTarget(
            name: "FedAudio", dependencies: ["MicCheck", "MicCheckLive"], path: "Examples/FedAudio",
            swiftSettings: strict),
        .executableTarget(
            name: "MicTestFile", dependencies: ["MicCheck", "MicCheckLive"], path: "Examples/MicTestFile",
            swiftSettings: strict),
        .testTarget(
            name: "MicCheckTests", dependencies: ["MicCheck", "MicCheckLive", "MicCheckTesting"], swiftSettings: strict),
        .testTarget(
            name: "MicCheckLiveTests", dependencies: ["MicCheck", "MicCheckLive", "MicCheckTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "MicCheckCallTests", dependencies: ["MicCheck", "MicCheckCall", "MicCheckLive", "MicCheckTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "MicCheckTerminalTests",
            dependencies: [
                "MicCheck", "MicCheckCall", "MicCheckLive", "MicCheckTerminal", "MicCheckTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "MicCheckPulseTests",
            dependencies: [
                "MicCheck", "MicCheckTesting", .target(name: "MicCheckPulse", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MicCheckVoiceProcessingTests",
            dependencies: [
                "MicCheck", "MicCheckTesting",
                .target(name: "MicCheckVoiceProcessing", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MicCheckServerTests",
            dependencies: [
                "MicCheck", "MicCheckCall", "MicCheckServer", "MicCheckTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                // Tokens as another signer would make them (the header's laxities).
                .product(name: "JWTKit", package: "jwt-kit"),
                // A WebSocket's bytes by hand (GuardTests' WebSocketByHand).
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MicCheckPresenceTests", dependencies: ["MicCheckKernel", "MicCheckPresence"], swiftSettings: strict),
        .testTarget(
            name: "MicCheckPresencePostgresTests",
            dependencies: ["MicCheck", "MicCheckPresence", "MicCheckPresencePostgres", "MicCheckTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MiccheckCLITests",
            dependencies: ["MicCheck", "MicCheckTerminal", "MicCheckTesting"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks (package-benchmark) only when asked for, so that the main build and CI stay fast:
//   MICCHECK_BENCHMARKS=1 swift package --disable-sandbox benchmark
if Context.environment["MICCHECK_BENCHMARKS"] == "1" {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "FramePath",
            dependencies: [
                "MicCheck", "MicCheckTesting",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FramePath",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
}

// DocC documentation (scripts/build-docs.sh) only when asked for: MICCHECK_DOCS=1 swift package generate-documentation
if Context.environment["MICCHECK_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

// Fuzz targets (libFuzzer with AddressSanitizer, Fuzz/): only when asked for, and only through scripts/fuzz.sh,
// which builds them with -sanitize=fuzzer,address:  bash scripts/fuzz.sh wav 60
if Context.environment["MICCHECK_FUZZ"] == "1" {
    let targets: [(String, [Target.Dependency])] = [
        ("FuzzWAV", ["MicCheck"]),
        ("FuzzModel", ["MicCheck"]),
        ("FuzzCallDescription", ["MicCheckCall"]),
        (
            "FuzzStateFiles",
            ["MicCheck", "MicCheckCall", .target(name: "MicCheckPulse", condition: .when(platforms: [.linux]))]
        ),
        (
            "FuzzServerMessages",
            ["MicCheck", "MicCheckCall", "MicCheckServer", .product(name: "NIOCore", package: "swift-nio")]
        ),
    ]
    // Libraries, not executables: libFuzzer brings the main, and scripts/fuzz.sh links each target alone.
    for (name, dependencies) in targets {
        package.targets.append(
            .target(name: name, dependencies: dependencies, path: "Fuzz/\(name)", swiftSettings: strict))
    }
}
