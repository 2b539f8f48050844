import Foundation
import OnwardCore
import Timetable

/// Applies GTFS-Realtime trip updates to a timetable as an overlay, as the
/// specification and the best engines (OpenTripPlanner, OneBusAway) do.
public struct TripUpdateApplier {
    public let timetable: Timetable
    /// Prefixed to the feed's IDs when several static feeds are loaded.
    public let idPrefix: String

    /// `idPrefix`: the bound static feed's `name:`, which the feed's bare IDs take (nil: the first feed's).
    public init(timetable: Timetable, idPrefix: String? = nil) {
        self.timetable = timetable
        self.idPrefix = idPrefix ?? timetable.defaultIDPrefix
    }

    /// A new overlay with the message's trip updates. A FULL_DATASET message
    /// replaces all trip data of `previous` (a trip missing from it loses its
    /// realtime data); a DIFFERENTIAL one updates the trips it names. A message
    /// older than `previous` is ignored and `previous` is returned unchanged.
    public func apply(_ message: RealtimeMessage, to previous: RealtimeOverlay = .empty,
                      now: Instant = .now()) -> (overlay: RealtimeOverlay, report: RealtimeMatchReport) {
        var ids = FeedIDs()
        return apply(message, to: previous, now: now, ids: &ids)
    }

    /// The same, resolving the feed's IDs through `ids`, which a poller keeps
    /// from one message to the next (see `FeedIDs`).
    public func apply(_ message: RealtimeMessage, to previous: RealtimeOverlay = .empty, now: Instant = .now(),
                      ids: inout FeedIDs) -> (overlay: RealtimeOverlay, report: RealtimeMatchReport) {
        var report = RealtimeMatchReport()
        report.entities = message.entityCount
        let timestamp = message.timestamp.map { Instant(epochSeconds: Int64(clamping: $0)) }
        if let t = timestamp, let p = previous.tripUpdatesTimestamp, t < p {
            report.ignoredBecause = "its timestamp \(t) is older than the data already applied (\(p))"
            return (previous, report)
        }
        var overlay = previous
        if message.isFullDataset {
            overlay.trips = [:]
            overlay.added = []
        }
        overlay.trips.reserveCapacity(message.tripUpdates.count)
        overlay.tripUpdatesTimestamp = timestamp ?? now
        let reference = timestamp ?? now
        ids.prepare(for: timetable, idPrefix: idPrefix)
        for i in message.tripUpdates.indices {
            report.tripUpdates += 1
            if message.tripUpdates[i].isDeleted { continue }
            apply(message.tripUpdates[i], reference: reference, ids: &ids, into: &overlay, report: &report)
        }
        overlay.reindex(timetable: timetable)
        return (overlay, report)
    }

    /// The same, for a message built or decoded by SwiftProtobuf.
    public func apply(_ message: TransitRealtime_FeedMessage, to previous: RealtimeOverlay = .empty,
                      now: Instant = .now()) -> (overlay: RealtimeOverlay, report: RealtimeMatchReport) {
        apply(RealtimeMessage(message), to: previous, now: now)
    }

    private func apply(_ update: TripUpdateRecord, reference: Instant, ids: inout FeedIDs, into overlay: inout RealtimeOverlay,
                       report: inout RealtimeMatchReport) {
        report.stopTimeUpdates += update.stopTimeUpdates.count
        let relationship = update.relationship
        guard let feedTripID = update.tripID, let trip = ids.trip(feedTripID, in: timetable), timetable.callCount(of: trip) > 0 else {
            // A REPLACEMENT (deprecated, as some feeds still send it) for a trip the timetable lacks carries all its calls: an added trip.
            if relationship == .added || relationship == .new || relationship == .replacement {
                addTrip(update, reference: reference, ids: &ids, into: &overlay, report: &report)
            } else {
                report.noteUnknownTrip(update.tripID.map { idPrefix + $0 } ?? "(no trip_id; route \(update.routeID ?? "none"))")
            }
            return
        }
        guard let key = instance(of: trip, startTime: update.startTime, startDate: update.startDate, reference: reference,
                                 firstTime: firstTime(update)) else {
            report.unmatchedInstances += 1
            return
        }
        report.matchedTrips += 1
        let calls = timetable.callCount(of: trip)
        if relationship == .canceled || relationship == .deleted {
            report.cancelledTrips += 1
            overlay.trips[key] = TripLive(status: .cancelled, calls: calls)
            return
        }
        var live = TripLive(status: .running, calls: calls)
        let schedule = timetable.schedule(of: key)
        live.timestamp = update.timestamp.map { Instant(epochSeconds: Int64(clamping: $0)) }
        live.vehicleID = update.vehicleID
        live.vehicleLabel = update.vehicleLabel
        // Delay carried forward from the last update, until the next one; nil after NO_DATA.
        // The trip-level delay applies from the start until a stop time update says otherwise.
        var carried: Int64? = update.delay.map(Int64.init)
        var next = 0
        var matchedAny = false
        // Read in place through the buffer: copying each record (and retaining its strings) was
        // a tenth of the apply.
        update.stopTimeUpdates.withUnsafeBufferPointer { stus in
            for i in stus.indices {
                guard let k = position(of: stus[i], in: trip, from: next, ids: &ids, report: &report) else {
                    report.noteUnknownStop(stus[i].stopID.map { idPrefix + $0 } ?? "stop_sequence \(stus[i].stopSequence.map(String.init) ?? "none")")
                    continue
                }
                report.matchedStopTimeUpdates += 1
                if !matchedAny {
                    live.firstUpdatedCall = k
                    matchedAny = true
                    // Calls before the first update have been served: a trip-level delay does not reach back to them.
                    if update.delay != nil { next = k }
                }
                // Calls between the previous update and this one run with the carried delay.
                // Updates should come in stop_sequence order; one that points back is applied alone, filling nothing.
                if let d = carried, k > next { for j in next..<k { fill(&live, schedule, call: j, arrivalDelay: d, departureDelay: d) } }
                switch stus[i].relationship {
                case .noData:
                    report.noDataStops += 1
                    live.callStatus[k] = .noData
                    carried = nil
                case .skipped:
                    report.skippedStops += 1
                    live.callStatus[k] = .skipped
                    live.markReported(k)
                    // A skipped stop has no times of its own; the delay goes on past it.
                    if let d = carried { fill(&live, schedule, call: k, arrivalDelay: d, departureDelay: d) }
                default:
                    let arrivalDelay = delay(stus[i].arrival, scheduled: schedule.arrival(k)) ?? carried
                    let departureDelay = delay(stus[i].departure, scheduled: schedule.departure(k)) ?? arrivalDelay
                    if let a = arrivalDelay ?? departureDelay, let d = departureDelay {
                        fill(&live, schedule, call: k, arrivalDelay: a, departureDelay: d)
                        carried = d
                        if stus[i].arrival != nil || stus[i].departure != nil { live.markReported(k) }
                    }
                }
                if let level = stus[i].departureOccupancy {
                    if live.departureOccupancy.isEmpty { live.departureOccupancy = Array(repeating: nil, count: calls) }
                    live.departureOccupancy[k] = level
                }
                if let assignedID = stus[i].assignedStopID {
                    if let s = ids.stop(assignedID, in: timetable) {
                        if s != timetable.patternStopAt(trip: trip, call: k) {
                            live.assignedStop[k] = s
                            report.platformChanges += 1
                        }
                    } else {
                        report.noteUnknownStop(idPrefix + assignedID)
                    }
                }
                next = max(next, k + 1)
            }
        }
        if let d = carried { for j in next..<calls { fill(&live, schedule, call: j, arrivalDelay: d, departureDelay: d) } }
        overlay.trips[key] = live
    }

    /// Expected minus scheduled: from the absolute time when given (it takes precedence), else the delay.
    private func delay(_ event: StopTimeEventRecord?, scheduled: Int64) -> Int64? {
        guard let event else { return nil }
        if let t = event.absoluteTime { return t - scheduled }
        return event.delay.map(Int64.init)
    }

    private func fill(_ live: inout TripLive, _ schedule: TripSchedule, call k: Int, arrivalDelay: Int64, departureDelay: Int64) {
        let a = schedule.arrival(k) + arrivalDelay
        // A vehicle cannot leave before it arrives.
        let d = max(schedule.departure(k) + departureDelay, a)
        live.arrival[k] = a
        live.departure[k] = d
    }

    /// Matches by stop_sequence, falling back to stop_id searched forward from
    /// the last match, so a trip that visits a stop twice is still right. When
    /// the call at that stop_sequence is not at the update's stop_id (nor at
    /// another stop of its station), the producer's sequence numbers disagree
    /// with the static feed (a detour stop inserted, say), so stop_id decides.
    private func position(of stu: StopTimeUpdateRecord, in trip: TripIndex, from: Int, ids: inout FeedIDs,
                          report: inout RealtimeMatchReport) -> Int? {
        if let sequence = stu.stopSequence, let k = timetable.callIndex(of: trip, sequence: sequence, from: from) {
            guard let id = stu.stopID else { return k }
            let scheduled = timetable.patternStopAt(trip: trip, call: k)
            if ids.names(scheduled, id, in: timetable) { return k }
            // Not a stop of the timetable: the sequence's call stands.
            guard let stop = ids.stop(id, in: timetable) else { return k }
            if let j = callIndex(of: trip, stop: stop, from: from) {
                report.sequenceStopMismatches += 1
                return j
            }
            // Not a stop of this trip: another platform of the same station keeps the sequence's call.
            return sameStation(stop, scheduled) ? k : nil
        }
        guard let id = stu.stopID, let stop = ids.stop(id, in: timetable) else { return nil }
        return callIndex(of: trip, stop: stop, from: from)
    }

    /// The call at `stop`, searched forward from `from`, then from the start.
    private func callIndex(of trip: TripIndex, stop: StopIndex, from: Int) -> Int? {
        timetable.callIndex(of: trip, stop: stop, from: from) ?? timetable.callIndex(of: trip, stop: stop)
    }

    private func sameStation(_ a: StopIndex, _ b: StopIndex) -> Bool {
        a == b || (timetable.station(of: a).map { $0 == timetable.station(of: b) } ?? false)
    }

    /// The first absolute time in an update, to find the service day when the feed gives no start_date.
    private func firstTime(_ update: TripUpdateRecord) -> Instant? {
        for stu in update.stopTimeUpdates {
            if let t = stu.arrival?.absoluteTime ?? stu.departure?.absoluteTime { return Instant(epochSeconds: t) }
        }
        return nil
    }

    /// The trip instance a descriptor names: start_date (else the nearest day
    /// the trip runs), and for a frequency-based trip its start_time.
    func instance(of trip: TripIndex, startTime: String?, startDate: String?, reference: Instant, firstTime: Instant?) -> TripInstance? {
        var shift: Int32 = 0
        if timetable.isFrequencyBased(trip) {
            guard let startTime, let start = GTFSTime.parse(startTime),
                  let s = timetable.frequencyShift(of: trip, startTime: start) else { return nil }
            shift = s
        }
        if let startDate, !startDate.isEmpty {
            guard let date = ServiceDate(gtfs: startDate) else { return nil }
            guard timetable.runs(trip, on: date) else { return nil }
            return TripInstance(trip: trip, serviceDay: date.dayNumber, shift: shift)
        }
        guard let day = timetable.nearestServiceDay(of: trip, shift: shift, around: firstTime ?? reference) else { return nil }
        return TripInstance(trip: trip, serviceDay: day, shift: shift)
    }

    /// An ADDED or NEW trip: its calls come from the updates' stop_ids and absolute times.
    private func addTrip(_ update: TripUpdateRecord, reference: Instant, ids: inout FeedIDs, into overlay: inout RealtimeOverlay,
                         report: inout RealtimeMatchReport) {
        var calls: [AddedTrip.Call] = []
        for stu in update.stopTimeUpdates {
            guard let id = stu.stopID, let stop = ids.stop(id, in: timetable) else {
                report.noteUnknownStop(stu.stopID.map { idPrefix + $0 } ?? "stop_sequence \(stu.stopSequence.map(String.init) ?? "none")")
                continue
            }
            let a = stu.arrival?.absoluteTime, d = stu.departure?.absoluteTime
            guard let arrival = a ?? d, let departure = d ?? a else { continue }
            report.matchedStopTimeUpdates += 1
            calls.append(AddedTrip.Call(stop: stop, arrival: arrival, departure: departure, skipped: stu.relationship == .skipped))
        }
        let id = idPrefix + (update.tripID ?? update.entityID)
        guard calls.count >= 2 else {
            report.noteUnknownTrip(id)
            return
        }
        report.addedTrips += 1
        let route = update.routeID.flatMap { timetable.routeIndex(exactID: idPrefix + $0) }
        var headsign = update.tripHeadsign ?? ""
        if headsign.isEmpty { headsign = timetable.stopNameString(calls[calls.count - 1].stop) }
        let day = update.startDate.flatMap { ServiceDate(gtfs: $0)?.dayNumber }
        overlay.added.append(AddedTrip(id: id, route: route, headsign: headsign,
                                       serviceDay: day ?? Int32(calls[0].departure / 86_400), calls: calls))
    }
}
