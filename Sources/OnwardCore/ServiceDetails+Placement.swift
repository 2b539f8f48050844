/// Where a service's vehicle must be by its live times, for a feed that gives no vehicle positions: at the call it is
/// due at, or between the call it left and the next, in proportion to the time between them.
public struct PlacedVehicle: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    /// The call it is at, or on its way to.
    public var callIndex: Int
    public var atStop: Bool

    public init(latitude: Double, longitude: Double, callIndex: Int, atStop: Bool) {
        self.latitude = latitude; self.longitude = longitude; self.callIndex = callIndex; self.atStop = atStop
    }
}

extension ServiceDetails {
    /// Where the vehicle is at `now` by its live times (the timetable's where a call has none), when the service runs
    /// with live data, has left its first call and not reached its last, and its calls have coordinates. Nil otherwise:
    /// a vehicle is never placed by the timetable alone, nor for a cancelled service. Skipped calls are passed by.
    public func placedByLiveTimes(at now: Instant) -> PlacedVehicle? {
        guard !isCancelled, calls.contains(where: { $0.expectedArrival != nil || $0.expectedDeparture != nil }) else { return nil }
        let served = calls.indices.filter { calls[$0].status != .skipped && calls[$0].status != .cancelled && calls[$0].latitude != nil && calls[$0].longitude != nil }
        guard let first = served.first, let last = served.last, first != last else { return nil }
        func arrival(_ i: Int) -> Int64 { (calls[i].expectedArrival ?? calls[i].scheduledArrival).epochSeconds }
        func departure(_ i: Int) -> Int64 { max((calls[i].expectedDeparture ?? calls[i].scheduledDeparture).epochSeconds, arrival(i)) }
        let t = now.epochSeconds
        guard t >= departure(first), t < arrival(last) else { return nil }
        for (a, b) in zip(served, served.dropFirst()) {
            if t >= arrival(a) && t < departure(a) { return place(a, to: a, fraction: 0, atStop: true) }
            if t >= departure(a) && t < arrival(b) {
                let span = Double(max(arrival(b) - departure(a), 1))
                return place(a, to: b, fraction: Double(t - departure(a)) / span, atStop: false)
            }
            if t >= arrival(b) && t < departure(b) { return place(b, to: b, fraction: 0, atStop: true) }
        }
        return nil
    }

    private func place(_ a: Int, to b: Int, fraction f: Double, atStop: Bool) -> PlacedVehicle {
        let (la, lo) = (calls[a].latitude!, calls[a].longitude!), (lb, lob) = (calls[b].latitude!, calls[b].longitude!)
        return PlacedVehicle(latitude: la + (lb - la) * f, longitude: lo + (lob - lo) * f, callIndex: b, atStop: atStop)
    }
}
