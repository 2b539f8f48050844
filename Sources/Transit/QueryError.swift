/// Why a query could not be answered: a stable code for clients, and a short,
/// safe message that helps (never an internal error's text).
public struct QueryError: Error, Sendable, Hashable {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case stopNotFound = "stop-not-found"
        case tripNotFound = "trip-not-found"
        /// A stop, trip or route of an earlier version of the timetable, not in the one in service.
        case noLongerScheduled = "no-longer-scheduled"
        case notRunning = "not-running"
        case invalidParameter = "invalid-parameter"
        case routeNotFound = "route-not-found"
        case sourceNotFound = "source-not-found"
        /// The source behind the answer cannot be reached or read now (its upstream failed,
        /// or the operator's key is wrong): try again later.
        case sourceUnavailable = "source-unavailable"
        /// The source cannot answer this kind of question.
        case unsupported = "unsupported"
        /// The server is planning as many journeys as it can, with as many waiting: try again in a second.
        case busy = "busy"
    }

    public var code: Code
    public var message: String
    /// The query parameter at fault, for `invalidParameter`, and for a name that matches no stop or several.
    public var parameter: String?
    /// What a name might have meant: the places (or routes) it matches, when it matches several, or the
    /// nearest names, when it matches none. The CLI lists them; a page offers them to pick.
    public var candidates: [Candidate] = []
    /// The candidates are names near one that matched nothing, not places it matched.
    public var candidatesAreNearest = false

    /// One thing a name might have meant.
    public struct Candidate: Sendable, Hashable {
        public var id: String
        public var name: String
        /// "station", or a route's long name.
        public var detail: String?

        public init(id: String, name: String, detail: String? = nil) { self.id = id; self.name = name; self.detail = detail }
    }

    public init(_ code: Code, _ message: String, parameter: String? = nil, candidates: [Candidate] = []) {
        self.code = code; self.message = message; self.parameter = parameter; self.candidates = candidates
    }
}
