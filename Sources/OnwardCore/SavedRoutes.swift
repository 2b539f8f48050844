import Foundation

/// One route a person keeps: a board at a stop ("York", or "York to Leeds" when it must call
/// at a destination) or a journey from A to B (explicit routes, each heading a stack), or what
/// a tap on a result pushed onto a stack (a service's progress, one journey option).
///
/// One flat value, so the JSON a client sends, the JSON it gets back and the JSON storage keeps
/// are the same; `problem()` says which fields each kind needs.
public struct SavedRoute: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A stop's board (`stopId`), optionally only services calling at `to` (`arrivals`: its arrivals board).
        case board
        /// Journeys from `from` to `to`.
        case journey
        /// A service's progress along its stops (`tripId`, `serviceDate`): pushed from a board or a journey.
        case service
        /// One option of a journey (`from`, `to`, leaving at `departure`): pushed from a journey.
        case journeyOption

        /// Whether this kind heads a stack; the others are only ever pushed onto one.
        public var isExplicit: Bool { self == .board || self == .journey }
    }

    public var id: String
    public var name: String
    public var kind: Kind
    public var stopId: String?
    public var from: String?
    public var to: String?
    public var arrivals: Bool?
    public var tripId: String?
    /// `YYYY-MM-DD`.
    public var serviceDate: String?
    /// ISO 8601 with offset.
    public var departure: String?

    public init(id: String = "", name: String = "", kind: Kind, stopId: String? = nil, from: String? = nil, to: String? = nil,
                arrivals: Bool? = nil, tripId: String? = nil, serviceDate: String? = nil, departure: String? = nil) {
        self.id = id; self.name = name; self.kind = kind; self.stopId = stopId; self.from = from; self.to = to
        self.arrivals = arrivals; self.tripId = tripId; self.serviceDate = serviceDate; self.departure = departure
    }

    /// A client creating or pushing a route sends no ID (the server gives one) and may send no name.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? ""
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
        kind = try c.decode(Kind.self, forKey: .kind)
        stopId = try c.decodeIfPresent(String.self, forKey: .stopId)
        from = try c.decodeIfPresent(String.self, forKey: .from)
        to = try c.decodeIfPresent(String.self, forKey: .to)
        arrivals = try c.decodeIfPresent(Bool.self, forKey: .arrivals)
        tripId = try c.decodeIfPresent(String.self, forKey: .tripId)
        serviceDate = try c.decodeIfPresent(String.self, forKey: .serviceDate)
        departure = try c.decodeIfPresent(String.self, forKey: .departure)
    }

    /// What is wrong with this route's fields for its kind, in a sentence naming the field; nil when nothing is.
    public func problem() -> RoutesError? {
        func missing(_ field: String) -> RoutesError { .invalid("a \(kind.rawValue) route needs \(field)", field: field) }
        func stray(_ field: String) -> RoutesError { .invalid("a \(kind.rawValue) route has no \(field)", field: field) }
        if name.count > SavedRoutes.maxNameLength { return .invalid("name is longer than \(SavedRoutes.maxNameLength) characters", field: "name") }
        for (field, value) in [("stopId", stopId), ("from", from), ("to", to), ("tripId", tripId)] {
            if let value, value.isEmpty || value.count > SavedRoutes.maxIDLength {
                return .invalid("\(field) must be an ID of 1 to \(SavedRoutes.maxIDLength) characters", field: field)
            }
        }
        let needed: [String], allowed: Set<String>
        switch kind {
        case .board: needed = ["stopId"]; allowed = ["stopId", "to", "arrivals"]
        case .journey: needed = ["from", "to"]; allowed = ["from", "to"]
        case .service: needed = ["tripId"]; allowed = ["tripId", "serviceDate"]
        case .journeyOption: needed = ["from", "to", "departure"]; allowed = ["from", "to", "departure"]
        }
        let present: [String: Bool] = ["stopId": stopId != nil, "from": from != nil, "to": to != nil, "arrivals": arrivals != nil,
                                       "tripId": tripId != nil, "serviceDate": serviceDate != nil, "departure": departure != nil]
        if let absent = needed.first(where: { present[$0] != true }) { return missing(absent) }
        if let extra = present.filter({ $0.value && !allowed.contains($0.key) }).keys.sorted().first { return stray(extra) }
        if let serviceDate, ServiceDate(iso: serviceDate) == nil { return .invalid("serviceDate must be a date, YYYY-MM-DD", field: "serviceDate") }
        if let departure, Instant(iso8601: departure) == nil {
            return .invalid("departure must be an ISO 8601 time with its offset", field: "departure")
        }
        return nil
    }
}

/// An explicit route and what was pushed onto it, the top last.
public struct RouteStack: Sendable, Hashable, Codable {
    public var route: SavedRoute
    public var pushed: [SavedRoute]

    public init(route: SavedRoute, pushed: [SavedRoute] = []) { self.route = route; self.pushed = pushed }

    /// What the stack shows now: the last route pushed, else the explicit route.
    public var top: SavedRoute { pushed.last ?? route }
}

/// All of one person's routes and stacks: one state with one `version`, so a write made on an
/// old version (another device changed it since) is refused instead of overwriting that change.
public struct SavedRoutes: Sendable, Hashable, Codable {
    public static let maxRoutes = 50
    public static let maxDepth = 20
    public static let maxNameLength = 80
    public static let maxIDLength = 200

    /// Counts the changes: 0 for a person who has never saved anything, one more after each change.
    public var version: Int
    /// The stacks in the person's order.
    public var stacks: [RouteStack]
    /// The explicit route of the current stack; nil only when there are none.
    public var currentRouteId: String?

    public init(version: Int = 0, stacks: [RouteStack] = [], currentRouteId: String? = nil) {
        self.version = version; self.stacks = stacks; self.currentRouteId = currentRouteId
    }

    /// The current stack.
    public var current: RouteStack? { stacks.first { $0.route.id == currentRouteId } }

    /// One change a person makes.
    public enum Edit: Sendable, Hashable {
        /// Adds an explicit route (with its ID and name already set) at the end, and makes it current.
        case create(SavedRoute)
        /// Renames a route (`name`) and/or moves it to `position` (from 0) among the stacks.
        case update(routeId: String, name: String?, position: Int?)
        case delete(routeId: String)
        /// Pushes an implicit route (ID and name set) onto a stack, which becomes current.
        case push(routeId: String, SavedRoute)
        /// Pops the top of a stack, which becomes current; the explicit route itself is never popped.
        case pop(routeId: String)
        case setCurrent(routeId: String)
    }

    /// The state after `edit`, with the version one more; the state is unchanged when the edit is refused.
    public func applying(_ edit: Edit) throws(RoutesError) -> SavedRoutes {
        var next = self
        func index(_ id: String) throws(RoutesError) -> Int {
            guard let i = stacks.firstIndex(where: { $0.route.id == id }) else { throw .notFound(id) }
            return i
        }
        switch edit {
        case .create(let route):
            guard route.kind.isExplicit else { throw .invalid("a \(route.kind.rawValue) route can only be pushed onto a stack", field: "kind") }
            if let p = route.problem() { throw p }
            guard stacks.count < Self.maxRoutes else { throw .notPossible("at most \(Self.maxRoutes) routes can be saved") }
            next.stacks.append(RouteStack(route: route))
            next.currentRouteId = route.id
        case .update(let id, let name, let position):
            let i = try index(id)
            if let name {
                var renamed = stacks[i].route
                renamed.name = name
                if let p = renamed.problem() { throw p }
                next.stacks[i].route = renamed
            }
            if let position {
                guard (0..<stacks.count).contains(position) else {
                    throw .notPossible("position must be from 0 to \(stacks.count - 1)")
                }
                next.stacks.insert(next.stacks.remove(at: i), at: position)
            }
        case .delete(let id):
            let i = try index(id)
            next.stacks.remove(at: i)
            if currentRouteId == id {
                // The neighbour that slid into its place, else the one before: what a tab bar does.
                next.currentRouteId = next.stacks.isEmpty ? nil : next.stacks[min(i, next.stacks.count - 1)].route.id
            }
        case .push(let id, let route):
            let i = try index(id)
            guard !route.kind.isExplicit else { throw .invalid("a \(route.kind.rawValue) route heads a stack of its own: create it", field: "kind") }
            if let p = route.problem() { throw p }
            guard stacks[i].pushed.count < Self.maxDepth else { throw .notPossible("a stack holds at most \(Self.maxDepth) routes") }
            next.stacks[i].pushed.append(route)
            next.currentRouteId = id
        case .pop(let id):
            let i = try index(id)
            guard !stacks[i].pushed.isEmpty else { throw .notPossible("the stack has only its own route: there is nothing to go back to") }
            next.stacks[i].pushed.removeLast()
            next.currentRouteId = id
        case .setCurrent(let id):
            _ = try index(id)
            next.currentRouteId = id
        }
        next.version = version + 1
        return next
    }

    /// Every ID in use (explicit and pushed), so a new one can be told apart.
    public var routeIds: Set<String> { Set(stacks.flatMap { [$0.route.id] + $0.pushed.map(\.id) }) }
}

/// Why an edit of saved routes was refused.
public enum RoutesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No route of this person has the ID (another person's route is the same: it does not exist for them).
    case notFound(String)
    case invalid(String, field: String)
    /// A well-formed edit the routes as they are now do not allow (popping a stack with nothing pushed, a position past the end).
    case notPossible(String)

    public var description: String {
        switch self {
        case .notFound: "No saved route has this ID."
        case .invalid(let why, _), .notPossible(let why): why
        }
    }
}

/// What a route's result is at a moment, never a blank: there are no routes, it is being
/// fetched, it is shown, or it failed with a reason a traveller can read.
public enum RouteResultState: String, Sendable, Hashable, Codable {
    case noRoutes, loading, loaded, failed
}
