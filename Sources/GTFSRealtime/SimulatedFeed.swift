import Foundation
import OnwardCore
import Timetable

/// Realistic live data made up for a timetable, so a newcomer sees every live
/// feature offline: delays that grow along a trip and recover over time, one
/// cancellation, one skipped stop, vehicles between stops (with how full they are) and a station alert.
/// Everything it makes is labelled as simulated.
///
/// It produces ordinary GTFS-Realtime messages, so the simulation goes through
/// exactly the code a real feed does. The same `now` always gives the same data.
public struct SimulatedFeed {
    public let timetable: Timetable
    public let idPrefix: String

    /// `idPrefix`: the feed's `name:`, dropped from the IDs the simulated messages carry, as a real feed's are bare (nil: the first feed's).
    public init(timetable: Timetable, idPrefix: String? = nil) {
        self.timetable = timetable
        self.idPrefix = idPrefix ?? timetable.defaultIDPrefix
    }

    /// The simulation's sources, as they are named wherever live data is shown.
    public static let sourceNames = ["simulation (trip updates)", "simulation (vehicles)", "simulation (alerts)"]

    public struct Messages {
        public var tripUpdates: TransitRealtime_FeedMessage
        public var vehiclePositions: TransitRealtime_FeedMessage
        public var alerts: TransitRealtime_FeedMessage

        /// Each message with the name of the source it comes from (`sourceNames`).
        public var bySource: [(source: String, message: TransitRealtime_FeedMessage)] {
            Array(zip(SimulatedFeed.sourceNames, [tripUpdates, vehiclePositions, alerts]))
        }
    }

    public func messages(at now: Instant) -> Messages {
        let running = timetable.instances(between: now.adding(seconds: -3 * 3600), and: now.adding(seconds: 2 * 3600))
            .sorted { ($0.trip.raw, $0.serviceDay, $0.shift) < ($1.trip.raw, $1.serviceDay, $1.shift) }
        // The cancelled and the skipping trip: the first two that have not started yet, chosen by a stable hash.
        let upcoming = running.filter { timetable.scheduledDeparture($0, 0) > now.epochSeconds + 300 }
            .sorted { hash($0) < hash($1) }
        let cancelled = upcoming.first
        let skipping = upcoming.dropFirst().first

        var tripUpdates = header(now)
        var vehicles = header(now)
        for key in running {
            let id = timetable.tripIdentifier(key.trip)
            var update = TransitRealtime_TripUpdate()
            update.trip = descriptor(key, id: id)
            if key == cancelled {
                update.trip.scheduleRelationship = .canceled
                tripUpdates.entity.append(entity("sim-tu-\(tripUpdates.entity.count)") { $0.tripUpdate = update })
                continue
            }
            let n = timetable.callCount(of: key.trip)
            let delays = (0..<n).map { delay(key, call: $0, calls: n, now: now) }
            for k in 0..<n {
                var stu = TransitRealtime_TripUpdate.StopTimeUpdate()
                stu.stopSequence = timetable.stopSequence(trip: key.trip, call: k)
                if key == skipping && k == n / 2 {
                    stu.scheduleRelationship = .skipped
                } else {
                    var arrival = TransitRealtime_TripUpdate.StopTimeEvent(), departure = TransitRealtime_TripUpdate.StopTimeEvent()
                    arrival.delay = Int32(delays[k]); departure.delay = Int32(delays[k])
                    if k > 0 { stu.arrival = arrival }
                    if k < n - 1 {
                        stu.departure = departure
                        stu.departureOccupancyStatus = Self.status(Occupancy.Level(percentage: occupancyPercent(key, call: k, calls: n)))
                    }
                }
                update.stopTimeUpdate.append(stu)
            }
            tripUpdates.entity.append(entity("sim-tu-\(tripUpdates.entity.count)") { $0.tripUpdate = update })
            if let position = vehicle(key, delays: delays, now: now) {
                var v = position
                // How full it is now: as it left its last call (or will leave its first).
                let at = max((timetable.callIndex(of: key.trip, sequence: v.currentStopSequence) ?? 0) - (v.currentStatus == .stoppedAt ? 0 : 1), 0)
                let percent = occupancyPercent(key, call: at, calls: n)
                v.occupancyPercentage = UInt32(percent)
                v.occupancyStatus = Self.status(Occupancy.Level(percentage: percent))
                v.multiCarriageDetails = carriages(key, percent: percent)
                v.trip = descriptor(key, id: id)
                v.vehicle.id = "SIM-\(key.trip.raw)"
                v.vehicle.label = "Simulated \(key.trip.raw % 100 + 1)"
                vehicles.entity.append(entity("sim-vp-\(vehicles.entity.count)") { $0.vehicle = v })
            }
        }
        return Messages(tripUpdates: tripUpdates, vehiclePositions: vehicles, alerts: alert(now: now, running: running))
    }

    /// A delay profile per trip: most run within a minute; some pick up a delay
    /// along the route that rises and falls over the hour, as real lines do.
    func delay(_ key: TripInstance, call k: Int, calls n: Int, now: Instant) -> Int {
        let h = hash(key)
        guard h % 10 < 4 else { return Int(h % 50) - 20 }
        let amplitude = Double(120 + Int(h % 480))                       // 2 to 10 minutes at worst
        let phase = Double(h % 360) * .pi / 180
        let overTime = 0.5 + 0.5 * sin(Double(now.epochSeconds) / 900 + phase) // recovers and grows again every ~90 min
        let alongRoute = sin(Double.pi * Double(k + 1) / Double(n + 1))       // builds up, then recovers towards the end
        return Int((amplitude * overTime * alongRoute).rounded())
    }

    /// Where the vehicle is now from its delayed times, or nil if it is not running.
    func vehicle(_ key: TripInstance, delays: [Int], now: Instant) -> TransitRealtime_VehiclePosition? {
        let n = delays.count
        let t = now.epochSeconds
        let arrival = (0..<n).map { timetable.scheduledArrival(key, $0) + Int64(delays[$0]) }
        let departure = (0..<n).map { max(timetable.scheduledDeparture(key, $0) + Int64(delays[$0]), arrival[$0]) }
        guard t >= departure[0] - 120, t <= arrival[n - 1] + 60 else { return nil }
        var v = TransitRealtime_VehiclePosition()
        v.timestamp = UInt64(t)
        for k in 0..<n {
            let here = timetable.callPlace(key, k)
            if t >= arrival[k] - 30 && t <= departure[k] {
                v.currentStatus = .stoppedAt
                v.currentStopSequence = timetable.stopSequence(trip: key.trip, call: k)
                v.position.latitude = Float(here.latitude); v.position.longitude = Float(here.longitude)
                return v
            }
            if k + 1 < n && t > departure[k] && t < arrival[k + 1] {
                let next = timetable.callPlace(key, k + 1)
                let f = Double(t - departure[k]) / Double(max(arrival[k + 1] - departure[k], 1))
                v.currentStatus = f > 0.8 ? .incomingAt : .inTransitTo
                v.currentStopSequence = timetable.stopSequence(trip: key.trip, call: k + 1)
                v.position.latitude = Float(here.latitude + (next.latitude - here.latitude) * f)
                v.position.longitude = Float(here.longitude + (next.longitude - here.longitude) * f)
                return v
            }
        }
        if t < departure[0] {
            v.currentStatus = .stoppedAt
            v.currentStopSequence = timetable.stopSequence(trip: key.trip, call: 0)
            let first = timetable.callPlace(key, 0)
            v.position.latitude = Float(first.latitude); v.position.longitude = Float(first.longitude)
            return v
        }
        return nil
    }

    /// One station alert, at the station the most running trips call at.
    func alert(now: Instant, running: [TripInstance]) -> TransitRealtime_FeedMessage {
        var message = header(now)
        var calls: [StopIndex: Int] = [:]
        for key in running {
            for k in 0..<timetable.callCount(of: key.trip) {
                let s = timetable.callPlace(key, k).stop
                calls[timetable.station(of: s) ?? s, default: 0] += 1
            }
        }
        guard let station = calls.max(by: { ($0.value, $1.key.raw) < ($1.value, $0.key.raw) })?.key else { return message }
        var alert = TransitRealtime_Alert()
        var period = TransitRealtime_TimeRange()
        period.start = UInt64(max(now.epochSeconds - 1800, 0)); period.end = UInt64(now.epochSeconds + 7200)
        alert.activePeriod = [period]
        var selector = TransitRealtime_EntitySelector()
        selector.stopID = String(timetable.stopIDString(station).dropFirst(idPrefix.count))
        alert.informedEntity = [selector]
        alert.cause = .maintenance
        alert.effect = .accessibilityIssue
        alert.severityLevel = .warning
        alert.headerText = text(en: "[Simulated] Escalator out of service", id: "[Simulasi] Eskalator tidak beroperasi")
        alert.descriptionText = text(en: "Simulated alert for the demonstration: one escalator at \(timetable.stopNameString(station)) is under maintenance. Please use the lifts.",
                                     id: "Peringatan simulasi untuk demonstrasi: satu eskalator di \(timetable.stopNameString(station)) sedang dalam perawatan. Silakan gunakan lift.")
        message.entity.append(entity("sim-alert-1") { $0.alert = alert })
        return message
    }

    private func text(en: String, id: String) -> TransitRealtime_TranslatedString {
        var s = TransitRealtime_TranslatedString()
        for (language, value) in [("en", en), ("id", id)] {
            var t = TransitRealtime_TranslatedString.Translation()
            t.language = language; t.text = value
            s.translation.append(t)
        }
        return s
    }

    private func header(_ now: Instant) -> TransitRealtime_FeedMessage {
        var m = TransitRealtime_FeedMessage()
        m.header.gtfsRealtimeVersion = "2.0"
        m.header.incrementality = .fullDataset
        m.header.timestamp = UInt64(max(now.epochSeconds, 0))
        return m
    }

    private func entity(_ id: String, _ fill: (inout TransitRealtime_FeedEntity) -> Void) -> TransitRealtime_FeedEntity {
        var e = TransitRealtime_FeedEntity()
        e.id = id
        fill(&e)
        return e
    }

    private func descriptor(_ key: TripInstance, id: String) -> TransitRealtime_TripDescriptor {
        var d = TransitRealtime_TripDescriptor()
        d.tripID = String(id.dropFirst(idPrefix.count))
        d.startDate = ServiceDate(dayNumber: key.serviceDay).gtfsString
        if timetable.isFrequencyBased(key.trip) {
            d.startTime = GTFSTime.format(timetable.firstDepartureTime(of: key.trip) + key.shift)
        }
        d.scheduleRelationship = .scheduled
        return d
    }

    /// A stable hash (FNV-1a), so the same trip gets the same delay profile in every run.
    func hash(_ key: TripInstance) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for v in [UInt64(key.trip.raw), UInt64(UInt32(bitPattern: key.serviceDay)), UInt64(UInt32(bitPattern: key.shift))] {
            h = (h ^ v) &* 0x100_0000_01b3
        }
        return h
    }
}
