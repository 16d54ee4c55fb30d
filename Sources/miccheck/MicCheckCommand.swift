import ArgumentParser
import Foundation

@main
struct MicCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "miccheck",
        abstract: "What the local microphone hears: levels, speech, and whether it works at all.",
        discussion: """
            Exit status: 0 on success, 1 on a runtime failure (an output that cannot be written), 64 on \
            bad arguments, 65 on unreadable or malformed audio, 66 on a missing or unreadable file or \
            source, 69 when no audio server answers, 77 when the audio server refuses access.
            """,
        version: "0.1.0",
        subcommands: [
            Analyze.self, Listen.self, MicTest.self, Devices.self, Lobby.self, Serve.self, Token.self,
            ProcessFiles.self,
            Features.self, DuckGuard.self,
        ]
    )

    static func main() async {
        // Past a file size limit (ulimit -f) a write then fails with EFBIG, which is reported as a sentence,
        // instead of the signal killing the process with a half-written file.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            printError(failure.message)
            exit(withError: ExitCode(failure.status))
        } catch {
            exit(withError: error)
        }
    }
}

/// Exit statuses from sysexits.h, as the contract in DESIGN.md names them.
enum ExitStatus {
    static let runtimeFailure: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let noPermission: Int32 = 77
}
