import OnwardCore

/// Reading a journey back from the search's labels: each ride, the runs stayed on board through, and the moves.
extension RaptorSearch {
    /// Runs the rounds for `departures[i]` and reads back the journeys it found that a range query lists
    /// (`JourneyPlanner.listed`).
    mutating func journeys(departure i: Int, of departures: [Int64]) -> [JourneyPlanner.Itinerary] {
        run(departingAt: departures[i]).map { journey($0) }.filter { JourneyPlanner.listed($0, searchedAt: i, departures) }
    }

    /// The journey that reached the destination, read back from the labels (before the next departure's run changes them).
    func journey(_ reached: Reached) -> JourneyPlanner.Itinerary {
        var legs: [JourneyPlanner.Leg] = []
        if reached.to != reached.via {
            legs.append(.move(from: StopIndex(raw: reached.via), to: StopIndex(raw: reached.to), seconds: reached.moveSeconds,
                              departure: Instant(epochSeconds: labels.arrival[reached.rides * stopCount + Int(reached.via)])))
        }
        var stop = reached.via
        var k = reached.rides
        while k >= 1 {
            let cell = k * stopCount + Int(stop)
            guard labels.arrival[cell] != Self.unreached else { break }
            let run = labels.arrivalRun[cell]
            let seated = labels.arrivalBoardCall[cell] & Self.seatedFlag != 0
            let boardCall = Int(labels.arrivalBoardCall[cell] & ~Self.seatedFlag), alightCall = Int(labels.arrivalCall[cell])
            // The runs ridden without getting off, last first: the one arrived on from its first call, those before it
            // whole, and the first from where it was boarded.
            let runs = seated ? chains[Int(labels.arrivalChain[cell])] : [run]
            var departure: Int64 = 0, boardStop = stop
            for (n, ridden) in runs.enumerated().reversed() {
                let ride = self.ride(ridden, from: n == 0 ? boardCall : 0, to: n == runs.count - 1 ? alightCall : nil, seated: n > 0,
                                     arrival: n == runs.count - 1 ? labels.arrival[cell] : nil)
                legs.append(.ride(ride))
                departure = ride.departure.epochSeconds
                boardStop = ride.from.raw
            }
            let before = (k - 1) * stopCount + Int(boardStop)
            let from = labels.boardFrom[before]
            if from != Self.none {
                let seconds = Int(labels.boardMoveSeconds[before])
                // After a ride the move starts on arriving; from the origin, just in time for the ride.
                let leaves = k > 1 ? labels.arrival[(k - 1) * stopCount + Int(from)] : departure - Int64(seconds)
                legs.append(.move(from: StopIndex(raw: from), to: StopIndex(raw: boardStop), seconds: seconds, departure: Instant(epochSeconds: leaves)))
                stop = from
            } else {
                stop = boardStop
            }
            k -= 1
        }
        return JourneyPlanner.Itinerary(legs: legs.reversed())
    }

    /// One ride on `run` from call `boardCall` to call `alightCall` (its last when nil); `arrival` is the label's, when it ends there.
    private func ride(_ run: JourneyPlanner.Run, from boardCall: Int, to alightCall: Int?, seated: Bool, arrival: Int64?) -> JourneyPlanner.Ride {
        if run.added >= 0 {
            let trip = overlay.added[Int(run.added)]
            let alight = alightCall ?? trip.calls.count - 1
            let board = trip.calls[boardCall], end = trip.calls[alight]
            return JourneyPlanner.Ride(instance: run.instance, boardCall: boardCall, alightCall: alight, from: board.stop, to: end.stop,
                                       departure: Instant(epochSeconds: board.departure), arrival: Instant(epochSeconds: end.arrival),
                                       scheduledDeparture: Instant(epochSeconds: board.departure), scheduledArrival: Instant(epochSeconds: end.arrival),
                                       isLive: true, addedTrip: Int(run.added))
        }
        let tt = planner.timetable
        let p = tt.patternRange(tt.tripPattern[Int(run.instance.trip.raw)])
        let alight = alightCall ?? p.count - 1
        let times = Int(tt.tripTimes[Int(run.instance.trip.raw)])
        var ride = JourneyPlanner.Ride(
            instance: run.instance, boardCall: boardCall, alightCall: alight,
            from: StopIndex(raw: tt.patternStop[p.lowerBound + boardCall]), to: StopIndex(raw: tt.patternStop[p.lowerBound + alight]),
            departure: Instant(epochSeconds: planner.currentDeparture(of: run, call: boardCall, overlay: overlay)),
            arrival: Instant(epochSeconds: arrival ?? planner.arrival(of: run, call: alight, overlay: overlay)),
            scheduledDeparture: Instant(epochSeconds: run.base + Int64(tt.departures[times + boardCall])),
            scheduledArrival: Instant(epochSeconds: run.base + Int64(tt.arrivals[times + alight])),
            isLive: run.slot >= 0)
        ride.staysSeated = seated
        return ride
    }
}
