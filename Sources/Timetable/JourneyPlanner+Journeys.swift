import OnwardCore

extension JourneyPlanner {
    /// The journeys for a request, in the domain's terms: canonical IDs, names,
    /// platforms, the timetable's times and the live ones beside them.
    public func journeys(_ request: Request, overlay: RealtimeOverlay = .empty, live: Bool = false) -> [Journey] {
        plan(request, overlay: overlay).map { journey($0, live: live, overlay: overlay) }
    }

    /// An itinerary dressed for people. `live`: a realtime source is configured, so a
    /// ride it says nothing about shows as such rather than as plain timetable.
    public func journey(_ itinerary: Itinerary, live: Bool, overlay: RealtimeOverlay = .empty) -> Journey {
        Journey(legs: itinerary.legs.map { leg in
            switch leg {
            case .ride(let r): .transit(transitLeg(r, live: live, overlay: overlay))
            case .move(let from, let to, let seconds, let departure):
                .walk(WalkLeg(from: stop(from), to: stop(to), departure: departure, seconds: seconds))
            }
        })
    }

    private func stop(_ s: StopIndex) -> JourneyStop {
        let tt = timetable, i = Int(s.raw)
        let parent = tt.stopParent[i]
        return JourneyStop(stopID: tt.stopID[i], name: tt.stopName[i], platform: tt.stopPlatform[i].isEmpty ? nil : tt.stopPlatform[i],
                           timeZone: tt.zoneIDs[Int(tt.stopZone[i])], latitude: tt.stopLat[i], longitude: tt.stopLon[i],
                           stationID: parent == Timetable.none ? nil : tt.stopID[Int(parent)])
    }

    private func transitLeg(_ r: Ride, live: Bool, overlay: RealtimeOverlay) -> TransitLeg {
        if let added = r.addedTrip { return addedLeg(r, overlay.added[added]) }
        var leg = timetableLeg(r, live: live, overlay: overlay)
        if r.staysSeated { leg.staysSeated = true }
        return leg
    }

    /// A ride on a trip realtime data added: its times are the live data's own.
    private func addedLeg(_ r: Ride, _ trip: AddedTrip) -> TransitLeg {
        let tt = timetable, route = trip.route.map { Int($0.raw) }
        var leg = TransitLeg(
            tripID: trip.id, routeID: route.map { tt.routeID[$0] } ?? "", routeShortName: route.map { tt.routeShortName[$0] } ?? "",
            routeLongName: route.map { tt.routeLongName[$0] } ?? "", routeColor: route.flatMap { tt.routeColor[$0].isEmpty ? nil : tt.routeColor[$0] },
            headsign: trip.headsign, serviceDate: ServiceDate(dayNumber: trip.serviceDay), startTime: nil, from: stop(r.from), to: stop(r.to),
            departure: r.departure, arrival: r.arrival, expectedDeparture: r.departure, expectedArrival: r.arrival, status: .onTime)
        leg.routeType = route.map { Int(tt.routeType[$0]) }
        leg.isAddedTrip = true
        leg.calls = trip.calls[(r.boardCall + 1)..<r.alightCall].filter { !$0.skipped }.map { c in
            JourneyCall(stop: stop(c.stop), departure: Instant(epochSeconds: c.departure), expectedDeparture: Instant(epochSeconds: c.departure))
        }
        return leg
    }

    private func timetableLeg(_ r: Ride, live: Bool, overlay: RealtimeOverlay) -> TransitLeg {
        let tt = timetable
        let t = Int(r.instance.trip.raw), route = Int(tt.tripRoute[t])
        var leg = TransitLeg(
            tripID: tt.tripID[t], routeID: tt.routeID[route], routeShortName: tt.routeShortName[route],
            routeLongName: tt.routeLongName[route], routeColor: tt.routeColor[route].isEmpty ? nil : tt.routeColor[route],
            headsign: tt.headsign(trip: r.instance.trip.raw, position: r.boardCall), serviceDate: ServiceDate(dayNumber: r.instance.serviceDay),
            startTime: tt.isFrequencyBased(r.instance.trip) ? Int(tt.scheduledDeparture(trip: t, call: 0) + r.instance.shift) : nil,
            from: stop(r.from), to: stop(r.to), departure: r.scheduledDeparture, arrival: r.scheduledArrival,
            status: live ? .noLiveData : .scheduled)
        leg.routeType = Int(tt.routeType[route])
        let p = tt.patternRange(tt.tripPattern[t]), times = Int(tt.tripTimes[t])
        // The run's base for its shared running times (its day, start and frequency shift together).
        let base = r.scheduledDeparture.epochSeconds - Int64(tt.departures[times + r.boardCall])
        let slot = r.isLive ? overlay.slot(of: r.instance) : -1
        leg.calls = ((r.boardCall + 1)..<r.alightCall).map { k in
            JourneyCall(stop: stop(StopIndex(raw: tt.patternStop[p.lowerBound + k])),
                        departure: Instant(epochSeconds: base + Int64(tt.departures[times + k])),
                        expectedDeparture: overlay.expectedTime(slot: slot, call: k, departure: true).map { Instant(epochSeconds: $0) })
        }
        leg.occupancy = overlay.occupancy(of: r.instance, call: r.boardCall)
        if r.isLive {
            leg.expectedDeparture = r.departure
            leg.expectedArrival = r.arrival
            leg.status = LiveStatus.forDelay(Int(r.departure.epochSeconds - r.scheduledDeparture.epochSeconds))
        }
        return leg
    }
}
