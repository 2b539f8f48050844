/// Why a source could not deliver: a stable code and a short, safe description.
/// Mapped to HTTP status only in the server, and to traveller-facing text in one place.
///
/// The message never holds a secret: sources name an upstream by their own name
/// (`national-rail`), never by a URL that may carry a key or token.
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable {
        /// The upstream could not be reached, or the connection failed.
        case network
        /// The upstream did not answer in time.
        case timeout
        /// The upstream answered with an HTTP error status (see `status`).
        case httpStatus
        /// The upstream's answer could not be read (not XML, not JSON, not a feed).
        case undecodable
        /// The thing asked for does not exist at the source (a stop, a service, a route).
        case notFound
        /// The thing asked for was in an earlier version of the source's timetable and is not in
        /// the one in service (an agency's new timetable renamed or dropped it).
        case noLongerScheduled
        /// The service exists but does not run on the date asked.
        case notRunning
        /// A local file could not be read.
        case unreadable
        case stale
        /// A fake or a policy refused the request.
        case rejected
        /// The operator's configuration is wrong: an invalid token or API key, a missing key.
        /// Travellers see "unavailable"; the operator sees this in health and logs.
        case configuration
        /// The source's request allowance (e.g. 10,000 a day) is used up until `retryAfter`.
        case budgetExhausted
        /// The source cannot answer this kind of question (a capability it lacks).
        case unsupported
        /// The question is one this source cannot answer as asked (e.g. a date a live-only source cannot see).
        case invalidRequest
    }

    public var code: Code
    public var message: String
    /// The HTTP status, for `.httpStatus`.
    public var status: Int?
    /// For `.invalidRequest`: the parameter at fault, when there is one.
    public var parameter: String?

    public init(_ code: Code, _ message: String, status: Int? = nil, parameter: String? = nil) {
        self.code = code; self.message = message; self.status = status; self.parameter = parameter
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// Whether trying again later may succeed (the upstream's fault, not the question's).
    public var isTransient: Bool {
        switch code {
        case .network, .timeout, .stale: true
        case .httpStatus: (status ?? 500) >= 500 || status == 429
        default: false
        }
    }
}
