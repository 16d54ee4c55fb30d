import Foundation
import HTTPTypes
import Hummingbird

/// Refuses requests whose `Host` is not one this server answers to: a web page on another site that
/// rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name, so it cannot reach a server that
/// listens on loopback. Nil: any host (a server on every interface with no names configured).
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let allowed: Set<String>?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let refusal = refusal(authority: request.head.authority ?? "") {
            context.logger.notice("refused a request for another host: \(request.head.authority ?? "")")
            throw refusal
        }
        return try await next(request, context)
    }

    /// The refusal of a request for `authority` (its Host), or nil.
    func refusal(authority: String) -> HTTPError? {
        guard let allowed else { return nil }
        let host = Self.hostName(authority)
        guard !allowed.contains(host) else { return nil }
        // The answer does not repeat the name sent (a page could have it shown as the server's); the log names it.
        return HTTPError(
            .misdirectedRequest,
            message: host.isEmpty
                ? "a request must name its host (Host)"
                : "this server does not answer to the host this request names; start it with --allow-host and that name"
        )
    }

    /// The host of an authority, lowercased, without its port (`[::1]` keeps its brackets).
    static func hostName(_ authority: String) -> String {
        let lower = authority.lowercased()
        if lower.hasPrefix("["), let end = lower.firstIndex(of: "]") { return String(lower[...end]) }
        guard let colon = lower.lastIndex(of: ":") else { return lower }
        return String(lower[..<colon])
    }
}

extension CallServer {
    /// The hosts this server answers to: loopback's names, the configured ones, and the address it listens
    /// on; nil (any) when it listens on every interface and none are configured.
    var allowedHosts: Set<String>? {
        let wildcard = ["0.0.0.0", "::", "[::]"].contains(configuration.host)
        if wildcard, configuration.allowedHosts.isEmpty { return nil }
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        for host in configuration.allowedHosts { hosts.insert(HostCheck<ServerRequestContext>.hostName(host)) }
        if !wildcard {
            hosts.insert(
                configuration.host.contains(":")
                    ? "[\(configuration.host.lowercased())]" : configuration.host.lowercased())
        }
        return hosts
    }
}

/// The headers every answer carries, refusals and errors included, and the paths no answer is given for: a
/// browser must not guess a file's type (`nosniff`), the pages run only their own scripts and connect only
/// to their own server (a Content-Security-Policy; `'wasm-unsafe-eval'` lets them compile MicCheck's analysis,
/// miccheck.wasm, and nothing broader: no `eval`, no inline script), and a path with a NUL or another control character
/// (`/app.js%00.html`, which the file system would cut short and the type map would call HTML) is refused.
///
/// The client SDK under `/sdk/` is public static files with no credentials, which pages on other origins
/// load in CORS mode (`import` of a module, `audioWorklet.addModule`): its answers also carry
/// `Access-Control-Allow-Origin: *` and `Cross-Origin-Resource-Policy: cross-origin`. Nothing else does.
enum PagePolicy {
    static let contentSecurity =
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
        + "media-src 'self' blob: mediastream:; connect-src 'self'; worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        + "form-action 'self'; object-src 'none'"
    static let noSniff = HTTPField.Name("X-Content-Type-Options")
    static let securityPolicy = HTTPField.Name("Content-Security-Policy")
    static let allowOrigin = HTTPField.Name("Access-Control-Allow-Origin")
    static let resourcePolicy = HTTPField.Name("Cross-Origin-Resource-Policy")

    /// Whether `path` (percent-decoded) is in the client SDK that other origins may load.
    static func isSharedWithOtherOrigins(_ path: String) -> Bool { path.hasPrefix("/sdk/") }

    /// The types the file map gives otherwise or not at all: `.d.ts` (the SDK's type declarations) is
    /// text, not an MPEG transport stream.
    static let mediaTypes: [String: MediaType] = [
        "ts": MediaType(type: .text, subType: "plain", parameter: ("charset", "utf-8")),
        // The analysis kernel (scripts/build-wasm.sh): WebAssembly.compileStreaming takes no other type.
        "wasm": MediaType(type: .application, subType: "wasm"),
    ]
}

struct PageHeaders<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path.removingPercentEncoding ?? "\u{0}"
        var response: Response
        do {
            guard !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw HTTPError(.badRequest, message: "a path may not hold control characters")
            }
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // A refusal is an answer too (400, 401, 403, 404, 421): the same headers.
            response = try error.response(from: request, context: context)
        } catch {
            context.logger.error("\(request.uri.path): \(error)")
            response = try HTTPError(.internalServerError).response(from: request, context: context)
        }
        Self.add(to: &response.headers, path: path)
        return response
    }

    static func add(to headers: inout HTTPFields, path: String) {
        if let name = PagePolicy.noSniff { headers[name] = "nosniff" }
        if let name = PagePolicy.securityPolicy { headers[name] = PagePolicy.contentSecurity }
        if PagePolicy.isSharedWithOtherOrigins(path) {
            if let name = PagePolicy.allowOrigin { headers[name] = "*" }
            if let name = PagePolicy.resourcePolicy { headers[name] = "cross-origin" }
        }
    }
}
