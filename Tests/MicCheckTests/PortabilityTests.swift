import Foundation
import Testing

/// The core and call products build on every Swift platform: their sources import no libc module and
/// no C target (device I/O lives in MicCheckPulse and the executable; MicCheck's FileByteSource reads files
/// through the C library's open and read as Foundation brings them).
/// The kernel also builds with Embedded Swift for WebAssembly (scripts/build-wasm.sh is the whole check): it
/// imports nothing but the C library, for libm (Sources/MicCheckKernel/Math.swift), never Foundation.
@Suite struct PortabilityTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    static let forbidden = ["Glibc", "Musl", "Darwin", "WinSDK", "CPulseAudio", "CTerminal", "CVoiceProcessingShim"]

    @Test(arguments: ["MicCheck", "MicCheckCall"])
    func importsNoPlatformModule(product: String) throws {
        let folder = Self.sources.appendingPathComponent(product)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("import ") || line.contains("canImport(") {
                let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                for module in Self.forbidden where words.contains(Substring(module)) {
                    Issue.record("\(product)/\(file): \(line)")
                }
            }
        }
    }

    @Test("the kernel imports only the C library's mathematics, and no Foundation")
    func kernelImportsOnlyLibm() throws {
        let folder = Self.sources.appendingPathComponent("MicCheckKernel")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        let libm: Set<Substring> = ["Glibc", "Musl", "Darwin", "ucrt"]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                guard words.first == "import" || (words.count > 1 && words[1] == "import") else { continue }
                guard let module = words.last, libm.contains(module) else {
                    Issue.record("MicCheckKernel/\(file): \(line)")
                    continue
                }
            }
        }
    }
}
