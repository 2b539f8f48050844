import OnwardCore

/// Why a use case refused: a stable code, a message written for people, the field at fault, and
/// (for a refused change of saved routes) the state the change was refused against. A value with
/// a code, as `SourceError` is: `Server` alone turns it into an HTTP status and problem+json, and
/// the CLI into words, each in one place.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        // Asked wrongly: the request's content breaks a rule.
        case invalidParameter = "invalid-parameter"
        // Refused: who asks may not do this.
        case wrongCredentials = "wrong-credentials"
        case telegramRefused = "telegram-refused"
        case hostsOnly = "hosts-only"
        case wrongSecret = "wrong-secret"
        case rateLimited = "rate-limited"
        // Nothing there (or nothing this person may see, which answers the same).
        case telegramOff = "telegram-off"
        case savedRouteNotFound = "saved-route-not-found"
        case tripNotFound = "trip-not-found"
        case eventNotFound = "event-not-found"
        case personNotFound = "person-not-found"
        case requestNotFound = "request-not-found"
        case conversationNotFound = "conversation-not-found"
        case journeyNotFound = "journey-not-found"
        case watchNotFound = "watch-not-found"
        case webhookOff = "not-found"
        // In conflict with the state things are in now.
        case usernameTaken = "username-taken"
        case notPossible = "not-possible"
        case staleVersion = "stale-version"
        case alreadyEnded = "already-ended"
        case lastHost = "last-host"
        case noSkiArea = "no-ski-area"
        // Well formed, but unusable.
        case unusableKeys = "unusable-keys"
        // This server cannot do it now, or at all.
        case pushUnavailable = "push-unavailable"
        case tryAgain = "try-again"

        /// Whether this code says "nothing there": a caller that must not tell "not yours" from
        /// "does not exist" treats them alike.
        public var isNotFound: Bool {
            switch self {
            case .telegramOff, .savedRouteNotFound, .tripNotFound, .eventNotFound, .personNotFound, .requestNotFound,
                 .conversationNotFound, .journeyNotFound, .watchNotFound, .webhookOff: true
            default: false
            }
        }
    }

    public var code: Code
    public var message: String
    /// The request's field at fault, if one is.
    public var parameter: String?
    /// A refused change of saved routes: the routes as they are now, so the client can show them and try again.
    public var current: SavedRoutes?

    public init(_ code: Code, _ message: String, parameter: String? = nil, current: SavedRoutes? = nil) {
        self.code = code; self.message = message; self.parameter = parameter; self.current = current
    }

    public var description: String { message }

    /// A field of the request breaks a rule.
    public static func invalid(_ message: String, _ field: String) -> ServiceError { ServiceError(.invalidParameter, message, parameter: field) }
}
