/// How full a vehicle is, as a live feed says: GTFS-Realtime's `occupancy_status` and `occupancy_percentage` for the
/// whole vehicle, and per carriage from `multi_carriage_details`. A value exists only when the feed said something:
/// "no data available" is no value, never "empty".
public struct Occupancy: Sendable, Hashable, Codable {
    /// GTFS-Realtime's `OccupancyStatus`, less `NO_DATA_AVAILABLE` (which is no value).
    public enum Level: String, Sendable, Hashable, Codable, CaseIterable {
        case empty, manySeatsAvailable, fewSeatsAvailable, standingRoomOnly, crushedStandingRoomOnly, full, notAcceptingPassengers
        /// A carriage no passenger may board (a locomotive, a baggage car).
        case notBoardable

        /// The GTFS-Realtime enum value (0–8), or nil for no data (7) and values this version does not know.
        public init?(gtfsRealtime value: Int) {
            switch value {
            case 0: self = .empty
            case 1: self = .manySeatsAvailable
            case 2: self = .fewSeatsAvailable
            case 3: self = .standingRoomOnly
            case 4: self = .crushedStandingRoomOnly
            case 5: self = .full
            case 6: self = .notAcceptingPassengers
            case 8: self = .notBoardable
            default: return nil
            }
        }

        /// How crowded, for ranking: 0 (empty) to 6 (not accepting passengers); a carriage no one boards ranks as full.
        public var crowding: Int {
            switch self {
            case .empty: 0
            case .manySeatsAvailable: 1
            case .fewSeatsAvailable: 2
            case .standingRoomOnly: 3
            case .crushedStandingRoomOnly: 4
            case .full, .notBoardable: 5
            case .notAcceptingPassengers: 6
            }
        }

        /// The level a percentage of capacity reads as, for a feed that gives only the percentage. The specification
        /// sets no bands; these are Onward's: a vehicle's seats are about half its capacity, so seats grow few past
        /// half and run out at 80%.
        public init(percentage: Int) {
            self = switch percentage {
            case ..<10: .empty
            case ..<50: .manySeatsAvailable
            case ..<80: .fewSeatsAvailable
            case ..<95: .standingRoomOnly
            case ..<100: .crushedStandingRoomOnly
            default: .full
            }
        }
    }

    /// One carriage of a train, in order from the front (`sequence` starts at 1).
    public struct Carriage: Sendable, Hashable, Codable {
        public var sequence: Int
        public var id: String?
        public var label: String?
        public var level: Level?
        public var percentage: Int?

        public init(sequence: Int, id: String? = nil, label: String? = nil, level: Level? = nil, percentage: Int? = nil) {
            self.sequence = sequence; self.id = id; self.label = label; self.level = level; self.percentage = percentage
        }

        /// The level the carriage reads as: its own, else from its percentage.
        public var effectiveLevel: Level? { level ?? percentage.map(Level.init(percentage:)) }
    }

    /// What the figure is about: the vehicle as it was last reported, or the feed's forecast for its departure
    /// from the stop in question (a stop time update's `departure_occupancy_status`).
    public enum Basis: String, Sendable, Hashable, Codable {
        case vehicleNow, forecastAtStop
    }

    public var level: Level?
    /// Percent of the vehicle's capacity (it may pass 100 when crushed).
    public var percentage: Int?
    public var carriages: [Carriage]
    public var basis: Basis

    /// Nil when there is nothing to show: no level, no percentage and no carriage with either.
    public init?(level: Level?, percentage: Int?, carriages: [Carriage] = [], basis: Basis) {
        guard level != nil || percentage != nil || carriages.contains(where: { $0.effectiveLevel != nil }) else { return nil }
        self.level = level; self.percentage = percentage; self.carriages = carriages; self.basis = basis
    }

    /// The level the vehicle reads as: its own, else from its percentage, else the middle one of its carriages that
    /// one may board (the lower middle of an even count: half the carriages are at least that empty).
    public var effectiveLevel: Level? {
        if let level = level ?? percentage.map(Level.init(percentage:)) { return level }
        let boardable = carriages.compactMap(\.effectiveLevel).filter { $0 != .notBoardable }.sorted { $0.crowding < $1.crowding }
        return boardable.isEmpty ? nil : boardable[(boardable.count - 1) / 2]
    }

    /// For ranking options: lower is emptier; nil when unknown.
    public var crowding: Int? { effectiveLevel?.crowding }
}
