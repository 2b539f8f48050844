/// One service bulletin (`sb` of `getservicebulletins`), its texts already reduced to
/// plain text: the bus tracker sends HTML (`<br/>`, entities) inside them.
public struct CTABulletin: Sendable, Hashable {
    /// The bulletin's priority as the bus tracker ranks it.
    public enum Priority: String, Sendable, Hashable {
        case high, medium, low, unknown

        /// "High", "Medium", "Low" in any case; anything else is unknown.
        public init(_ text: String?) { self = Priority(rawValue: text?.lowercased() ?? "") ?? .unknown }
    }

    /// What one bulletin applies to: a route, a route in one direction, a stop, or a route at a stop.
    public struct Service: Sendable, Hashable {
        public var route: String?
        public var routeDirection: String?
        public var stopID: String?
        public var stopName: String?

        public init(route: String? = nil, routeDirection: String? = nil, stopID: String? = nil, stopName: String? = nil) {
            self.route = route; self.routeDirection = routeDirection; self.stopID = stopID; self.stopName = stopName
        }

        /// Names nothing (XML's `<srvc/>`).
        public var isEmpty: Bool { route == nil && routeDirection == nil && stopID == nil && stopName == nil }
    }

    /// The bulletin's name (`nm`): unique among current bulletins, so it also gives the alert its ID.
    public var name: String
    /// `sbj`.
    public var subject: String
    /// `dtl`, as plain text.
    public var detail: String
    /// `brf`, a short form some bulletins have.
    public var brief: String
    public var priority: Priority
    public var services: [Service]
    /// v3's cause and effect (`cse`, `efct`), in the bus tracker's words.
    public var cause: String?
    public var effect: String?
    /// A link to more, when v3 gives one.
    public var url: String?

    public init(name: String, subject: String, detail: String, brief: String = "", priority: Priority,
                services: [Service] = [], cause: String? = nil, effect: String? = nil, url: String? = nil) {
        self.name = name; self.subject = subject; self.detail = detail; self.brief = brief; self.priority = priority
        self.services = services; self.cause = cause; self.effect = effect; self.url = url
    }

    init?(record r: CTARecord) {
        let name = CTAPlainText.fromHTML(r.text("nm") ?? "")
        let subject = CTAPlainText.fromHTML(r.text("sbj") ?? "")
        guard !name.isEmpty || !subject.isEmpty else { return nil }
        let services = r.records("srvc").map {
            Service(route: $0.text("rt"), routeDirection: $0.text("rtdir"), stopID: $0.text("stpid"),
                    stopName: $0.text("stpnm").map(CTAPlainText.fromHTML))
        }.filter { !$0.isEmpty }
        self.init(name: name.isEmpty ? subject : name, subject: subject, detail: CTAPlainText.fromHTML(r.text("dtl") ?? ""),
                  brief: CTAPlainText.fromHTML(r.text("brf") ?? ""), priority: Priority(r.text("prty")), services: services,
                  cause: r.text("cse").map(CTAPlainText.fromHTML), effect: r.text("efct").map(CTAPlainText.fromHTML),
                  url: r.text("url").flatMap(Self.webLink))
    }

    /// Only an http(s) link is kept: anything else (`javascript:`) must not reach a page.
    static func webLink(_ text: String) -> String? {
        let lower = text.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://") ? text : nil
    }
}
