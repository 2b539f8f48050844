extension Journey {
    /// Whether every change holds at the 80th percentile of its arriving ride's history (`JourneyChange.holds`).
    public var isReliable: Bool { changes.allSatisfy { $0.holds(at: 0.8) } }

    /// The "reliable" order: journeys whose changes all hold four days in five first, each group by arrival (otherwise in
    /// the order given). A journey with no history is taken as reliable: nothing says otherwise.
    public static func reliableFirst(_ journeys: [Journey]) -> [Journey] {
        journeys.enumerated().sorted { a, b in
            let x = a.element.isReliable, y = b.element.isReliable
            if x != y { return x }
            if a.element.arrival != b.element.arrival { return a.element.arrival < b.element.arrival }
            return a.offset < b.offset
        }.map(\.element)
    }
}
