/// What one bus tracker answer held: its items, and why it holds none when the bus
/// tracker said so ("No arrival times" is an answer, not an error).
public struct CTAAnswer<Item: Sendable & Hashable>: Sendable, Hashable {
    public var items: [Item]
    /// The bus tracker's own words when it had nothing to show ("No arrival times",
    /// "No service scheduled"); nil when it sent items, or nothing without a reason.
    public var emptyReason: String?
    /// Every message that came with the answer and did not make it fail: in a request
    /// for several stops, one may have no arrival times while the others have predictions.
    public var messages: [CTAMessage]

    public init(items: [Item], emptyReason: String? = nil, messages: [CTAMessage] = []) {
        self.items = items; self.emptyReason = emptyReason; self.messages = messages
    }
}

/// One `error` entry of an answer: the bus tracker reports problems and "nothing to
/// show" the same way, inside a successful HTTP response, with the parameter it is about.
public struct CTAMessage: Sendable, Hashable {
    /// What the message means for the caller.
    public enum Kind: String, Sendable, Hashable {
        /// Nothing to show now: an empty answer with this reason.
        case noData
        /// The key is missing, wrong or barred: the operator's configuration.
        case configuration
        /// The key's daily transaction limit is used up.
        case budgetExhausted
        /// The route, direction or stop asked about does not exist.
        case notFound
        /// Anything else: the request failed for a reason we cannot act on.
        case other
    }

    /// The bus tracker's text ("No arrival times").
    public var text: String
    public var kind: Kind
    /// The parameter the message is about, when the bus tracker says.
    public var route: String?
    public var stopID: String?
    public var vehicleID: String?

    public init(text: String, kind: Kind, route: String? = nil, stopID: String? = nil, vehicleID: String? = nil) {
        self.text = text; self.kind = kind; self.route = route; self.stopID = stopID; self.vehicleID = vehicleID
    }

    /// What a message means, from its text: the bus tracker has no error codes.
    ///
    /// The texts seen from it: "No arrival times", "No service scheduled", "No data found
    /// for parameter", "No API access key supplied", "Invalid API access key supplied",
    /// "No API access permitted", "Transaction limit for current day has been exceeded.",
    /// "Internal server error - Unable to complete request at this time". "No data found"
    /// means "nothing now" for predictions, vehicles and bulletins (a route with no bus out),
    /// but an unknown route or direction when listing directions and stops.
    public static func classify(_ text: String, for endpoint: CTARequest.Endpoint) -> Kind {
        let t = text.lowercased()
        if t.contains("transaction limit") || (t.contains("limit") && t.contains("exceeded")) { return .budgetExhausted }
        if t.contains("key") || t.contains("api access") { return .configuration }
        if t.hasPrefix("no arrival") || t.hasPrefix("no service") || t.hasPrefix("no prediction")
            || t.hasPrefix("no vehicle") || t.hasPrefix("no bulletin") {
            return .noData
        }
        if t.contains("no data found") {
            switch endpoint {
            case .directions, .stops, .routes: return .notFound
            case .predictions, .vehicles, .serviceBulletins, .time: return .noData
            }
        }
        if t.contains("invalid") || t.contains("unknown") || t.contains("not found") || t.contains("does not exist") {
            let words = Set(t.split { !$0.isLetter && !$0.isNumber }.map(String.init))
            let subjects: Set<String> = ["stop", "stpid", "route", "rt", "dir", "rtdir", "direction", "vid", "vehicle", "parameter"]
            if !words.isDisjoint(with: subjects) { return .notFound }
        }
        return .other
    }
}
