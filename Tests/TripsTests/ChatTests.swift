import OnwardCore
import Testing
import Trips

@Suite("trip chat")
struct ChatTests {
    static let t0 = Instant(epochSeconds: 1_790_000_000)

    @Test("a trip's conversation is open to its members only; a direct one to two friends only")
    func whoMayWrite() throws {
        var trip = Trip(id: "t1", name: "Ski week", endsAt: Self.t0.adding(seconds: 86_400), host: "hana", inviteCode: "C")
        trip = try trip.joining("tom", code: "C")
        var friends = Friendships()
        #expect(Conversation.trip("t1").isOpen(to: "tom", trips: [trip], friendships: friends))
        #expect(!Conversation.trip("t1").isOpen(to: "wes", trips: [trip], friendships: friends))
        #expect(!Conversation.trip("nope").isOpen(to: "tom", trips: [trip], friendships: friends))
        #expect(Conversation.between("tom", "hana").isOpen(to: "tom", trips: [trip], friendships: friends))
        #expect(!Conversation.between("tom", "wes").isOpen(to: "tom", trips: [trip], friendships: friends))
        #expect(!Conversation.between("tom", "hana").isOpen(to: "wes", trips: [trip], friendships: friends))
        friends.request(from: "tom", to: "wes")
        friends.accept(by: "wes", from: "tom")
        #expect(Conversation.between("wes", "tom").isOpen(to: "wes", trips: [trip], friendships: friends))
    }

    @Test("messages page backwards from the newest; unread counts what others wrote since one last read")
    func pagesAndUnread() {
        var log = ChatLog()
        for i in 1...25 { log.post("message \(i)", by: i % 2 == 0 ? "tom" : "uma", at: Self.t0.adding(seconds: Int64(i))) }
        #expect(log.page(limit: 10).map(\.sequence) == Array(16...25))
        #expect(log.page(before: 16, limit: 10).map(\.sequence) == Array(6...15))
        #expect(log.page(before: 6, limit: 10).map(\.sequence) == Array(1...5))
        #expect(log.page(before: 1, limit: 10).isEmpty)
        // Tom wrote the 24th: he has read up to it; only Uma's 25th is unread for him.
        #expect(log.unread(by: "tom") == 1)
        #expect(log.unread(by: "vic") == 25)
        var read = log
        read.markRead(by: "vic", upTo: 20)
        #expect(read.unread(by: "vic") == 5)
        read.markRead(by: "vic", upTo: 3)
        #expect(read.unread(by: "vic") == 5)
    }

    @Test("a message is text: trimmed, not empty, not too long")
    func text() {
        #expect(ChatMessage.problem("   ") != nil)
        #expect(ChatMessage.problem(String(repeating: "x", count: 2_001)) != nil)
        #expect(ChatMessage.problem("<script>alert(1)</script>") == nil)
        var log = ChatLog()
        #expect(log.post("  hello  ", by: "tom", at: Self.t0).text == "hello")
    }
}
