import OnwardCore
import Synchronization

/// The time a test sets: handed to what takes a `now` closure (`closure`), moved on with `set`.
public final class TestNow: Sendable {
    private let value: Mutex<Instant>

    public init(_ start: Instant) { value = Mutex(start) }

    public var now: Instant { value.withLock { $0 } }
    public func set(_ instant: Instant) { value.withLock { $0 = instant } }
    public var closure: @Sendable () -> Instant { { self.now } }
}
