import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Storage
import Transit
import WebPages

/// The web app's people pages: sign-in and sign-up, the account, "My routes" and the glance view,
/// and the forms that change a person's routes. Every change is a form post answered with a
/// redirect (so the back button and a reload never repeat it); a change made on an old version
/// of the routes goes back to "My routes" saying so, never over another device's change.
struct PeoplePages: Sendable {
    let deps: ServerDependencies
    let pages: PageRoutes
    var people: PeopleService { deps.people }
    var auth: Authenticator { deps.auth }

    func add(to router: Router<OnwardRequestContext>) {
        router.get("signin") { request, _ in try await signInPage(request, .signIn) }
        router.get("signup") { request, _ in try await signInPage(request, .signUp) }
        router.post("signin") { request, context in try await signIn(request, context, .signIn) }
        router.post("signup") { request, context in try await signIn(request, context, .signUp) }
        router.post("signout") { request, _ in
            let (signed, form) = try await change(request)
            try await people.signOut(signed, everywhere: form["everywhere"] == "1")
            return Self.redirect(Links.home, clearing: request)
        }
        router.get("account") { request, _ in
            guard let me = try await pages.signedIn(request, deps.queries()) else { return Self.redirect(Links.signIn) }
            let profile = try await deps.trips.profile(me.signed.account.id, for: me.signed.account.id)
            return pages.page(AccountPage.render(displayName: profile.displayName, username: me.signed.account.username, bio: profile.bio, photo: profile.photo,
                                                 context: me.context), request)
        }
        // The profile friends see: name and bio by the form; the photo by the page's script (a JSON upload).
        router.post("account/profile") { request, _ in
            let (signed, form) = try await change(request)
            _ = try await deps.trips.updateProfile(signed.account.id, .init(displayName: form["displayName"], bio: form["bio"]))
            return Self.redirect(Links.account)
        }
        router.post("account/delete") { request, _ in
            let (signed, form) = try await change(request)
            guard form["confirm"] == "1" else { return Self.redirect(Links.account) }
            try await deps.trips.forget(signed.account.id)
            try await people.deleteAccount(signed)
            return Self.redirect(Links.home, clearing: request)
        }
        router.get("me") { request, _ in
            let queries = deps.queries()
            guard let me = try await pages.signedIn(request, queries) else { return Self.redirect(Links.signIn) }
            if request.uri.queryParameters.get(OfflineCopy.parameter) == "1" {
                return pages.page(MyRoutesPage.offline(boards: deps.offlineBoards(me.routes), context: me.context), request)
            }
            let result = await queries.currentResult(me.routes, languages: me.context.language.alertLanguages)
            let notice = request.uri.queryParameters.get("stale") == "1" ? me.context.strings(.myRoutesStale) : nil
            return pages.page(MyRoutesPage.render(me.routes, result: result, notice: notice, context: me.context), request)
        }
        router.get("glance") { request, _ in
            let queries = deps.queries()
            guard let me = try await pages.signedIn(request, queries) else {
                return pages.page(GlancePage.render(nil, context: pages.pageContext(request, queries)), request)
            }
            return pages.page(GlancePage.render(await queries.currentResult(me.routes, languages: me.context.language.alertLanguages), context: me.context),
                              request)
        }
        router.post("me/routes") { request, _ in
            try await edit(request) { signed, form in
                [.create(try await people.prepared(try Self.route(form, kinds: [.board, .journey]), for: signed.account.id, queries: deps.queries(),
                                                   languages: try RequestParameters(request).languages))]
            }
        }
        router.post("me/current") { request, _ in
            try await edit(request) { _, form in [.setCurrent(routeId: form["routeId"] ?? "")] }
        }
        router.post("me/routes/{routeId}/stack") { request, context in
            let stackID = try context.pathID("routeId")
            return try await edit(request) { signed, form in
                // Someone else's stack is a 404 before anything about the form is said.
                guard try await people.routes(signed.account.id).stacks.contains(where: { $0.route.id == stackID }) else { throw PeopleService.routeNotFound }
                return [.push(routeId: stackID, try await people.prepared(try Self.route(form, kinds: [.service, .journeyOption]), for: signed.account.id, onto: stackID,
                                                                          queries: deps.queries(), languages: try RequestParameters(request).languages))]
            }
        }
        router.post("me/routes/{routeId}/back") { request, context in
            let stackID = try context.pathID("routeId")
            return try await edit(request) { signed, form in
                // Back to a crumb: as many pops as routes above it.
                guard let stack = try await people.routes(signed.account.id).stacks.first(where: { $0.route.id == stackID }) else {
                    throw PeopleService.routeNotFound
                }
                let depth = Int(form["depth"] ?? "") ?? 0
                return Array(repeating: .pop(routeId: stackID), count: max(0, stack.pushed.count - max(0, depth)))
            }
        }
        router.post("me/routes/{routeId}/rename") { request, context in
            let stackID = try context.pathID("routeId")
            return try await edit(request) { _, form in [.update(routeId: stackID, name: form["name"] ?? "", position: nil)] }
        }
        router.post("me/routes/{routeId}/move") { request, context in
            let stackID = try context.pathID("routeId")
            return try await edit(request) { _, form in
                guard let position = Int(form["position"] ?? "") else { throw PeopleService.invalid("position must be a whole number", "position") }
                return [.update(routeId: stackID, name: nil, position: position)]
            }
        }
        router.post("signin/telegram") { request, context in try await telegramSignIn(request, context) }
        router.post("me/routes/{routeId}/delete") { request, context in
            let stackID = try context.pathID("routeId")
            return try await edit(request) { _, _ in [.delete(routeId: stackID)] }
        }
    }

    // MARK: - Signing in

    func signInPage(_ request: Request, _ mode: SignInPage.Mode) async throws -> Response {
        if try await auth.caller(request) != nil { return Self.redirect(Links.me) }
        return await signInForm(request, mode)
    }

    /// The sign-in or sign-up form, with Telegram sign-in when it is configured (and the Content-Security-Policy
    /// that lets that one page load Telegram's script). Telegram's form carries an anti-forgery token that is
    /// also in a cookie only this site's pages can read back (`telegramSignIn` checks the two agree).
    func signInForm(_ request: Request, _ mode: SignInPage.Mode, username: String = "", problem: Problem? = nil) async -> Response {
        let telegram = people.telegramBotID.map { SignInPage.Telegram(botID: $0, formToken: Secrets.token()) }
        var response = pages.page(SignInPage.render(mode, username: username, problem: problem?.detail, telegram: telegram,
                                                    context: await pages.personalContext(request, deps.queries())), request)
        if let telegram {
            response.headers[.contentSecurityPolicy] = SecurityHeaders.telegramWidgetPolicy
            response.setCookie(Cookie(name: Self.telegramFormCookie, value: telegram.formToken, maxAge: 3_600, path: Links.signIn,
                                      secure: Authenticator.overTLS(request), httpOnly: true, sameSite: .strict))
        }
        if let problem { response.status = .init(code: problem.status) }
        return response
    }

    static let telegramFormCookie = "onward_signin"

    /// What the sign-in page posts after Telegram's login window signed the person in: Telegram's signed fields
    /// and the page's anti-forgery token. Refused (403) unless it comes from this site's page: the Origin check,
    /// and the token equal to the page's cookie, so a page elsewhere cannot sign a browser into an account whose
    /// signed data it holds (login forgery, which a redirect carrying the data in a link allowed).
    func telegramSignIn(_ request: Request, _ context: OnwardRequestContext) async throws -> Response {
        guard auth.sameOrigin(request) else { throw Authenticator.forged }
        var fields = try await Self.form(request, limit: deps.settings.maxBodyBytes)
        let sent = fields.removeValue(forKey: "_csrf") ?? ""
        guard let expected = request.cookies[Self.telegramFormCookie]?.value, !sent.isEmpty, Secrets.constantTimeEqual(sent, expected) else {
            throw Authenticator.forged
        }
        do {
            let (signed, token) = try await people.telegramSignIn(fields, client: PeopleRoutes.client(context), kind: .browser)
            var response = try await startBrowserSession(request, signed, token)
            response.setCookie(Cookie(name: Self.telegramFormCookie, value: "", maxAge: 0, path: Links.signIn, httpOnly: true, sameSite: .strict))
            return response
        } catch let e as ServiceError where Problem.from(e).status < 500 {
            return await signInForm(request, .signIn, problem: Problem.from(e))
        }
    }

    /// "My routes" with a new session cookie; a session the browser had before ends.
    func startBrowserSession(_ request: Request, _ signed: PeopleService.Signed, _ token: String) async throws -> Response {
        if let old = try await auth.caller(request) { try await people.signOut(old.signed, everywhere: false) }
        var response = Self.redirect(Links.me)
        response.setCookie(Authenticator.sessionCookie(token, request: request, maxAge: Int(signed.session.expiresAt.epochSeconds - signed.session.createdAt.epochSeconds)))
        return response
    }

    /// A sign-in or sign-up form: on success a new session cookie (any earlier one ends) and "My routes";
    /// else the form again with what went wrong.
    func signIn(_ request: Request, _ context: OnwardRequestContext, _ mode: SignInPage.Mode) async throws -> Response {
        // A form posted from another site could sign a browser into someone else's account.
        guard auth.sameOrigin(request) else { throw Authenticator.forged }
        let form = try await Self.form(request, limit: deps.settings.maxBodyBytes)
        let username = form["username"] ?? "", password = form["password"] ?? ""
        let client = PeopleRoutes.client(context)
        do {
            let (signed, token) = mode == .signUp
                ? try await people.createAccount(username: username, password: password, displayName: form["displayName"], client: client, kind: .browser)
                : try await people.signIn(username: username, password: password, client: client, kind: .browser)
            return try await startBrowserSession(request, signed, token)
        } catch let e as ServiceError where Problem.from(e).status < 500 {
            return await signInForm(request, mode, username: username, problem: Problem.from(e))
        }
    }

    // MARK: - Changes

    /// The signed-in person and the form, checked against forgery (the form's `_csrf`).
    func change(_ request: Request) async throws -> (PeopleService.Signed, [String: String]) {
        let form = try await Self.form(request, limit: deps.settings.maxBodyBytes)
        return (try await auth.require(request, formToken: form["_csrf"] ?? ""), form)
    }

    /// Applies the edits a form asks for, one after another from the version the page showed, then shows "My routes".
    func edit(_ request: Request, _ edits: (PeopleService.Signed, [String: String]) async throws -> [SavedRoutes.Edit]) async throws -> Response {
        let (signed, form) = try await change(request)
        var version = Int(form["version"] ?? "") ?? -1
        do {
            for e in try await edits(signed, form) { version = try await people.edit(signed.account.id, version: version, e).version }
        } catch let e as ServiceError where e.code == .staleVersion {
            return Self.redirect(Links.me + "?stale=1")
        }
        return Self.redirect(Links.me)
    }

    /// A saved route from a form's fields, of one of `kinds` (checked further by `PeopleService.prepared`).
    static func route(_ form: [String: String], kinds: Set<SavedRoute.Kind>) throws -> SavedRoute {
        guard let kind = form["kind"].flatMap(SavedRoute.Kind.init(rawValue:)), kinds.contains(kind) else {
            throw PeopleService.invalid("kind must be one of \(kinds.map(\.rawValue).sorted().joined(separator: ", "))", "kind")
        }
        func field(_ name: String) -> String? { form[name].flatMap { $0.isEmpty ? nil : $0 } }
        return SavedRoute(kind: kind, stopId: field("stopId"), from: field("from"), to: field("to"),
                          arrivals: kind == .board && form["arrivals"] == "1" ? true : nil, tripId: field("tripId"),
                          serviceDate: field("serviceDate"), departure: field("departure"))
    }

    static func form(_ request: Request, limit: Int) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: limit)
        var fields: [String: String] = [:]
        for (key, value) in RequestParameters.formDecoded(String(buffer: body)) where fields[key] == nil { fields[key] = value }
        return fields
    }

    /// 303 See Other, optionally ending the browser's session cookie.
    static func redirect(_ location: String, clearing request: Request? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if let request {
            // Signing out leaves nothing of the person on the device: the service worker's offline copies of their
            // boards, and its registration (the page's script asks the worker to drop the copies first, too).
            response.headers[HTTPField.Name("Clear-Site-Data")!] = "\"cache\", \"storage\""
            response.setCookie(Cookie(name: Authenticator.cookieName, value: "", maxAge: 0, path: "/", secure: Authenticator.overTLS(request),
                                      httpOnly: true, sameSite: .lax))
        }
        return response
    }
}
