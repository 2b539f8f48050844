import Foundation
import OnwardCore

/// A group trip: its hosts and travellers, when it ends, and the code that lets someone join.
/// People are account IDs. A traveller who leaves is no longer a member: nothing of the trip is theirs to see.
public struct Trip: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Hashable, Codable { case host, traveller }

    public var id: String
    public var name: String
    public var endsAt: Instant
    /// Who is on the trip now, and as what.
    public var members: [String: Role]
    /// Given by a host by link or in words; joining with it makes one a traveller.
    public var inviteCode: String

    public init(id: String, name: String, endsAt: Instant, host: String, inviteCode: String) {
        self.id = id; self.name = name; self.endsAt = endsAt; self.members = [host: .host]; self.inviteCode = inviteCode
    }

    public func isMember(_ person: String) -> Bool { members[person] != nil }
    public func isHost(_ person: String) -> Bool { members[person] == .host }

    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not a member, or no such trip: the two are never told apart.
        case notFound
        case wrongCode
        case lastHost
        public var description: String {
            switch self {
            case .notFound: "No trip has this ID."
            case .wrongCode: "That invitation code is not this trip's."
            case .lastHost: "A trip keeps at least one host: make someone else a host before leaving."
            }
        }
    }

    /// Joins with the invitation code; joining again changes nothing.
    public func joining(_ person: String, code: String) throws(Failure) -> Trip {
        guard code == inviteCode else { throw .wrongCode }
        var next = self
        if next.members[person] == nil { next.members[person] = .traveller }
        return next
    }

    /// Leaves the trip (a host only when another host stays).
    public func leaving(_ person: String) throws(Failure) -> Trip {
        guard isMember(person) else { throw .notFound }
        if isHost(person), members.values.filter({ $0 == .host }).count == 1 { throw .lastHost }
        var next = self
        next.members[person] = nil
        return next
    }
}
