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
           sameplace(lastStopOf: a, firstStopOf: block), let next = seated(into: block, day: day, arriving: arrives, overlay: overlay, wheelchair: wheelchair) {
            return next
        }
        guard !index.seatedInto.isEmpty, let ruled = index.seatedInto[a] else { return nil }
        for b in ruled where tt.isActive(service: tt.tripService[Int(b)], day: day) {
            if let next = seated(into: b, day: day, arriving: arrives, overlay: overlay, wheelchair: wheelchair) { return next }
        }
        return nil
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

    private func sameplace(lastStopOf a: UInt32, firstStopOf b: UInt32) -> Bool {
        let tt = timetable
        let pa = tt.patternRange(tt.tripPattern[Int(a)]), pb = tt.patternRange(tt.tripPattern[Int(b)])
        let end = tt.patternStop[pa.upperBound - 1], start = tt.patternStop[pb.lowerBound]
        if end == start { return true }
        let parent = tt.stopParent[Int(end)]
        return parent != Timetable.none && parent == tt.stopParent[Int(start)]
    }
}
