import Foundation
import MicCheck
import MicCheckCall
import MicCheckPulse

/// One input: the bytes as a state file, read as the permission prompt dismissals and as a ducking
/// journal (in memory, as the files would be). A damaged file must be set aside with one warning, never
/// crash; one that reads is then written back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
    let storage = MemoryStateStorage(["/s/permission-prompts.json": bytes, "/s/ducking/1.json": bytes])
    let prompts = PermissionPromptDismissals(path: "/s/permission-prompts.json", storage: storage)
    _ = prompts.dismissed(inCall: "standup") { _ in }
    try? prompts.dismiss(.microphone, inCall: "standup") { _ in }
    let journals = DuckingJournalStore(directory: "/s/ducking", storage: storage)
    if let journal = journals.load(path: "/s/ducking/1.json", warn: { _ in }) { try? journals.write(journal) }
    _ = journals.abandoned { _ in }
    return 0
}
