/// The value worked out for the last bytes seen in a column. Feeds list rows in groups (a trip's stop_times, a
/// route's trips), so most rows repeat the row before and skip the lookup: a dictionary's hashing of every row's
/// value was most of reading a national feed's trips.txt (perf).
struct Remembered<Value> {
    private var bytes: [UInt8] = []
    private var value: Value?

    init() {}

    mutating func value(for field: UnsafeBufferPointer<UInt8>, _ make: () throws -> Value) rethrows -> Value {
        if let known = value(ifSame: field) { return known }
        let made = try make()
        remember(made, for: field)
        return made
    }

    /// The value remembered, if `field` holds the same bytes as last time.
    @inline(__always)
    func value(ifSame field: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let value, FieldParsing.equal(field, bytes) else { return nil }
        return value
    }

    mutating func remember(_ value: Value, for field: UnsafeBufferPointer<UInt8>) {
        self.value = value
        bytes = Array(field)
    }
}
