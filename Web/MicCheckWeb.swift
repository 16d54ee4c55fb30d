public import Foundation

/// MicCheck's browser client as files, served by `miccheck serve` as they are (no build step): the SDK
/// (`sdk/`: the client, the analysis worklet, the web components, `miccheck.wasm` once built, and the
/// declarations in `sdk/types/`), and MicCheck's own lobby and call page (`index.html`, `app/`).
public enum MicCheckWeb {
    /// The folder that holds them, laid out as the server serves it at `/` (the target's resource bundle;
    /// nil if `index.html` is not in it).
    public static var root: URL? {
        Bundle.module.url(forResource: "index", withExtension: "html")?.deletingLastPathComponent()
    }
}
