import OnwardCore

/// Staying on board from one trip into the next: the same vehicle goes on as another trip, by `block_id` (the next
/// trip of the block that runs that day, starting where the first ended) or by a transfers.txt rule of type 4 between
/// two trips; a rule of type 5 says the traveller must get off between them, block or not. A ride on into the next
/// trip is not a change: the planner counts no transfer for it and needs no time to change.
extension PlannerIndex {
    mutating func buildSeated(_ tt: Timetable) {
        blockNext = Array(repeating: Timetable.none, count: tt.tripCount)
        var withBlock: [UInt32] = []
        for t in 0..<UInt32(tt.tripCount) where tt.tripPattern[Int(t)] != Timetable.none && !tt.strings[Int(tt.tripBlock[Int(t)])].isEmpty
            && !tt.isFrequencyBased(TripIndex(raw: t)) {
            withBlock.append(t)
        }
        withBlock.sort { (tt.tripBlock[Int($0)], tt.scheduledDeparture(trip: Int($0), call: 0), $0) < (tt.tripBlock[Int($1)], tt.scheduledDeparture(trip: Int($1), call: 0), $1) }
        for (a, b) in zip(withBlock, withBlock.dropFirst()) where tt.tripBlock[Int(a)] == tt.tripBlock[Int(b)] { blockNext[Int(a)] = b }
        let table = tt.transfers
        for i in 0..<table.from.count where table.fromTrip[i] != Timetable.none && table.toTrip[i] != Timetable.none {
            switch table.type[i] {
            case 4: seatedInto[table.fromTrip[i], default: []].append(table.toTrip[i])
            case 5: notSeated.insert(UInt64(table.fromTrip[i]) << 32 | UInt64(table.toTrip[i]))
            default: break
            }
        }
        hasSeated = !seatedInto.isEmpty || blockNext.contains { $0 != Timetable.none }
        guard hasSeated else { return }
        // Whether a trip's vehicle may go on as another on some day: a type-4 rule, or a trip of its block (the next, or
        // one after it, on a day the next does not run) starting where it ends.
        mayGoOn = (0..<tt.tripCount).map { t in
            if seatedInto[UInt32(t)] != nil { return true }
            var b = blockNext[t]
            while b != Timetable.none {
                if Self.sameplace(tt, lastStopOf: UInt32(t), firstStopOf: b) { return true }
                b = blockNext[Int(b)]
            }
            return false
        }
        nextRunEndGap = Array(repeating: 0, count: tt.tripCount)
        for r in 0..<routeCount where !routes[r].isFrequency {
            let trips = self.trips(of: r), last = Int(routes[r].calls) - 1
            let ends = trips.map { tt.scheduledArrival(trip: Int($0), call: last) }
            for (i, t) in trips.enumerated() {
                let next = i + 1 < ends.count ? ends[i + 1] : ends[0] + 86_400
                nextRunEndGap[Int(t)] = Int32(clamping: max(0, next - ends[i]))
            }
        }
    }
}

extension JourneyPlanner {
    /// The run a traveller on `run` stays seated into at its last call, or nil: the next trip of its block that runs on
    /// the same service day (when it starts at the stop, or a platform of the station, where `run` ends), else a trip a
    /// type-4 rule names; in either case one that runs that day, is not cancelled, and leaves no earlier than `run`
    /// arrives (by live times where known). Pick-up and drop-off rules do not apply: the traveller never gets off.
    func seatedRun(after run: Run, overlay: RealtimeOverlay, wheelchair: Bool) -> Run? {
        let tt = timetable, a = run.instance.trip.raw, day = run.instance.serviceDay
        let last = tt.patternRange(tt.tripPattern[Int(a)]).count - 1
        let arrives = arrival(of: run, call: last, overlay: overlay)
        var block = index.blockNext[Int(a)]
        while block != Timetable.none, !tt.isActive(service: tt.tripService[Int(block)], day: day) { block = index.blockNext[Int(block)] }
        if block != Timetable.none, index.notSeated.isEmpty || !index.notSeated.contains(UInt64(a) << 32 | UInt64(block)),
           PlannerIndex.sameplace(tt, lastStopOf: a, firstStopOf: block), let next = seated(into: block, day: day, arriving: arrives, overlay: overlay, wheelchair: wheelchair) {
            return next
        }
        guard !index.seatedInto.isEmpty, let ruled = index.seatedInto[a] else { return nil }
        for b in ruled where tt.isActive(service: tt.tripService[Int(b)], day: day) {
            if let next = seated(into: b, day: day, arriving: arrives, overlay: overlay, wheelchair: wheelchair) { return next }
        }
        return nil
    }

    /// Adds to `found` the runs of route `r` to ride on from, each with the run its vehicle goes on as: `riding` (boarded
    /// at call `boardCall`, the earliest one could catch; `position` is its trip's place in `routeTrips`), and any later
    /// run whose vehicle goes on sooner than those of every run before it. Vehicles wait at a terminus for different
    /// times, so a later run may go on as a trip that leaves before the one the earliest run goes on as: a traveller on it
    /// stays seated where one on the earliest would change. The runs are looked at in order until one reaches the route's
    /// end after the soonest continuation so far leaves (no later run can then go on sooner: a route's runs keep their
    /// order) or after `bound`, and at most eight of them.
    func seatedContinuations(route r: Int, riding: Run, position: Int, boardCall: Int, bound: Int64, overlay: RealtimeOverlay, wheelchair: Bool,
                             days: SearchDays, mask: UInt16, into found: inout [(run: Run, next: Run, boardCall: Int)]) {
        let last = Int(index.routes[r].calls) - 1
        // A vehicle reaching the end after the best arrival at the destination goes on no sooner; nor does a later one.
        let ends = arrival(of: riding, call: last, overlay: overlay)
        guard ends < bound else { return }
        var soonest = Int64.max
        if let next = seatedRun(after: riding, overlay: overlay, wheelchair: wheelchair) {
            found.append((riding, next, boardCall))
            soonest = currentDeparture(of: next, call: 0, overlay: overlay)
        }
        func consider(_ later: Run) -> Bool {
            let end = arrival(of: later, call: last, overlay: overlay)
            guard end < bound, end < soonest else { return false }
            if let next = seatedRun(after: later, overlay: overlay, wheelchair: wheelchair) {
                let departs = currentDeparture(of: next, call: 0, overlay: overlay)
                if departs < soonest {
                    soonest = departs
                    found.append((later, next, boardCall))
                }
            }
            return true
        }
        guard overlay.liveSlot.isEmpty, position >= 0 else {
            // Live times can change the runs' order, and a frequency-based route's runs are worked out: each next run
            // is searched for.
            var current = riding
            for _ in 0..<8 {
                let leaves = currentDeparture(of: current, call: boardCall, overlay: overlay)
                guard let later = earliestRun(route: r, call: boardCall, after: leaves + 1, overlay: overlay, wheelchair: wheelchair, days: days, mask: mask),
                      consider(later.run) else { return }
                current = later.run
            }
            return
        }
        // By the timetable, the next run reaches the end no sooner than the gap to it after: most vehicles go on before
        // that. Otherwise the route's next trips of the same service day, in order; one whose vehicle cannot go on
        // anywhere (its block goes on from elsewhere, or it has none) is passed over without working out its run.
        let trip = Int(riding.instance.trip.raw)
        guard soonest > ends + Int64(index.nextRunEndGap[trip]) else { return }
        let day = riding.instance.serviceDay, dayBase = riding.base - Int64(index.routeTripShift[position])
        let tripsEnd = Int(index.routes[r].tripsEnd)
        let checkEachTrip = index.routes[r].service == Timetable.none
        for j in (position + 1)..<min(position + 9, tripsEnd) {
            let later = index.routeTrips[j]
            let end = dayBase + Int64(index.routeTripShift[j]) + Int64(timetable.arrivals[Int(index.routeTripTimes[j]) + last])
            guard end < bound, end < soonest else { return }
            guard index.mayGoOn[Int(later)], !checkEachTrip || timetable.isActive(service: timetable.tripService[Int(later)], day: day),
                  !wheelchair || timetable.tripWheelchair[Int(later)] == 1 else { continue }
            let run = Run(instance: TripInstance(trip: TripIndex(raw: later), serviceDay: day), slot: -1, times: Int32(index.routeTripTimes[j]),
                          base: dayBase + Int64(index.routeTripShift[j]))
            _ = consider(run)
        }
    }

    /// The run of trip `b` on `day`, when a traveller arriving at `arriving` can stay on into it.
    private func seated(into b: UInt32, day: Int32, arriving: Int64, overlay: RealtimeOverlay, wheelchair: Bool) -> Run? {
        let tt = timetable
        guard tt.tripPattern[Int(b)] != Timetable.none, !tt.isFrequencyBased(TripIndex(raw: b)), !wheelchair || tt.tripWheelchair[Int(b)] == 1 else { return nil }
        let instance = TripInstance(trip: TripIndex(raw: b), serviceDay: day)
        let slot = overlay.liveSlot.isEmpty ? -1 : overlay.slot(of: instance)
        if slot >= 0, overlay.liveValues[Int(slot)].status != .running { return nil }
        let next = Run(instance: instance, slot: slot, times: Int32(tt.tripTimes[Int(b)]),
                       base: tt.base(zone: tt.tripZone[Int(b)], day: day) + Int64(tt.tripShift[Int(b)]))
        return currentDeparture(of: next, call: 0, overlay: overlay) >= arriving ? next : nil
    }

    /// When a run reaches call `k`, whether or not one may get off there (live where known).
    func arrival(of run: Run, call k: Int, overlay: RealtimeOverlay) -> Int64 {
        let scheduled = run.base + Int64(timetable.arrivals[Int(run.times) + k])
        guard run.slot >= 0 else { return scheduled }
        return overlay.expectedTime(slot: run.slot, call: k, departure: false) ?? scheduled
    }
}

extension PlannerIndex {
    /// Whether trip `b` starts where trip `a` ends: the same stop, or platforms of one station.
    static func sameplace(_ tt: Timetable, lastStopOf a: UInt32, firstStopOf b: UInt32) -> Bool {
        let pa = tt.patternRange(tt.tripPattern[Int(a)]), pb = tt.patternRange(tt.tripPattern[Int(b)])
        let end = tt.patternStop[pa.upperBound - 1], start = tt.patternStop[pb.lowerBound]
        if end == start { return true }
        let parent = tt.stopParent[Int(end)]
        return parent != Timetable.none && parent == tt.stopParent[Int(start)]
    }
}
