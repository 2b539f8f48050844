import OnwardCore
import Synchronization
import Testing

@Suite("LiveHub")
struct LiveHubTests {
    @Test("a subscriber hears what is published to its topic from then on, and nothing of other topics")
    func publishToTopic() async {
        let hub = LiveHub<String, Int>()
        hub.publish(0, to: "ana")  // before anyone listens: heard by no one
        var ana = hub.subscribe("ana").makeAsyncIterator()
        var ben = hub.subscribe("ben").makeAsyncIterator()
        hub.publish(1, to: "ana")
        hub.publish(2, to: "ben")
        #expect(await ana.next() == 1)
        #expect(await ben.next() == 2)
        hub.publish(3, where: { $0.hasPrefix("b") })
        #expect(await ben.next() == 3)
        #expect(Set(hub.topics) == ["ana", "ben"])
        #expect(hub.count == 2 && hub.isHeard("ana") && !hub.isHeard("cy"))
    }

    @Test("a slow subscriber skips to the newest value; with keep N it holds the newest N, never more")
    func slowSubscriber() async {
        let states = LiveHub<EveryListener, Int>()
        var slow = states.subscribe().makeAsyncIterator()
        for v in 1...100 { states.publish(v) }
        #expect(await slow.next() == 100)

        let messages = LiveHub<String, Int>(keep: 3)
        let stream = messages.subscribe("trip")
        for v in 1...10 { messages.publish(v, to: "trip") }
        messages.finish("trip")
        var heard: [Int] = []
        for await v in stream { heard.append(v) }
        #expect(heard == [8, 9, 10])
    }

    @Test("finishing a topic ends its streams after what they hold, forgets them, and runs onEnd once")
    func finish() async {
        let hub = LiveHub<String, String>()
        let ends = Atomic<Int>(0)
        let stream = hub.subscribe("session-1") { ends.add(1, ordering: .relaxed) }
        let other = hub.subscribe("session-2")
        hub.publish("last words", to: "session-1")
        hub.finish { $0 == "session-1" }
        var heard: [String] = []
        for await v in stream { heard.append(v) }
        #expect(heard == ["last words"])
        #expect(ends.load(ordering: .relaxed) == 1)
        #expect(hub.topics == ["session-2"] && hub.count == 1)
        _ = other
    }

    @Test("a subscription ends when its reader stops: the reading task cancelled, or the stream dropped")
    func unsubscribeOnClose() async {
        let hub = LiveHub<String, Int>()
        let stream = hub.subscribe("board")
        let reader = Task { for await _ in stream {} }
        #expect(hub.count == 1)
        reader.cancel()
        await reader.value
        #expect(hub.count == 0 && !hub.isHeard("board"))

        do {
            let dropped = hub.subscribe("board")
            #expect(hub.count == 1)
            _ = dropped
        }
        #expect(hub.count == 0)
        hub.publish(1, to: "board")  // to no one, and no error
    }
}
