/// Every vehicle the realtime data places, with the trip it is running.
public struct VehiclesDTO: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public var tripId: String
        public var routeId: String
        public var routeShortName: String
        public var serviceDate: String
        public var vehicle: VehicleDTO

        public init(tripId: String, routeId: String, routeShortName: String, serviceDate: String, vehicle: VehicleDTO) {
            self.tripId = tripId; self.routeId = routeId; self.routeShortName = routeShortName
            self.serviceDate = serviceDate; self.vehicle = vehicle
        }
    }

    public var live: LiveDTO?
    public var vehicles: [Item]

    public init(live: LiveDTO?, vehicles: [Item]) { self.live = live; self.vehicles = vehicles }
}
