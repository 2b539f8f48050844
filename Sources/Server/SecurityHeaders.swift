import Foundation
import HTTPTypes
import Hummingbird

/// Security headers on every response. The Content-Security-Policy allows
/// nothing from other origins, no inline scripts and no inline styles: the
/// pages load their one script and one stylesheet from this server.
enum SecurityHeaders {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The policy with Telegram's login widget allowed: its script from telegram.org and its frame from oauth.telegram.org.
    static let telegramWidgetPolicy = contentSecurityPolicy.replacingOccurrences(of: "script-src 'self'", with: "script-src 'self' https://telegram.org")
        + "; frame-src https://oauth.telegram.org"

    /// The policy with the operator's base tiles allowed as images (the pages with a map), or nil when there are none or
    /// their address is not http(s).
    static func policy(allowingTiles template: String?) -> String? {
        guard let template,
              let url = URL(string: template.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
              let scheme = url.scheme, scheme == "https" || scheme == "http", let host = url.host else { return nil }
        let origin = url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
        return contentSecurityPolicy.replacingOccurrences(of: "img-src 'self' data:", with: "img-src 'self' data: \(origin)")
    }

    /// Built once: making each field name and checking each value on every response showed in profiles.
    static let fields: [HTTPField] = [
        HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
        HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        HTTPField(name: HTTPField.Name("X-Frame-Options")!, value: "DENY"),
        HTTPField(name: HTTPField.Name("Referrer-Policy")!, value: "no-referrer"),
        HTTPField(name: HTTPField.Name("Permissions-Policy")!, value: "geolocation=(self), camera=(), microphone=()"),
        HTTPField(name: HTTPField.Name("Cross-Origin-Opener-Policy")!, value: "same-origin"),
    ]

    /// The fields' names, for one pass over a response's own fields.
    private static let names = Set(fields.map(\.name))

    static func apply(to response: inout Response) {
        // Most responses set none of them: all are added at once (one at a time, each append was a copy-on-write check
        // and an index update).
        guard response.headers.contains(where: { names.contains($0.name) }) else {
            response.headers.append(contentsOf: fields)
            return
        }
        for field in fields {
            // A page that needs more (the sign-in page with Telegram's widget) sets its own policy, built on this one.
            if field.name == .contentSecurityPolicy, response.headers.contains(field.name) { continue }
            if response.headers.contains(field.name) { response.headers[fields: field.name] = [field] } else { response.headers.append(field) }
        }
    }
}
