import OnwardCore

/// What every page needs besides its data: who is reading (language, theme),
/// what the footer credits, and when "now" is.
public struct PageContext: Sendable {
    /// The language of the page's own text (alert texts come from the feed).
    public var language: Language
    /// The theme the reader chose (cookie `theme`); `system` follows the device.
    public var theme: Theme
    /// Footer lines that credit the data, as the licences ask, e.g.
    /// "Timetable: MRT Jakarta (CC BY 4.0)". Plain text.
    public var attribution: [String]
    /// The moment the page is rendered: live data and vehicle reports say how
    /// old they are relative to it.
    public var now: Instant
    /// The signed-in person, when there is one: the header links to their routes and pages offer to save.
    public var person: Person?

    public init(language: Language = .en, theme: Theme = .system, attribution: [String] = [], now: Instant = .now(), person: Person? = nil) {
        self.language = language; self.theme = theme; self.attribution = attribution; self.now = now; self.person = person
    }

    /// Who is signed in, as a page needs it.
    public struct Person: Sendable {
        public var displayName: String
        /// The session's anti-forgery token: every form that changes something sends it back (`_csrf`).
        public var csrfToken: String
        /// The version of the person's routes the page was made from: a form that changes them sends it back.
        public var routesVersion: Int

        public init(displayName: String, csrfToken: String, routesVersion: Int) {
            self.displayName = displayName; self.csrfToken = csrfToken; self.routesVersion = routesVersion
        }
    }

    /// The string table for `language`.
    public var strings: Strings { Strings(language) }
}

/// A page's own address (path and the query parameters that define it), so
/// the language and theme switches can link to the same page.
public struct PageAddress: Sendable, Hashable {
    public var path: String
    public var query: [Pair]

    public struct Pair: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public init(path: String, query: [Pair] = []) { self.path = path; self.query = query }

    /// The same page with one parameter set (replacing any earlier value).
    public func with(_ name: String, _ value: String) -> String {
        let pairs = query.filter { $0.name != name }.map { ($0.name, $0.value) } + [(name, value)]
        return path + Links.queryString(pairs)
    }

    /// The address as a link.
    public var link: String { path + Links.queryString(query.map { ($0.name, $0.value) }) }
}
