/// A call running late, indexed by stop so a board finds the services
/// scheduled before it starts that are still to come.
public struct LateCall: Sendable, Hashable {
    public var scheduled: Int64
    public var expected: Int64
    public var instance: TripInstance
    public var call: UInt16
}

/// Late calls grouped by stop in one flat array: a stop's calls are
/// `calls[start[stop]..<start[stop + 1]]`, sorted by scheduled time.
public struct LateCalls: Sendable {
    var start: [UInt32] = []
    var calls: [LateCall] = []

    /// The late calls at a stop, sorted by scheduled time.
    public func at(_ stop: StopIndex) -> ArraySlice<LateCall> {
        let s = Int(stop.raw)
        guard s + 1 < start.count else { return [] }
        return calls[Int(start[s])..<Int(start[s + 1])]
    }

    public var isEmpty: Bool { calls.isEmpty }

    init() {}

    /// Groups by stop with a counting sort, then sorts each stop's few calls by
    /// time: a general sort of all of them took most of the time of `reindex`.
    /// (Tried: two passes over the trips, counting then placing, with no pairs
    /// list between; slower, 600 µs against 390 for Halifax: the list is written
    /// in order, where placing scatters twice as many writes.)
    init(stopCount: Int, _ unsorted: [(stop: UInt32, call: LateCall)]) {
        guard !unsorted.isEmpty else { return }
        var start = [UInt32](repeating: 0, count: stopCount + 1)
        let calls = start.withUnsafeMutableBufferPointer { start in
            for item in unsorted { start[Int(item.stop) + 1] += 1 }
            for i in 0..<stopCount { start[i + 1] += start[i] }
            var next = Array(start)
            return [LateCall](unsafeUninitializedCapacity: unsorted.count) { buffer, count in
                next.withUnsafeMutableBufferPointer { next in
                    for item in unsorted {
                        (buffer.baseAddress! + Int(next[Int(item.stop)])).initialize(to: item.call)
                        next[Int(item.stop)] += 1
                    }
                }
                count = unsorted.count
                for i in 0..<stopCount where start[i + 1] - start[i] > 1 {
                    Self.sortByScheduled(buffer, Int(start[i])..<Int(start[i + 1]))
                }
            }
        }
        self.start = start
        self.calls = calls
    }

    /// An insertion sort for the usual handful of calls at a stop; a library sort for more.
    private static func sortByScheduled(_ buffer: UnsafeMutableBufferPointer<LateCall>, _ range: Range<Int>) {
        guard range.count <= 24 else {
            var slice = UnsafeMutableBufferPointer(rebasing: buffer[range])
            slice.sort { $0.scheduled < $1.scheduled }
            return
        }
        for i in range.lowerBound + 1..<range.upperBound {
            let item = buffer[i]
            var j = i
            while j > range.lowerBound && buffer[j - 1].scheduled > item.scheduled {
                buffer[j] = buffer[j - 1]
                j -= 1
            }
            buffer[j] = item
        }
    }
}

extension Timetable {
    /// Indexes the calls running late, and those moved to another platform, by
    /// stop (with the same boarding rules as the static event indices), and
    /// finds the largest delay and lead.
    func lateCalls(_ trips: [TripInstance: TripLive]) -> (departures: LateCalls, arrivals: LateCalls, maxDelay: Int64, maxEarly: Int64,
                                                          movedDepartures: LateCalls, movedArrivals: LateCalls) {
        var lateDepartures: [(stop: UInt32, call: LateCall)] = [], lateArrivals: [(stop: UInt32, call: LateCall)] = []
        var movedDepartures: [(stop: UInt32, call: LateCall)] = [], movedArrivals: [(stop: UInt32, call: LateCall)] = []
        var late: Int64 = 0, early: Int64 = 0
        // Nearly every call of a live trip runs late or early: room for all of them saves regrowing.
        let calls = trips.values.reduce(0) { $0 + $1.arrival.count }
        lateDepartures.reserveCapacity(calls); lateArrivals.reserveCapacity(calls)
        // Trips in the order they set out: each stop's calls then come nearly in time order, and the
        // insertion sort per stop in `LateCalls` has little left to do (in the dictionary's order it
        // was most of the indexing).
        var order: [(start: Int64, dayBase: Int64, index: Dictionary<TripInstance, TripLive>.Index)] = []
        order.reserveCapacity(trips.count)
        for i in trips.indices where trips[i].value.status == .running {
            let key = trips[i].key
            // The instance's day base, with its frequency shift and its start (its running times are shared).
            let dayBase = base(zone: tripZone[Int(key.trip.raw)], day: key.serviceDay) + Int64(key.shift) + Int64(tripShift[Int(key.trip.raw)])
            order.append((dayBase + Int64(departures[Int(tripTimes[Int(key.trip.raw)])]), dayBase, i))
        }
        order.sort { $0.start < $1.start }
        for (_, dayBase, i) in order {
            let (key, live) = trips[i]
            let p = patternRange(tripPattern[Int(key.trip.raw)])
            let first = Int(tripTimes[Int(key.trip.raw)])
            for k in 0..<p.count where live.callStatus[k] == .scheduled {
                let flags = patternFlags[p.lowerBound + k]
                let moved = live.assignedStop[k]?.raw
                let stop = moved ?? patternStop[p.lowerBound + k]
                let departs = k < p.count - 1 && flags & 3 != 1, arrives = k > 0 && (flags >> 2) & 3 != 1
                let scheduledDeparture = dayBase + Int64(departures[first + k]), scheduledArrival = dayBase + Int64(arrivals[first + k])
                if live.departure[k] != TripLive.unknown {
                    let delay = live.departure[k] - scheduledDeparture
                    late = max(late, delay); early = max(early, -delay)
                    if delay > 0 && departs {
                        lateDepartures.append((stop, LateCall(scheduled: scheduledDeparture, expected: live.departure[k], instance: key, call: UInt16(k))))
                    }
                }
                if live.arrival[k] != TripLive.unknown {
                    let delay = live.arrival[k] - scheduledArrival
                    late = max(late, delay); early = max(early, -delay)
                    if delay > 0 && arrives {
                        lateArrivals.append((stop, LateCall(scheduled: scheduledArrival, expected: live.arrival[k], instance: key, call: UInt16(k))))
                    }
                }
                if let moved {
                    let expectedDeparture = live.departure[k] == TripLive.unknown ? scheduledDeparture : live.departure[k]
                    let expectedArrival = live.arrival[k] == TripLive.unknown ? scheduledArrival : live.arrival[k]
                    if departs { movedDepartures.append((moved, LateCall(scheduled: scheduledDeparture, expected: expectedDeparture, instance: key, call: UInt16(k)))) }
                    if arrives { movedArrivals.append((moved, LateCall(scheduled: scheduledArrival, expected: expectedArrival, instance: key, call: UInt16(k)))) }
                }
            }
        }
        return (LateCalls(stopCount: stopCount, lateDepartures), LateCalls(stopCount: stopCount, lateArrivals), late, early,
                LateCalls(stopCount: stopCount, movedDepartures), LateCalls(stopCount: stopCount, movedArrivals))
    }
}
