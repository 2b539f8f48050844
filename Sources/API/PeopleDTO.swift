import Foundation
import OnwardCore

/// `getMe`: who is signed in. Never a password hash, a token or a Telegram hash.
public struct MeDTO: Codable, Sendable, Equatable {
    public var id: String
    public var username: String?
    public var displayName: String
    /// Whether the person can sign in with Telegram.
    public var telegram: Bool
    /// ISO 8601 (UTC).
    public var createdAt: String

    public init(id: String, username: String?, displayName: String, telegram: Bool, createdAt: String) {
        self.id = id; self.username = username; self.displayName = displayName; self.telegram = telegram; self.createdAt = createdAt
    }
}

/// `createAccount`, `signIn`, `telegramSignIn`: the person, and a bearer token for an API client
/// (a browser signing in through the pages gets a cookie instead).
public struct SignedInDTO: Codable, Sendable, Equatable {
    public var me: MeDTO
    public var token: String
    /// ISO 8601 (UTC): when the token stops working.
    public var expiresAt: String

    public init(me: MeDTO, token: String, expiresAt: String) { self.me = me; self.token = token; self.expiresAt = expiresAt }
}

/// `exportMe`: everything Onward keeps about a person.
public struct ExportDTO: Codable, Sendable, Equatable {
    public struct Session: Codable, Sendable, Equatable {
        public var kind: String
        public var createdAt: String
        public var expiresAt: String

        public init(kind: String, createdAt: String, expiresAt: String) { self.kind = kind; self.createdAt = createdAt; self.expiresAt = expiresAt }
    }

    public var exportedAt: String
    public var account: MeDTO
    public var routes: SavedRoutes
    public var sessions: [Session]

    public init(exportedAt: String, account: MeDTO, routes: SavedRoutes, sessions: [Session]) {
        self.exportedAt = exportedAt; self.account = account; self.routes = routes; self.sessions = sessions
    }
}

/// What a saved route shows now: its board, its service, or its journeys, or why not.
/// `state` is never blank: `noRoutes` when the person has none, `failed` with a `reason` a
/// traveller can read (the stop is gone, the source is unavailable), else `loaded`.
public struct RouteResultDTO: Codable, Sendable, Equatable {
    public var state: RouteResultState
    public var route: SavedRoute?
    /// The explicit route heading the stack, when `route` was pushed onto it, then each pushed route: the breadcrumbs.
    public var trail: [SavedRoute]?
    public var board: BoardDTO?
    public var service: ServiceDTO?
    public var journeys: JourneysDTO?
    public var reason: String?

    public init(state: RouteResultState, route: SavedRoute? = nil, trail: [SavedRoute]? = nil, board: BoardDTO? = nil,
                service: ServiceDTO? = nil, journeys: JourneysDTO? = nil, reason: String? = nil) {
        self.state = state; self.route = route; self.trail = trail; self.board = board; self.service = service
        self.journeys = journeys; self.reason = reason
    }
}

/// `createAccount`'s body.
public struct NewAccountDTO: Codable, Sendable, Equatable {
    public var username: String
    public var password: String
    public var displayName: String?

    public init(username: String, password: String, displayName: String? = nil) {
        self.username = username; self.password = password; self.displayName = displayName
    }
}

/// `signIn`'s body.
public struct SignInDTO: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) { self.username = username; self.password = password }
}

/// The body of every change to saved routes: the `version` the client read, and what the change needs
/// (`route` to create or push; `name` and/or `position` to update; `routeId` to make current).
public struct RoutesChangeDTO: Codable, Sendable, Equatable {
    public var version: Int
    public var route: SavedRoute?
    public var name: String?
    public var position: Int?
    public var routeId: String?

    public init(version: Int, route: SavedRoute? = nil, name: String? = nil, position: Int? = nil, routeId: String? = nil) {
        self.version = version; self.route = route; self.name = name; self.position = position; self.routeId = routeId
    }
}

/// A live message on `/live?me`: the person's whole routes state, at once on connecting and after
/// every change made on any device; with `view=glance`, what the top of the current stack shows;
/// with `format=html`, the web app's rendering of it.
public struct RoutesMessage: Codable, Sendable, Equatable {
    public var type = "routes"
    public var version: Int
    public var stacks: [RouteStack]
    public var currentRouteId: String?
    public var glance: RouteResultDTO?
    public var html: String?

    public init(_ routes: SavedRoutes, glance: RouteResultDTO? = nil, html: String? = nil) {
        version = routes.version; stacks = routes.stacks; currentRouteId = routes.currentRouteId; self.glance = glance; self.html = html
    }

    /// The routes state the message carries.
    public var routes: SavedRoutes { SavedRoutes(version: version, stacks: stacks, currentRouteId: currentRouteId) }
}
