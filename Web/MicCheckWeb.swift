public import Foundation

/// MicCheck's browser client as files, served by `miccheck serve` as they are (no build step): the SDK
/// (`sdk/`: the client, the analysis worklet, the web components, `miccheck.wasm` once built, and the
/// declarations in `sdk/types/`), and MicCheck's own lobby and call page (`index.html`, `app/`).
public enum MicCheckWeb {
    /// The folder that holds them, laid out as the server serves it at `/`; nil when the package's
    /// resources are missing (a binary copied without its resource bundle).
    public static var root: URL? {
        Bundle.module.url(forResource: "index", withExtension: "html")?.deletingLastPathComponent()
    }
}
