import OnwardCore

/// How full a vehicle is (`Occupancy`): a level (GTFS-Realtime's occupancy status, in camel case), a percentage of
/// capacity, and its carriages in order from the front, where the feed gives them.
public struct OccupancyDTO: Codable, Sendable, Equatable {
    public struct CarriageDTO: Codable, Sendable, Equatable {
        public var sequence: Int
        public var id: String?
        public var label: String?
        /// Its own level, else the one its percentage reads as.
        public var level: String?
        public var percentage: Int?

        public init(_ c: Occupancy.Carriage) {
            sequence = c.sequence; id = c.id; label = c.label; level = c.effectiveLevel?.rawValue; percentage = c.percentage
        }
    }

    /// The level the vehicle reads as (its own, from its percentage, or its carriages'): what a page shows.
    public var level: String?
    public var percentage: Int?
    public var carriages: [CarriageDTO]?
    /// `vehicleNow`: as the vehicle was last reported; `forecastAtStop`: the feed's forecast for leaving this stop.
    public var basis: String

    public init(_ o: Occupancy) {
        level = o.effectiveLevel?.rawValue
        percentage = o.percentage
        carriages = o.carriages.isEmpty ? nil : o.carriages.map(CarriageDTO.init)
        basis = o.basis.rawValue
    }
}
