import Foundation
import OnwardCore
import Timetable

/// Applies GTFS-Realtime vehicle positions to the overlay: where each trip's vehicle is.
public struct VehiclePositionApplier {
    let trips: TripUpdateApplier

    /// `idPrefix`: the bound static feed's `name:`, which the feed's bare IDs take (nil: the first feed's).
    public init(timetable: Timetable, idPrefix: String? = nil) {
        trips = TripUpdateApplier(timetable: timetable, idPrefix: idPrefix)
    }

    /// A new overlay whose vehicles are the message's (the trip updates are kept).
    public func apply(_ message: TransitRealtime_FeedMessage, to previous: RealtimeOverlay = .empty,
                      now: Instant = .now()) -> (overlay: RealtimeOverlay, report: RealtimeMatchReport) {
        var report = RealtimeMatchReport()
        report.entities = message.entity.count
        let timestamp = message.header.hasTimestamp ? Instant(epochSeconds: Int64(clamping: message.header.timestamp)) : nil
        if let t = timestamp, let p = previous.vehiclesTimestamp, t < p {
            report.ignoredBecause = "its timestamp \(t) is older than the positions already applied (\(p))"
            return (previous, report)
        }
        var overlay = previous
        if message.header.incrementality == .fullDataset { overlay.vehicles = [:] }
        overlay.vehiclesTimestamp = timestamp ?? now
        let tt = trips.timetable, prefix = trips.idPrefix
        for entity in message.entity where entity.hasVehicle && !entity.isDeleted {
            report.vehiclePositions += 1
            let v = entity.vehicle
            guard v.hasTrip, v.trip.hasTripID else { continue }
            guard let trip = tt.tripIndex(exactID: prefix + v.trip.tripID), tt.callCount(of: trip) > 0 else {
                report.noteUnknownTrip(prefix + v.trip.tripID)
                report.unknownVehicleTrips += 1
                continue
            }
            let reported = v.hasTimestamp ? Instant(epochSeconds: Int64(clamping: v.timestamp)) : timestamp ?? now
            guard let key = trips.instance(of: trip, startTime: v.trip.hasStartTime ? v.trip.startTime : nil,
                                           startDate: v.trip.hasStartDate ? v.trip.startDate : nil, reference: reported, firstTime: nil) else {
                report.unmatchedInstances += 1
                continue
            }
            report.matchedVehicles += 1
            var info = VehicleInfo(vehicleID: v.hasVehicle && v.vehicle.hasID ? v.vehicle.id : nil,
                                   label: v.hasVehicle && v.vehicle.hasLabel ? v.vehicle.label : nil,
                                   reportedAt: reported)
            if v.hasPosition {
                info.latitude = Double(v.position.latitude)
                info.longitude = Double(v.position.longitude)
                if v.position.hasBearing { info.bearing = Double(v.position.bearing) }
                if v.position.hasSpeed { info.speed = Double(v.position.speed) }
            }
            if v.hasCurrentStopSequence || v.hasStopID {
                info.stopStatus = switch v.currentStatus {
                case .incomingAt: .incomingAt
                case .stoppedAt: .stoppedAt
                default: .inTransitTo
                }
                if v.hasCurrentStopSequence, let k = tt.callIndex(of: trip, sequence: v.currentStopSequence) {
                    info.callIndex = k
                } else if v.hasStopID, let s = tt.stopIndex(exactID: prefix + v.stopID), let k = tt.callIndex(of: trip, stop: s) {
                    info.callIndex = k
                }
                if let k = info.callIndex { info.stopID = tt.stopIDString(tt.patternStopAt(trip: trip, call: k)) }
                else if v.hasStopID { info.stopID = prefix + v.stopID }
            }
            info.occupancy = Self.occupancy(of: v)
            overlay.vehicles[key] = info
        }
        return (overlay, report)
    }

    /// How full the vehicle is: its status and percentage, and each carriage's (unset fields, NO_DATA_AVAILABLE and a
    /// carriage percentage of -1 mean no data).
    static func occupancy(of v: TransitRealtime_VehiclePosition) -> Occupancy? {
        let carriages = v.multiCarriageDetails.enumerated().map { n, c in
            Occupancy.Carriage(sequence: c.hasCarriageSequence && c.carriageSequence > 0 ? Int(c.carriageSequence) : n + 1,
                               id: c.hasID && !c.id.isEmpty ? c.id : nil, label: c.hasLabel && !c.label.isEmpty ? c.label : nil,
                               level: c.hasOccupancyStatus ? Occupancy.Level(gtfsRealtime: c.occupancyStatus.rawValue) : nil,
                               percentage: c.hasOccupancyPercentage && c.occupancyPercentage >= 0 ? Int(c.occupancyPercentage) : nil)
        }.sorted { $0.sequence < $1.sequence }
        return Occupancy(level: v.hasOccupancyStatus ? Occupancy.Level(gtfsRealtime: v.occupancyStatus.rawValue) : nil,
                         percentage: v.hasOccupancyPercentage ? Int(v.occupancyPercentage) : nil, carriages: carriages, basis: .vehicleNow)
    }
}
