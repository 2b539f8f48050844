/// Who is a friend of whom: everyone on a trip with someone is their friend, and two people may also
/// become friends across trips (one asks, the other accepts). Friendship decides who a "friends only"
/// event reaches and who may write to whom directly, never who is on the map.
public struct Friendships: Sendable, Hashable, Codable {
    /// Accepted friendships, each pair once (the smaller ID first).
    public var accepted: Set<Pair>
    /// Requests waiting for an answer.
    public var requests: Set<Request>

    public struct Pair: Sendable, Hashable, Codable {
        public var a: String
        public var b: String
        public init(_ x: String, _ y: String) { (a, b) = x < y ? (x, y) : (y, x) }
    }

    public struct Request: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        public init(from: String, to: String) { self.from = from; self.to = to }
    }

    public init() { accepted = []; requests = [] }

    /// Whether two people are friends: on a trip together now, or by an accepted request.
    public func areFriends(_ x: String, _ y: String, trips: [Trip]) -> Bool {
        guard x != y else { return false }
        if accepted.contains(Pair(x, y)) { return true }
        return trips.contains { $0.isMember(x) && $0.isMember(y) }
    }

    /// Asks `to` to be a friend; asking someone who already asked you makes you friends.
    public mutating func request(from: String, to: String) {
        guard from != to, !accepted.contains(Pair(from, to)) else { return }
        if requests.remove(Request(from: to, to: from)) != nil {
            accepted.insert(Pair(from, to))
        } else {
            requests.insert(Request(from: from, to: to))
        }
    }

    /// The friendships and requests that involve any of `people`: what a repository reads for them.
    public func involving(_ people: Set<String>) -> Friendships {
        var f = Friendships()
        f.accepted = accepted.filter { people.contains($0.a) || people.contains($0.b) }
        f.requests = requests.filter { people.contains($0.from) || people.contains($0.to) }
        return f
    }

    /// Forgets every friendship and request of `person` (their account is gone).
    public mutating func forget(_ person: String) {
        accepted = accepted.filter { $0.a != person && $0.b != person }
        requests = requests.filter { $0.from != person && $0.to != person }
    }

    /// Accepts the request `from` made to `person`; false when there was none (nothing happens).
    @discardableResult public mutating func accept(by person: String, from: String) -> Bool {
        guard requests.remove(Request(from: from, to: person)) != nil else { return false }
        accepted.insert(Pair(person, from))
        return true
    }
}
