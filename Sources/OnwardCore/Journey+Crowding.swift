extension Journey {
    /// How crowded the journey is: its most crowded ride where the live source says (`Occupancy.crowding`), nil when it
    /// says nothing of any ride.
    public var crowding: Int? { rides.compactMap { $0.occupancy?.crowding }.max() }

    /// The "prefer less crowded" order: by arrival, and among options arriving at the same time, the less crowded first
    /// (one whose crowding is unknown after those known; otherwise in the order given).
    public static func lessCrowdedFirst(_ journeys: [Journey]) -> [Journey] {
        journeys.enumerated().sorted { a, b in
            if a.element.arrival != b.element.arrival { return a.element.arrival < b.element.arrival }
            let x = a.element.crowding ?? Int.max, y = b.element.crowding ?? Int.max
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }
}
