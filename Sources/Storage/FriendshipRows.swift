import Trips

/// How drivers keep friendships: one row each, `(a, b, "friends")` for an accepted pair (the smaller ID
/// first) and `(from, to, "request")` for a request waiting for an answer.
public struct FriendshipRow: Sendable, Hashable {
    public var a: String
    public var b: String
    public var kind: String

    public init(a: String, b: String, kind: String) { self.a = a; self.b = b; self.kind = kind }
}

extension Friendships {
    /// The friendships as rows.
    public var rows: Set<FriendshipRow> {
        Set(accepted.map { FriendshipRow(a: $0.a, b: $0.b, kind: "friends") })
            .union(requests.map { FriendshipRow(a: $0.from, b: $0.to, kind: "request") })
    }

    /// Friendships read back from rows.
    public init(rows: some Sequence<FriendshipRow>) {
        self.init()
        for row in rows {
            if row.kind == "friends" { accepted.insert(Pair(row.a, row.b)) } else { requests.insert(Request(from: row.a, to: row.b)) }
        }
    }

    /// The rows to delete and to insert to store `after` where `before` was.
    public static func rowChanges(from before: Friendships, to after: Friendships) -> (removed: Set<FriendshipRow>, added: Set<FriendshipRow>) {
        let (old, new) = (before.rows, after.rows)
        return (old.subtracting(new), new.subtracting(old))
    }
}
