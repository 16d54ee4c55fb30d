import Foundation

/// A running `miccheck` whose output lines are collected as they arrive, for live commands.
final class LiveProcess: @unchecked Sendable {
    // @unchecked Sendable: `outLines`, `errText` and `finished` are guarded by `lock`; the process and
    // pipes are set up in `init` and only read afterwards.
    let process = Process()
    private let lock = NSLock()
    private var outLines: [String] = []
    private var outPartial = Data()
    private var errText = ""
    private var finished = false
    private let done = DispatchGroup()

    init(_ args: [String], environment: [String: String], executable: URL = binary) throws {
        process.executableURL = executable
        process.arguments = args
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        for (pipe, isOut) in [(out, true), (err, false)] {
            done.enter()
            Thread.detachNewThread { [self] in
                let h = pipe.fileHandleForReading
                while true {
                    let d = h.availableData
                    if d.isEmpty { break }
                    lock.withLock {
                        if isOut {
                            outPartial.append(d)
                            while let nl = outPartial.firstIndex(of: 10) {
                                outLines.append(String(decoding: outPartial[outPartial.startIndex..<nl], as: UTF8.self))
                                outPartial.removeSubrange(outPartial.startIndex...nl)
                            }
                        } else {
                            errText += String(decoding: d, as: UTF8.self)
                        }
                    }
                }
                done.leave()
            }
        }
        try process.run()
    }

    var lines: [String] { lock.withLock { outLines } }
    var stderr: String { lock.withLock { errText } }

    /// The JSON records printed so far.
    var records: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func events(_ name: String) -> [[String: Any]] { records.filter { $0["event"] as? String == name } }

    /// The `t` of the last frame record so far.
    var lastFrameTime: Double? { records.last(where: { $0["event"] == nil })?["t"] as? Double }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    @discardableResult
    func wait(timeout: Double, until condition: () -> Bool) -> Bool { poll(timeout: timeout, condition) }

    /// Waits for the process to exit (killing it after `timeout`) and for its output to be read.
    func finish(timeout: Double) -> Int32 {
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.interrupt()
            Thread.sleep(forTimeInterval: 0.5)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = done.wait(timeout: .now() + 5)
        return process.terminationStatus
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held.
@discardableResult
func poll(timeout: Double, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}
