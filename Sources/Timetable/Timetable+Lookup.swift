import OnwardCore

// The strong index types of the public API. The timetable stores its indices as bare `UInt32`
// columns (struct of arrays: no wrapper in the arrays it scans) and converts at the public
// boundary. A wrapper is one `UInt32` with the same layout, and its initialiser is inlinable,
// so a caller in another module (the importer, the realtime appliers) pays nothing for it.
// (`@frozen` is not needed: the package is built without library evolution, so other modules
// already see the layout and read `raw` directly.)

/// A strong index of a stop in one `Timetable`.
public struct StopIndex: Hashable, Sendable {
    public let raw: UInt32
    @inlinable public init(raw: UInt32) { self.raw = raw }
}
/// A strong index of a trip in one `Timetable`.
public struct TripIndex: Hashable, Sendable {
    public let raw: UInt32
    @inlinable public init(raw: UInt32) { self.raw = raw }
}

extension Timetable {
    /// A stop by its canonical ID (`feed:local`), or by its local ID when exactly one feed has it
    /// (see `lookupStop(id:)`); nil when no stop, or several, have it.
    public func stop(id: String) -> StopIndex? { lookupStop(id: id).found }

    /// A trip by its canonical ID, or by its local ID when exactly one feed has it.
    public func trip(id: String) -> TripIndex? { lookupTrip(id: id).found }

    /// A stop by ID: canonical (`feed:local`) IDs resolve within that feed; an unprefixed
    /// one is found when exactly one feed has it, and otherwise lists the candidates.
    public func lookupStop(id: String) -> IDLookup<StopIndex> {
        let order = stopOrder, ids = stopID
        return Self.resolveID(id, feeds: feeds) { Self.binarySearch(order: order, ids: ids, $0) }.map(StopIndex.init)
    }

    /// A trip by ID, with the same rule as `lookupStop(id:)`.
    public func lookupTrip(id: String) -> IDLookup<TripIndex> {
        let order = tripOrder, ids = tripID
        return Self.resolveID(id, feeds: feeds) { Self.binarySearch(order: order, ids: ids, $0) }.map(TripIndex.init)
    }

    /// A stop by its exact stored ID (canonical), with no resolution of unprefixed IDs.
    public func stopIndex(exactID id: String) -> StopIndex? { Self.binarySearch(order: stopOrder, ids: stopID, id).map(StopIndex.init) }
    /// A trip by its exact stored ID (canonical), with no resolution of unprefixed IDs.
    public func tripIndex(exactID id: String) -> TripIndex? { Self.binarySearch(order: tripOrder, ids: tripID, id).map(TripIndex.init) }
    /// A route by its canonical ID exactly, for realtime feeds whose IDs the applier has already prefixed
    /// (routes are few: a scan).
    public func routeIndex(exactID id: String) -> RouteIndex? { routeID.firstIndex(of: id).map { RouteIndex(raw: UInt32($0)) } }

    static func binarySearch(order: [UInt32], ids: [String], _ id: String) -> UInt32? {
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let candidate = ids[Int(order[mid])]
            if candidate < id { lo = mid + 1 } else if candidate == id { return order[mid] } else { hi = mid }
        }
        return nil
    }

    /// The stops whose calls a board for `stop` shows: a station gathers its platforms.
    func boardStops(_ stop: StopIndex) -> [UInt32] {
        var result = [stop.raw]
        if stopKind[Int(stop.raw)] == StopKind.station.rawValue {
            for child in stationChildren[Int(stop.raw)] where stopKind[Int(child)] == StopKind.stop.rawValue {
                result.append(child)
            }
        }
        return result
    }

    /// The IDs of the platforms a station's board gathers; empty for a stop that is no station.
    public func platformIDs(of stop: StopIndex) -> [String] { boardStops(stop).dropFirst().map { stopID[Int($0)] } }

    public func place(_ stop: StopIndex, distance: Double? = nil) -> StopPlace {
        let s = Int(stop.raw)
        let parent = stopParent[s]
        return StopPlace(id: stopID[s], name: stopName[s], code: stopCode[s].isEmpty ? nil : stopCode[s],
                         kind: StopKind(rawValue: stopKind[s]) ?? .stop, latitude: stopLat[s], longitude: stopLon[s],
                         parentID: parent == Timetable.none ? nil : stopID[Int(parent)],
                         platform: stopPlatform[s].isEmpty ? nil : stopPlatform[s],
                         timeZone: zoneIDs[Int(stopZone[s])], distance: distance)
    }

    /// The time zone a stop shows its times in.
    public func timeZoneIdentifier(of stop: StopIndex) -> String { zoneIDs[Int(stopZone[Int(stop.raw)])] }

    public func tripIdentifier(_ trip: TripIndex) -> String { tripID[Int(trip.raw)] }

    /// The service dates on which a trip runs, within the calendar.
    public func serviceDates(of trip: TripIndex) -> [ServiceDate] {
        let service = tripService[Int(trip.raw)]
        return (0..<dayCount).compactMap { d in
            isActive(service: service, day: firstDay + d) ? ServiceDate(dayNumber: firstDay + d) : nil
        }
    }

    public func runs(_ trip: TripIndex, on date: ServiceDate) -> Bool {
        isActive(service: tripService[Int(trip.raw)], day: date.dayNumber)
    }
}

extension Timetable {
    /// The time zone a trip's times count in (its agency's).
    public func tripTimeZoneIdentifier(_ trip: TripIndex) -> String { zoneIDs[Int(tripZone[Int(trip.raw)])] }
}
