import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Storage

/// Who a request comes from: a browser's session cookie or an API client's `Authorization: Bearer`
/// token. A change made with the cookie must also carry the session's anti-forgery token
/// (`X-CSRF-Token`, or the `_csrf` field of a page's form) and, when the browser says where it
/// comes from, come from this server's own pages: a cookie alone is what a forged cross-site
/// request would have. A bearer token is never sent by a browser on its own, so it needs neither.
struct Authenticator: Sendable {
    static let cookieName = "onward_session"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    let people: PeopleService
    let allowedOrigins: Set<String>

    struct Caller: Sendable {
        var signed: PeopleService.Signed
        var viaCookie: Bool
    }

    /// The signed-in caller, or nil (no credentials, or ones that have ended).
    func caller(_ request: Request) async throws -> Caller? {
        if let bearer = Self.bearer(request) {
            return try await people.authenticate(token: bearer).map { Caller(signed: $0, viaCookie: false) }
        }
        guard let cookie = request.cookies[Self.cookieName]?.value else { return nil }
        return try await people.authenticate(token: cookie).map { Caller(signed: $0, viaCookie: true) }
    }

    /// The signed-in caller, or 401; for a change made with a cookie, checked against forgery (403).
    func require(_ request: Request, formToken: String? = nil) async throws -> PeopleService.Signed {
        guard let caller = try await caller(request) else { throw Self.signInRequired }
        if caller.viaCookie, !Self.safe(request.method) { try checkForgery(request, session: caller.signed.session, formToken: formToken) }
        return caller.signed
    }

    /// A change from a browser (cookie) must come from this server's pages and carry the session's token.
    func checkForgery(_ request: Request, session: SessionRecord, formToken: String?) throws {
        guard sameOrigin(request) else { throw Self.forged }
        let sent = request.headers[Self.csrfHeader] ?? formToken ?? ""
        guard Secrets.constantTimeEqual(sent, session.csrfToken) else { throw Self.forged }
    }

    /// Whether the browser says the request comes from this server's pages: its `Origin`, or
    /// `Sec-Fetch-Site` when the origin is withheld. Our pages' `Referrer-Policy: no-referrer`
    /// makes a browser send `Origin: null` on their form posts, so `null` is decided by
    /// `Sec-Fetch-Site` (and refused without it). A client that sends neither is not a browser.
    func sameOrigin(_ request: Request) -> Bool {
        let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]
        if let origin = request.headers[.origin], origin != "null" {
            return LiveRoutes.originAllowed(origin, host: request.head.authority, allowed: allowedOrigins)
        }
        if let site { return site == "same-origin" }
        return request.headers[.origin] == nil
    }

    static func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    static func safe(_ method: HTTPRequest.Method) -> Bool { method == .get || method == .head || method == .options }

    /// The session cookie: HttpOnly, SameSite=Lax, Secure when the request came over TLS (directly or through a proxy).
    static func sessionCookie(_ token: String, request: Request, maxAge: Int) -> Cookie {
        Cookie(name: cookieName, value: token, maxAge: maxAge, path: "/", secure: overTLS(request), httpOnly: true, sameSite: .lax)
    }

    /// Over TLS directly, or (`X-Forwarded-Proto`, which `ClientOrigin` keeps only from a trusted proxy) through a proxy.
    static func overTLS(_ request: Request) -> Bool {
        request.head.scheme == "https" || request.headers[.xForwardedProto] == "https"
    }

    static let signInRequired = Problem(status: .unauthorized, code: "sign-in-required", title: "Sign-in required",
                                        detail: "Sign in first: a session cookie, or Authorization: Bearer TOKEN from signIn.")
    static let forged = Problem(status: .forbidden, code: "forgery-refused", title: "Refused as a possible forgery",
                                detail: "A change made with a browser session must come from this server's pages with the page's anti-forgery token. Reload the page and try again.")
}
