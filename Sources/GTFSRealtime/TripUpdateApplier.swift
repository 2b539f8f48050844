import Foundation
import OnwardCore
import Timetable

/// Applies GTFS-Realtime trip updates to a timetable as an overlay, as the
/// specification and the best engines (OpenTripPlanner, OneBusAway) do.
public struct TripUpdateApplier {
    public let timetable: Timetable
    /// Prefixed to the feed's IDs when several static feeds are loaded.
    public let idPrefix: String

    public init(timetable: Timetable, idPrefix: String = "") {
        self.timetable = timetable
        self.idPrefix = idPrefix
    }

    /// A new overlay with the message's trip updates. A FULL_DATASET message
    /// replaces all trip data of `previous` (a trip missing from it loses its
    /// realtime data); a DIFFERENTIAL one updates the trips it names. A message
    /// older than `previous` is ignored and `previous` is returned unchanged.
    public func apply(_ message: TransitRealtime_FeedMessage, to previous: RealtimeOverlay = .empty,
                      now: Instant = .now()) -> (overlay: RealtimeOverlay, report: RealtimeMatchReport) {
        var report = RealtimeMatchReport()
        report.entities = message.entity.count
        let timestamp = message.header.hasTimestamp ? Instant(epochSeconds: Int64(clamping: message.header.timestamp)) : nil
        if let t = timestamp, let p = previous.tripUpdatesTimestamp, t < p {
            report.ignoredBecause = "its timestamp \(t) is older than the data already applied (\(p))"
            return (previous, report)
        }
        var overlay = previous
        if message.header.incrementality == .fullDataset {
            overlay.trips = [:]
            overlay.added = []
        }
        overlay.tripUpdatesTimestamp = timestamp ?? now
        let reference = timestamp ?? now
        for entity in message.entity where entity.hasTripUpdate {
            report.tripUpdates += 1
            if entity.isDeleted { continue }
            apply(entity.tripUpdate, reference: reference, into: &overlay, report: &report)
        }
        overlay.reindex(timetable: timetable)
        return (overlay, report)
    }

    private func apply(_ update: TransitRealtime_TripUpdate, reference: Instant, into overlay: inout RealtimeOverlay,
                       report: inout RealtimeMatchReport) {
        let descriptor = update.trip
        report.stopTimeUpdates += update.stopTimeUpdate.count
        let relationship = descriptor.scheduleRelationship
        let tripID = idPrefix + descriptor.tripID
        guard descriptor.hasTripID, let trip = timetable.tripIndex(id: tripID), timetable.callCount(of: trip) > 0 else {
            if relationship == .added || relationship == .new {
                addTrip(update, reference: reference, into: &overlay, report: &report)
            } else {
                report.noteUnknownTrip(descriptor.hasTripID ? tripID : "(no trip_id; route \(descriptor.routeID))")
            }
            return
        }
        guard let key = instance(of: trip, descriptor, reference: reference, firstTime: firstTime(update)) else {
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
        if update.hasTimestamp { live.timestamp = Instant(epochSeconds: Int64(clamping: update.timestamp)) }
        if update.hasVehicle {
            live.vehicleID = update.vehicle.hasID ? update.vehicle.id : nil
            live.vehicleLabel = update.vehicle.hasLabel ? update.vehicle.label : nil
        }
        // Delay carried forward from the last update, until the next one; nil after NO_DATA.
        var carried: Int64? = update.hasDelay && update.stopTimeUpdate.isEmpty ? Int64(update.delay) : nil
        var next = 0
        var matchedAny = false
        for stu in update.stopTimeUpdate {
            guard let k = position(of: stu, in: trip, from: next) else {
                report.noteUnknownStop(stu.hasStopID ? idPrefix + stu.stopID : "stop_sequence \(stu.stopSequence)")
                continue
            }
            report.matchedStopTimeUpdates += 1
            if !matchedAny { live.firstUpdatedCall = k; matchedAny = true }
            // Calls between the previous update and this one run with the carried delay.
            // Updates should come in stop_sequence order; one that points back is applied alone, filling nothing.
            if let d = carried, k > next { for j in next..<k { fill(&live, key: key, call: j, arrivalDelay: d, departureDelay: d) } }
            switch stu.scheduleRelationship {
            case .noData:
                report.noDataStops += 1
                live.callStatus[k] = .noData
                carried = nil
            case .skipped:
                report.skippedStops += 1
                live.callStatus[k] = .skipped
                // A skipped stop has no times of its own; the delay goes on past it.
                if let d = carried { fill(&live, key: key, call: k, arrivalDelay: d, departureDelay: d) }
            default:
                let scheduledArrival = timetable.scheduledArrival(key, k), scheduledDeparture = timetable.scheduledDeparture(key, k)
                let arrivalDelay = delay(stu.hasArrival ? stu.arrival : nil, scheduled: scheduledArrival) ?? carried
                let departureDelay = delay(stu.hasDeparture ? stu.departure : nil, scheduled: scheduledDeparture) ?? arrivalDelay
                if let a = arrivalDelay ?? departureDelay, let d = departureDelay {
                    fill(&live, key: key, call: k, arrivalDelay: a, departureDelay: d)
                    carried = d
                }
            }
            if stu.hasStopTimeProperties, stu.stopTimeProperties.hasAssignedStopID {
                let assigned = idPrefix + stu.stopTimeProperties.assignedStopID
                if let s = timetable.stopIndex(id: assigned) {
                    live.assignedStop[k] = s
                    report.platformChanges += 1
                } else {
                    report.noteUnknownStop(assigned)
                }
            }
            next = max(next, k + 1)
        }
        if let d = carried { for j in next..<calls { fill(&live, key: key, call: j, arrivalDelay: d, departureDelay: d) } }
        overlay.trips[key] = live
    }

    /// Expected minus scheduled: from the absolute time when given (it takes precedence), else the delay.
    private func delay(_ event: TransitRealtime_TripUpdate.StopTimeEvent?, scheduled: Int64) -> Int64? {
        guard let event else { return nil }
        if event.hasTime, event.time > 0 { return event.time - scheduled }
        if event.hasDelay { return Int64(event.delay) }
        return nil
    }

    private func fill(_ live: inout TripLive, key: TripInstance, call k: Int, arrivalDelay: Int64, departureDelay: Int64) {
        let a = timetable.scheduledArrival(key, k) + arrivalDelay
        // A vehicle cannot leave before it arrives.
        let d = max(timetable.scheduledDeparture(key, k) + departureDelay, a)
        live.arrival[k] = a
        live.departure[k] = d
    }

    /// Matches by stop_sequence, falling back to stop_id searched forward from
    /// the last match, so a trip that visits a stop twice is still right.
    private func position(of stu: TransitRealtime_TripUpdate.StopTimeUpdate, in trip: UInt32, from: Int) -> Int? {
        if stu.hasStopSequence, let k = timetable.callIndex(of: trip, sequence: stu.stopSequence, from: from) { return k }
        guard stu.hasStopID, let stop = timetable.stopIndex(id: idPrefix + stu.stopID) else { return nil }
        return timetable.callIndex(of: trip, stop: stop, from: from) ?? timetable.callIndex(of: trip, stop: stop, from: 0)
    }

    /// The first absolute time in an update, to find the service day when the feed gives no start_date.
    private func firstTime(_ update: TransitRealtime_TripUpdate) -> Instant? {
        for stu in update.stopTimeUpdate {
            if stu.hasArrival, stu.arrival.hasTime, stu.arrival.time > 0 { return Instant(epochSeconds: stu.arrival.time) }
            if stu.hasDeparture, stu.departure.hasTime, stu.departure.time > 0 { return Instant(epochSeconds: stu.departure.time) }
        }
        return nil
    }

    /// The trip instance a descriptor names: start_date (else the nearest day
    /// the trip runs), and for a frequency-based trip its start_time.
    func instance(of trip: UInt32, _ descriptor: TransitRealtime_TripDescriptor, reference: Instant, firstTime: Instant?) -> TripInstance? {
        var shift: Int32 = 0
        if timetable.isFrequencyBased(trip) {
            guard descriptor.hasStartTime, let start = GTFSTime.parse(descriptor.startTime),
                  let s = timetable.frequencyShift(of: trip, startTime: start) else { return nil }
            shift = s
        }
        if descriptor.hasStartDate, !descriptor.startDate.isEmpty {
            guard let date = ServiceDate(gtfs: descriptor.startDate) else { return nil }
            guard timetable.runs(TripIndex(raw: trip), on: date) else { return nil }
            return TripInstance(trip: trip, serviceDay: date.dayNumber, shift: shift)
        }
        guard let day = timetable.nearestServiceDay(of: trip, shift: shift, around: firstTime ?? reference) else { return nil }
        return TripInstance(trip: trip, serviceDay: day, shift: shift)
    }

    /// An ADDED or NEW trip: its calls come from the updates' stop_ids and absolute times.
    private func addTrip(_ update: TransitRealtime_TripUpdate, reference: Instant, into overlay: inout RealtimeOverlay,
                         report: inout RealtimeMatchReport) {
        var calls: [AddedTrip.Call] = []
        for stu in update.stopTimeUpdate {
            guard stu.hasStopID, let stop = timetable.stopIndex(id: idPrefix + stu.stopID) else {
                report.noteUnknownStop(stu.hasStopID ? idPrefix + stu.stopID : "stop_sequence \(stu.stopSequence)")
                continue
            }
            let a = stu.hasArrival && stu.arrival.hasTime ? stu.arrival.time : nil
            let d = stu.hasDeparture && stu.departure.hasTime ? stu.departure.time : nil
            guard let arrival = a ?? d, let departure = d ?? a else { continue }
            report.matchedStopTimeUpdates += 1
            calls.append(AddedTrip.Call(stop: stop, arrival: arrival, departure: departure, skipped: stu.scheduleRelationship == .skipped))
        }
        guard calls.count >= 2 else {
            report.noteUnknownTrip(idPrefix + update.trip.tripID)
            return
        }
        report.addedTrips += 1
        let route = update.trip.hasRouteID ? timetable.routeIndex(id: idPrefix + update.trip.routeID) : nil
        var headsign = update.hasTripProperties && update.tripProperties.hasTripHeadsign ? update.tripProperties.tripHeadsign : ""
        if headsign.isEmpty { headsign = timetable.stopNameString(calls[calls.count - 1].stop) }
        let day = update.trip.hasStartDate ? ServiceDate(gtfs: update.trip.startDate)?.dayNumber : nil
        overlay.added.append(AddedTrip(id: idPrefix + update.trip.tripID, route: route, headsign: headsign,
                                       serviceDay: day ?? Int32(calls[0].departure / 86_400), calls: calls))
    }
}
