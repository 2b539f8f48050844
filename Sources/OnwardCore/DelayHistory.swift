import Foundation

/// The hour of the week a call is scheduled in, on the stop's clock: Monday 00:00–00:59 is 0, Sunday 23:00–23:59 is 167.
/// History is kept by it, because a line is late at 08:00 on a weekday and not at 08:00 on a Sunday.
public struct HourOfWeek: Hashable, Comparable, Sendable, Codable {
    public let raw: Int

    public init?(raw: Int) {
        guard (0..<168).contains(raw) else { return nil }
        self.raw = raw
    }

    public init(weekday: Int, hour: Int) { raw = weekday * 24 + hour }

    /// The hour of the week of `instant` on the clock of `zone`.
    public init(_ instant: Instant, in zone: TimeZone) {
        let local = LocalTime(instant, in: zone)
        self.init(weekday: local.date.weekdayIndex, hour: local.hour)
    }

    /// The same from the zone's offset at that instant (a caller that reads many instants keeps the offsets).
    public init(_ instant: Instant, utcOffset: Int) {
        let local = instant.epochSeconds + Int64(utcOffset)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        self.init(weekday: ServiceDate(dayNumber: Int32(day)).weekdayIndex, hour: Int(local - day * 86_400) / 3600)
    }

    /// Monday = 0 … Sunday = 6.
    public var weekday: Int { raw / 24 }
    public var hour: Int { raw % 24 }
    public var dayKind: DayKind { DayKind(weekday: weekday) }

    public func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(raw) }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let raw = try c.decode(Int.self)
        guard let h = HourOfWeek(raw: raw) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "an hour of the week is 0 to 167, not \(raw)")
        }
        self = h
    }

    public static func < (a: HourOfWeek, b: HourOfWeek) -> Bool { a.raw < b.raw }
}

/// The days whose hours are alike: history of a weekday hour is read with the other weekdays' same hour.
public enum DayKind: String, Sendable, Codable, CaseIterable {
    case weekday, saturday, sunday

    public init(weekday: Int) { self = weekday == 5 ? .saturday : weekday == 6 ? .sunday : .weekday }

    /// The weekdays (Monday = 0) of this kind.
    public var weekdays: [Int] {
        switch self {
        case .weekday: [0, 1, 2, 3, 4]
        case .saturday: [5]
        case .sunday: [6]
        }
    }
}

/// What a live source said of one call of one run: how late it was expected to leave and arrive, or that it was
/// cancelled there. Stored raw (the latest word on each call wins) for a few days, then folded into `DelayAggregate`s.
public struct DelayObservation: Sendable, Hashable, Codable {
    /// The live source it came from (a feed's name).
    public var source: String
    public var tripID: String
    public var serviceDate: ServiceDate
    /// The call's position in its trip (0 first), which with the trip and date names the call.
    public var call: Int
    public var routeID: String
    public var stopID: String
    /// When the call is scheduled, on the stop's clock.
    public var hourOfWeek: HourOfWeek
    /// Expected minus scheduled, in seconds, when the source gave a time.
    public var departureDelay: Int?
    public var arrivalDelay: Int?
    /// The run was cancelled, or this call skipped.
    public var cancelled: Bool
    /// When the source said it (the message's time).
    public var observedAt: Instant

    public init(source: String, tripID: String, serviceDate: ServiceDate, call: Int, routeID: String, stopID: String,
                hourOfWeek: HourOfWeek, departureDelay: Int?, arrivalDelay: Int?, cancelled: Bool, observedAt: Instant) {
        self.source = source; self.tripID = tripID; self.serviceDate = serviceDate; self.call = call; self.routeID = routeID
        self.stopID = stopID; self.hourOfWeek = hourOfWeek; self.departureDelay = departureDelay; self.arrivalDelay = arrivalDelay
        self.cancelled = cancelled; self.observedAt = observedAt
    }
}

/// How many calls were how many minutes late (a delay rounded to the nearest minute, clamped to -30…180): what is
/// kept per day, so days add up and percentiles come from the sum.
public struct DelayHistogram: Hashable, Sendable {
    public private(set) var counts: [Int: Int] = [:]

    public init() {}

    public static let minutes = -30...180

    public mutating func add(seconds: Int, count: Int = 1) {
        let minute = Int((Double(seconds) / 60).rounded())
        counts[min(max(minute, Self.minutes.lowerBound), Self.minutes.upperBound), default: 0] += count
    }

    public mutating func merge(_ other: DelayHistogram) { for (m, c) in other.counts { counts[m, default: 0] += c } }

    public var total: Int { counts.values.reduce(0, +) }

    /// The smallest delay in minutes that at least `fraction` of the calls were at or under; nil when empty.
    public func percentile(_ fraction: Double) -> Int? {
        let n = total
        guard n > 0 else { return nil }
        let needed = max(1, Int((fraction * Double(n)).rounded(.up)))
        var seen = 0
        for m in counts.keys.sorted() {
            seen += counts[m]!
            if seen >= needed { return m }
        }
        return counts.keys.max()
    }

    /// `minute:count` pairs joined by commas, by minute: how drivers keep it in one text column.
    public var encoded: String { counts.keys.sorted().map { "\($0):\(counts[$0]!)" }.joined(separator: ",") }

    public init?(encoded: String) {
        for pair in encoded.split(separator: ",") {
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let m = Int(parts[0]), let c = Int(parts[1]), Self.minutes.contains(m), c > 0 else { return nil }
            counts[m, default: 0] += c
        }
    }
}

/// One day's history of one route at one stop in one hour of the week.
public struct DelayAggregate: Hashable, Sendable {
    public var serviceDate: ServiceDate
    public var routeID: String
    public var stopID: String
    public var hourOfWeek: HourOfWeek
    /// Calls that ran (whether or not a time was given), and calls cancelled or skipped.
    public var observed: Int
    public var cancelled: Int
    public var departures: DelayHistogram
    public var arrivals: DelayHistogram

    public init(serviceDate: ServiceDate, routeID: String, stopID: String, hourOfWeek: HourOfWeek, observed: Int = 0, cancelled: Int = 0,
                departures: DelayHistogram = .init(), arrivals: DelayHistogram = .init()) {
        self.serviceDate = serviceDate; self.routeID = routeID; self.stopID = stopID; self.hourOfWeek = hourOfWeek
        self.observed = observed; self.cancelled = cancelled; self.departures = departures; self.arrivals = arrivals
    }

    /// The one folding rule, which every storage driver uses: observations grouped by service date, route, stop and hour
    /// of the week. Sorted, so drivers store and tests compare them in one order.
    public static func fold(_ observations: some Sequence<DelayObservation>) -> [DelayAggregate] {
        var groups: [FoldKey: DelayAggregate] = [:]
        for o in observations {
            let key = FoldKey(date: o.serviceDate, route: o.routeID, stop: o.stopID, hour: o.hourOfWeek)
            groups[key, default: DelayAggregate(serviceDate: o.serviceDate, routeID: o.routeID, stopID: o.stopID, hourOfWeek: o.hourOfWeek)]
                .add(o)
        }
        return groups.values.sorted { ($0.serviceDate, $0.routeID, $0.stopID, $0.hourOfWeek) < ($1.serviceDate, $1.routeID, $1.stopID, $1.hourOfWeek) }
    }

    private struct FoldKey: Hashable { var date: ServiceDate; var route: String; var stop: String; var hour: HourOfWeek }

    mutating func add(_ o: DelayObservation) {
        if o.cancelled { cancelled += 1; return }
        observed += 1
        if let d = o.departureDelay { departures.add(seconds: d) }
        if let a = o.arrivalDelay { arrivals.add(seconds: a) }
    }
}
