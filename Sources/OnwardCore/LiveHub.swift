import Synchronization

/// Hands each published value to the subscribers of its topic in this process: the one hub behind
/// every live update (a network's state versions, a person's saved routes, a session's end, a
/// trip's signals, a commute's changes).
///
/// A subscriber that falls behind keeps only the newest `keep` values: with the default of one, a
/// slow reader skips to the newest state and never works through a backlog. A hub whose values are
/// separate messages rather than states (a trip's chat, a commute's alerts) keeps more, and its
/// readers recover from a gap by reading the state again.
///
/// A subscription ends when its reader stops (the task reading it is cancelled, or the stream is
/// dropped) or when `finish` ends it; either way it is forgotten at once.
public final class LiveHub<Topic: Hashable & Sendable, Value: Sendable>: Sendable {
    private typealias Continuation = AsyncStream<Value>.Continuation

    /// By topic, then by subscription.
    private let subscribers = Mutex<[Topic: [Int: Continuation]]>([:])
    private let nextID = Atomic<Int>(0)
    private let keep: Int

    /// `keep`: how many unread values a slow subscriber holds (the newest ones).
    public init(keep: Int = 1) {
        precondition(keep >= 1, "a subscriber keeps at least the newest value")
        self.keep = keep
    }

    /// What is published to `topic` from now on. `onEnd` runs once the subscription has been
    /// forgotten (its reader stopped, or it was finished).
    public func subscribe(_ topic: Topic, onEnd: (@Sendable () -> Void)? = nil) -> AsyncStream<Value> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(keep))
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { all in
                all[topic]?[id] = nil
                if all[topic]?.isEmpty == true { all[topic] = nil }
            }
            onEnd?()
        }
        subscribers.withLock { $0[topic, default: [:]][id] = continuation }
        return stream
    }

    /// Gives `value` to every subscriber of `topic`.
    public func publish(_ value: Value, to topic: Topic) {
        for c in subscribers.withLock({ Array(($0[topic] ?? [:]).values) }) { c.yield(value) }
    }

    /// Gives `value` to every subscriber of the topics that match.
    public func publish(_ value: Value, where matches: (Topic) -> Bool) {
        for c in continuations(matching: matches) { c.yield(value) }
    }

    /// Ends the subscriptions of `topic`.
    public func finish(_ topic: Topic) { finish { $0 == topic } }

    /// Ends the subscriptions of the topics that match.
    public func finish(where matches: (Topic) -> Bool) {
        for c in continuations(matching: matches) { c.finish() }
    }

    /// Whether anyone listens to `topic`.
    public func isHeard(_ topic: Topic) -> Bool { subscribers.withLock { $0[topic] != nil } }

    /// The topics someone listens to.
    public var topics: [Topic] { subscribers.withLock { Array($0.keys) } }

    /// How many subscriptions are open.
    public var count: Int { subscribers.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func continuations(matching matches: (Topic) -> Bool) -> [Continuation] {
        subscribers.withLock { all in all.filter { matches($0.key) }.flatMap { $0.value.values } }
    }
}

/// The topic of a hub every subscriber hears.
public enum EveryListener: Hashable, Sendable { case all }

extension LiveHub where Topic == EveryListener {
    /// What is published from now on.
    public func subscribe() -> AsyncStream<Value> { subscribe(.all) }

    /// Gives `value` to every subscriber.
    public func publish(_ value: Value) { publish(value, to: .all) }
}
