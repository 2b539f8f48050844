/// Why a query could not be answered: a stable code for clients, and a short,
/// safe message that helps (never an internal error's text).
public struct QueryError: Error, Sendable, Hashable {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case stopNotFound = "stop-not-found"
        case tripNotFound = "trip-not-found"
        case notRunning = "not-running"
        case invalidParameter = "invalid-parameter"
        case routeNotFound = "route-not-found"
        case sourceNotFound = "source-not-found"
        /// The source behind the answer cannot be reached or read now (its upstream failed,
        /// or the operator's key is wrong): try again later.
        case sourceUnavailable = "source-unavailable"
        /// The source cannot answer this kind of question.
        case unsupported = "unsupported"
    }

    public var code: Code
    public var message: String
    /// The query parameter at fault, for `invalidParameter`.
    public var parameter: String?

    public init(_ code: Code, _ message: String, parameter: String? = nil) {
        self.code = code; self.message = message; self.parameter = parameter
    }
}
