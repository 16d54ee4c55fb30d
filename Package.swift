// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "MicCheck",
    products: [
        .library(name: "MicCheck", targets: ["MicCheck"]),
        .library(name: "MicCheckTesting", targets: ["MicCheckTesting"]),
        .executable(name: "miccheck", targets: ["miccheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Pure Swift core: formats, resampling, levels, voice activity, detectors. No platform imports.
        .target(name: "MicCheck", swiftSettings: strict),
        // Signal generators and in-memory WAV files for tests and benchmarks.
        .target(name: "MicCheckTesting", dependencies: ["MicCheck"], swiftSettings: strict),
        .executableTarget(
            name: "miccheck",
            dependencies: [
                "MicCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "MicCheckTests", dependencies: ["MicCheck", "MicCheckTesting"], swiftSettings: strict),
        .testTarget(
            name: "MiccheckCLITests",
            dependencies: ["MicCheck", "MicCheckTesting"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
