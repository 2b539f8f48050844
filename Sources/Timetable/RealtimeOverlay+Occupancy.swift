import OnwardCore

extension RealtimeOverlay {
    /// How full a run will be at call `k`: the feed's forecast for its departure from there (departures only), else the
    /// vehicle as last reported, while it has not yet left that call. Nil when the feed says nothing that applies.
    /// Boards and journeys read it here, so that they tell a traveller the same.
    public func occupancy(of key: TripInstance, call k: Int, departing: Bool = true) -> Occupancy? {
        if departing, let level = forecastOccupancy(of: key, call: k) {
            return Occupancy(level: level, percentage: nil, basis: .forecastAtStop)
        }
        guard !vehicles.isEmpty, let vehicle = vehicles[key], let now = vehicle.occupancy else { return nil }
        if let at = vehicle.callIndex, at > k { return nil }
        return now
    }

    /// The feed's forecast for a run's departure from call `k` (`departure_occupancy_status`), if any.
    public func forecastOccupancy(of key: TripInstance, call k: Int) -> Occupancy.Level? {
        let s = slot(of: key)
        guard s >= 0 else { return nil }
        let forecast = liveValues[Int(s)].departureOccupancy
        return k < forecast.count ? forecast[k] : nil
    }
}
