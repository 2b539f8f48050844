import API
import Foundation
import OnwardCore
import Storage
import Synchronization
import Transit

/// People: accounts, sign-in, sessions and saved routes, over a `PeopleRepository`. Every change
/// to a person's routes is checked against the version the client read, stored, then announced
/// to the person's live connections.
public final class PeopleService: Sendable {
    /// A signed-in request's person and session.
    public struct Signed: Sendable {
        public var account: Account
        public var session: SessionRecord
    }

    public static let browserSessionSeconds: Int64 = 30 * 86_400
    public static let tokenSessionSeconds: Int64 = 180 * 86_400

    let repository: any PeopleRepository
    let hasher: PasswordHasher
    let telegram: TelegramLogin?
    public let hub: RoutesHub
    /// The live connections of each session, closed when it ends.
    public let sessionEnds = SessionEnds()
    public let now: @Sendable () -> Instant
    /// Sign-in attempts: ten per account, then one a minute; thirty per client, then one each ten seconds.
    /// Kept in storage, so the limit holds for every server on one database together.
    static let accountAttempts = RateLimiter.Configuration(ratePerSecond: 1.0 / 60, burst: 10)
    static let clientAttempts = RateLimiter.Configuration(ratePerSecond: 0.1, burst: 30)
    /// Attempts taken since idle buckets were last forgotten.
    private let attemptsSincePrune = Atomic<Int>(0)
    /// Checked against when a username does not exist, so that answer takes as long as a wrong password.
    private let decoy = Mutex<String?>(nil)

    /// - Parameter telegramBotUsername: shows Telegram's login widget on the sign-in page (with the token only).
    public init(repository: any PeopleRepository, hasher: PasswordHasher = PasswordHasher(), telegramBotToken: String? = nil,
                telegramBotUsername: String? = nil, hub: RoutesHub = RoutesHub(), now: @escaping @Sendable () -> Instant = { .now() }) {
        self.repository = repository; self.hasher = hasher; self.hub = hub; self.now = now
        telegram = telegramBotToken.map(TelegramLogin.init(botToken:))
        telegramWidgetBot = telegramBotToken == nil ? nil : telegramBotUsername
    }

    /// The bot whose login widget the sign-in page shows, when Telegram sign-in is on and the bot's username is known.
    public let telegramWidgetBot: String?

    /// The numeric ID of that bot (the part of its token before the colon, which Telegram shows in the bot's
    /// links, so no secret), for Telegram's login window; nil when the page shows no Telegram sign-in.
    public var telegramBotID: String? {
        guard telegramWidgetBot != nil, let id = telegram?.botID else { return nil }
        return id
    }

    // MARK: - Accounts and sign-in

    public func createAccount(username: String, password: String, displayName: String?, client: String,
                              kind: SessionRecord.Kind) async throws -> (Signed, token: String) {
        try await throttle(client: client, username: nil)
        if let p = Self.usernameProblem(username) { throw Self.invalid(p, "username") }
        if let p = PasswordHasher.problem(password) { throw Self.invalid(p, "password") }
        let name = (displayName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= 80 else { throw Self.invalid("displayName must be at most 80 characters", "displayName") }
        let account = Account(id: Secrets.id(), username: username, passwordHash: try await hasher.hash(password),
                              displayName: name.isEmpty ? username : name, createdAt: now())
        do { try await repository.createAccount(account) } catch let e as StorageError where e.code == .conflict {
            throw ServiceError(.usernameTaken, "Someone already has the username '\(username)'; choose another.", parameter: "username")
        }
        return try await startSession(account, kind: kind)
    }

    public func signIn(username: String, password: String, client: String, kind: SessionRecord.Kind) async throws -> (Signed, token: String) {
        try await throttle(client: client, username: username)
        let account = try await repository.account(username: username)
        let ok: Bool
        if let hash = account?.passwordHash {
            ok = try await hasher.verify(password, hash: hash)
        } else {
            _ = try await hasher.verify(password, hash: try await decoyHash())
            ok = false
        }
        guard ok, let account else { throw Self.wrongCredentials }
        return try await startSession(account, kind: kind)
    }

    /// Signs in the Telegram user the widget's fields name, creating their account on first sign-in.
    public func telegramSignIn(_ fields: [String: String], client: String, kind: SessionRecord.Kind) async throws -> (Signed, token: String) {
        guard let telegram else {
            throw ServiceError(.telegramOff, "This server has no Telegram bot configured (telegram_bot_token).")
        }
        try await throttle(client: client, username: nil)
        let user: TelegramLogin.User
        do throws(TelegramLogin.Failure) { user = try telegram.verify(fields, now: now()) } catch {
            throw ServiceError(.telegramRefused, error.description)
        }
        if let account = try await repository.account(telegramId: user.id) { return try await startSession(account, kind: kind) }
        let account = Account(id: Secrets.id(), telegramId: user.id, displayName: String(user.displayName.prefix(80)), createdAt: now())
        do { try await repository.createAccount(account) } catch let e as StorageError where e.code == .conflict {
            // Two first sign-ins at once: the other made the account.
            guard let made = try await repository.account(telegramId: user.id) else { throw e }
            return try await startSession(made, kind: kind)
        }
        return try await startSession(account, kind: kind)
    }

    /// The person and session a token belongs to, if it is current.
    public func authenticate(token: String) async throws -> Signed? {
        guard !token.isEmpty, token.count <= 200, let session = try await repository.session(tokenHash: Secrets.sha256(token)) else { return nil }
        guard session.expiresAt > now() else {
            try await repository.removeSession(tokenHash: session.tokenHash)
            return nil
        }
        guard let account = try await repository.account(id: session.accountId) else { return nil }
        return Signed(account: account, session: session)
    }

    public func signOut(_ signed: Signed, everywhere: Bool) async throws {
        if everywhere {
            try await repository.removeSessions(accountId: signed.account.id)
            // Every live connection was opened with one of those sessions.
            hub.close(signed.account.id)
            sessionEnds.endAll(account: signed.account.id)
        } else {
            try await repository.removeSession(tokenHash: signed.session.tokenHash)
            // That session's live connections (and only those) close now, on every server.
            sessionEnds.end(session: signed.session.tokenHash)
        }
    }

    /// Deletes the person with everything they saved, and closes their live connections.
    public func deleteAccount(_ signed: Signed) async throws {
        _ = try await repository.deleteAccount(id: signed.account.id)
        hub.close(signed.account.id)
        sessionEnds.endAll(account: signed.account.id)
    }

    public func export(_ signed: Signed) async throws -> ExportDTO {
        let sessions = try await repository.sessions(accountId: signed.account.id).map {
            ExportDTO.Session(kind: $0.kind.rawValue, createdAt: $0.createdAt.description, expiresAt: $0.expiresAt.description)
        }
        return ExportDTO(exportedAt: now().description, account: Self.me(signed.account),
                         routes: try await repository.routes(accountId: signed.account.id), sessions: sessions)
    }

    public static func me(_ a: Account) -> MeDTO {
        MeDTO(id: a.id, username: a.username, displayName: a.displayName, telegram: a.telegramId != nil, createdAt: a.createdAt.description)
    }

    // MARK: - Saved routes

    public func routes(_ accountId: String) async throws -> SavedRoutes { try await repository.routes(accountId: accountId) }

    /// Applies `edit` to the routes at `version` (what the client read) and stores the result; a
    /// client that read an older version gets 409 with the current state, and nothing changes.
    public func edit(_ accountId: String, version: Int, _ edit: SavedRoutes.Edit) async throws -> SavedRoutes {
        let current = try await repository.routes(accountId: accountId)
        guard current.version == version else { throw Self.stale(current) }
        let next: SavedRoutes
        do throws(RoutesError) { next = try current.applying(edit) } catch {
            switch error {
            case .notFound: throw Self.routeNotFound
            case .invalid(let why, let field): throw Self.invalid(why, field)
            case .notPossible(let why):
                throw ServiceError(.notPossible, why, current: current)
            }
        }
        guard try await repository.saveRoutes(next, accountId: accountId) else {
            throw Self.stale(try await repository.routes(accountId: accountId))
        }
        hub.publish(next, of: accountId)
        return next
    }

    /// A new route as it is kept: its fields checked for its kind (400 naming `route.FIELD`), its IDs made
    /// canonical (404 naming the field when one names nothing), named when it has no name, and given an ID
    /// unused in the person's routes. With `stack`, the route is for pushing onto it: a stack that is not
    /// the person's is a 404 before anything about the route is said. The API and the pages both save through this.
    public func prepared(_ route: SavedRoute, for accountId: String, onto stack: String? = nil, queries: Queries, languages: [String]) async throws -> SavedRoute {
        let routes = try await routes(accountId)
        if let stack, !routes.stacks.contains(where: { $0.route.id == stack }) { throw Self.routeNotFound }
        if case .invalid(let why, let field)? = route.problem() { throw Self.invalid(why, "route.\(field)") }
        var ready = try await queries.checked(route, languages: languages)
        ready.id = Self.newRouteID(in: routes)
        return ready
    }

    /// An ID for a new route, unused in `routes`.
    public static func newRouteID(in routes: SavedRoutes) -> String {
        let used = routes.routeIds
        while true {
            let id = "r" + Secrets.id().prefix(11)
            if !used.contains(String(id)) { return String(id) }
        }
    }

    // MARK: - Parts

    private func startSession(_ account: Account, kind: SessionRecord.Kind) async throws -> (Signed, token: String) {
        let token = Secrets.token(), at = now()
        let session = SessionRecord(tokenHash: Secrets.sha256(token), accountId: account.id, kind: kind, csrfToken: Secrets.token(), createdAt: at,
                                    expiresAt: at.adding(seconds: kind == .browser ? Self.browserSessionSeconds : Self.tokenSessionSeconds))
        try await repository.saveSession(session)
        return (Signed(account: account, session: session), token)
    }

    private func throttle(client: String, username: String?) async throws {
        // Real time: attempts refill as seconds pass, whatever clock the service shows times by.
        let t = Date().timeIntervalSince1970
        if attemptsSincePrune.add(1, ordering: .relaxed).newValue % 1_000 == 0 {
            // A bucket idle for an hour has refilled: forgetting it changes nothing.
            _ = try? await repository.removeIdleAttempts(before: t - 3_600)
        }
        let c = Self.clientAttempts, a = Self.accountAttempts
        var wait = try await repository.takeAttempt(key: "client " + client, ratePerSecond: c.ratePerSecond, burst: c.burst, now: t)
        if wait == nil, let username {
            wait = try await repository.takeAttempt(key: "account " + Account.usernameKey(username), ratePerSecond: a.ratePerSecond,
                                                    burst: a.burst, now: t)
        }
        guard let wait else { return }
        throw ServiceError(.rateLimited, "Too many sign-in attempts; try again in \(max(1, Int(wait.rounded(.up)))) seconds.")
    }

    private func decoyHash() async throws -> String {
        if let hash = decoy.withLock({ $0 }) { return hash }
        let hash = try await hasher.hash(Secrets.token())
        decoy.withLock { $0 = hash }
        return hash
    }

    static func usernameProblem(_ name: String) -> String? {
        guard (3...32).contains(name.count) else { return "username must be 3 to 32 characters" }
        // ASCII only: no two usernames that look the same, and the same rule as the OpenAPI document's pattern.
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }) else {
            return "username may hold the letters A–Z and a–z, digits, '.', '_' and '-' only"
        }
        return nil
    }

    public static func invalid(_ detail: String, _ field: String) -> ServiceError { .invalid(detail, field) }

    static let wrongCredentials = ServiceError(.wrongCredentials, "The username or the password is wrong.")
    public static let routeNotFound = ServiceError(.savedRouteNotFound, "No saved route has this ID.")

    static func stale(_ current: SavedRoutes) -> ServiceError {
        ServiceError(.staleVersion, "Your routes changed since the version you read (now version \(current.version)); here they are as they are now.",
                     current: current)
    }
}
