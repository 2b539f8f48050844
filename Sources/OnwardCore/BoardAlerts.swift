/// Alerts split as a board shows them: high priority above the rows, the rest below. One type for
/// every source (the GTFS network's alert book, National Rail, the bus tracker) and the query layer.
public struct BoardAlerts: Sendable, Hashable {
    public var highPriority: [Alert]
    public var other: [Alert]

    public init(highPriority: [Alert] = [], other: [Alert] = []) { self.highPriority = highPriority; self.other = other }

    /// Splits by `Alert.isHighPriority`, each part most severe first.
    public init(_ alerts: [Alert]) {
        let sorted = alerts.sorted(by: Alert.mostSevereFirst)
        highPriority = sorted.filter(\.isHighPriority)
        other = sorted.filter { !$0.isHighPriority }
    }

    public var isEmpty: Bool { highPriority.isEmpty && other.isEmpty }
}
