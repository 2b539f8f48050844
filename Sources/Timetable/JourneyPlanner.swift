import Foundation
import OnwardCore
import Synchronization

/// Plans journeys on a timetable with its realtime overlay: RAPTOR (Delling,
/// Pajor and Werneck, 2012), rounds of rides, giving the Pareto set of arrival
/// time and number of changes; a range query runs it for each departure in a window.
public struct JourneyPlanner: Sendable {
    public let timetable: Timetable
    let index: PlannerIndex
    /// Search labels kept for the next searches (`RaptorLabels.Pool`).
    let labelPool = RaptorLabels.Pool(most: max(Self.cores, 1))

    /// Builds the planner's indices: milliseconds for a city's feed, done once per timetable.
    public init(_ timetable: Timetable) {
        self.timetable = timetable
        index = PlannerIndex(timetable)
    }

    /// Whether any service calls at a stop.
    public func callsAt(_ stop: StopIndex) -> Bool { !index.routeCalls(at: stop.raw).isEmpty }
    /// The memory the planner's own indices take, in bytes.
    public var indexBytes: Int { index.byteSize }

    /// A range query runs on up to this many cores (see `plan`).
    static let maxLanes = 4
    /// The cores this process may run on, asked once (asking Foundation costs 13 µs, a fifth of a one-to-one query on WMATA).
    static let cores = Cores.available

    /// The longest walk a request may ask for, in metres (the planner indexes walks up to it).
    public static let maxWalk: Double = PlannerIndex.maxWalkIndexed

    /// What a traveller asks.
    public struct Request: Sendable {
        /// A stop, or a station (any of its platforms).
        public var from: StopIndex
        public var to: StopIndex
        /// Leave at or after this instant (or, with `arriveBy`, arrive by it).
        public var time: Instant
        public var arriveBy = false
        /// Every option departing within this many seconds of `time` (arriving
        /// within it before `time` with `arriveBy`); 0 gives the options of the first departure.
        public var window = 0
        /// The longest walk between two stops, in metres; 0 allows only transfers.txt moves.
        public var maxWalk: Double = 500
        /// The least time for a change of vehicle, in seconds.
        public var transferSlack = 60
        public var maxTransfers = 5
        /// At most this many journeys.
        public var limit = 5
        /// Walking speed in metres per second (OpenTripPlanner's default).
        public var walkSpeed = Self.defaultWalkSpeed
        /// The planner's index keeps each walk's seconds at this speed.
        public static let defaultWalkSpeed = 1.33
        /// Only trips the feed says are wheelchair accessible, boarded and left only at stops
        /// (or stations) it says are.
        public var wheelchair = false

        public init(from: StopIndex, to: StopIndex, time: Instant) {
            self.from = from; self.to = to; self.time = time
        }
    }

    /// One way from A to B: rides and moves between them, in order.
    public struct Itinerary: Sendable, Hashable {
        public var legs: [Leg]
        public var departure: Instant { legs.first?.departure ?? .init(epochSeconds: 0) }
        public var arrival: Instant { legs.last?.arrival ?? .init(epochSeconds: 0) }
        public var rides: Int { legs.filter(\.isRide).count }
        /// Changes of vehicle: a ride stayed on into is not one.
        public var transfers: Int { max(legs.filter { if case .ride(let r) = $0 { !r.staysSeated } else { false } }.count - 1, 0) }
    }

    public enum Leg: Sendable, Hashable {
        case ride(Ride)
        /// A walk, a change of platform or a transfers.txt move, in whole seconds.
        case move(from: StopIndex, to: StopIndex, seconds: Int, departure: Instant)

        public var isRide: Bool { if case .ride = self { true } else { false } }
        public var departure: Instant {
            switch self {
            case .ride(let r): r.departure
            case .move(_, _, _, let d): d
            }
        }
        public var arrival: Instant {
            switch self {
            case .ride(let r): r.arrival
            case .move(_, _, let s, let d): d.adding(seconds: Int64(s))
            }
        }
    }

    /// A ride on one run of a trip, from one call to a later one.
    public struct Ride: Sendable, Hashable {
        public var instance: TripInstance
        /// Positions of the calls in the trip's pattern.
        public var boardCall: Int
        public var alightCall: Int
        public var from: StopIndex
        public var to: StopIndex
        /// Expected when live data has them, else scheduled.
        public var departure: Instant
        public var arrival: Instant
        public var scheduledDeparture: Instant
        public var scheduledArrival: Instant
        /// Whether `departure` and `arrival` come from live data.
        public var isLive: Bool
        /// The traveller stays on board from the ride before: the vehicle goes on as this trip.
        public var staysSeated = false
        /// For a trip realtime data added: its place in the overlay's `added` (`instance` then means nothing).
        public var addedTrip: Int?

        public init(instance: TripInstance, boardCall: Int, alightCall: Int, from: StopIndex, to: StopIndex, departure: Instant, arrival: Instant,
                    scheduledDeparture: Instant, scheduledArrival: Instant, isLive: Bool, staysSeated: Bool = false, addedTrip: Int? = nil) {
            self.instance = instance; self.boardCall = boardCall; self.alightCall = alightCall; self.from = from; self.to = to
            self.departure = departure; self.arrival = arrival; self.scheduledDeparture = scheduledDeparture; self.scheduledArrival = scheduledArrival
            self.isLive = isLive; self.staysSeated = staysSeated; self.addedTrip = addedTrip
        }
    }
}

extension JourneyPlanner {
    /// The journeys for a request: the Pareto set of arrival and changes for each
    /// departure in the window, without the ones another journey beats (leaving no
    /// earlier, arriving no later, with no more changes), sorted by departure.
    public func plan(_ request: Request, overlay: RealtimeOverlay = .empty) -> [Itinerary] {
        plan(request, overlay: overlay, cores: Self.cores)
    }

    /// `plan` with a range query's departures spread over up to `cores` lanes, and with or without the pruning beyond
    /// RAPTOR's own labels (`pruned`: the lower bound on the time to the destination, `SpeedBound.swift`, the bound within
    /// a round, `RaptorSearch.scanRoutes`, and a range query's bound from its later departures, `RaptorSearch.laterBest`):
    /// the tests check the answers depend on neither.
    func plan(_ request: Request, overlay: RealtimeOverlay, cores: Int, pruned: Bool = true) -> [Itinerary] {
        let t = request.time.epochSeconds
        // Arriving by `time`: every departure in the window before it (two hours at least), keeping what arrives in time.
        let start = request.arriveBy ? t - Int64(max(request.window, 7_200)) : t
        let length = request.arriveBy ? t - start : Int64(max(request.window, 0))
        var search = RaptorSearch(self, request, overlay: overlay, from: start, to: start + length, pruned: pruned)
        defer { labelPool.give(search.labels) }
        let departures = departureTimes(&search, from: start, within: length)
        var journeys: [Itinerary] = []
        let lanes = min(cores, Self.maxLanes, departures.count / 2)
        if lanes < 2 {
            for i in departures.indices { journeys += search.journeys(departure: i, of: departures) }
        } else {
            // A range query on every core: each lane runs the rounds for one block of the departures, latest first, with
            // labels of its own. A lane's journey that a later lane's departure beats is dropped below, as it would have
            // been by the labels of one search (each lane's answers include the ones one search gives). Blocks, not every
            // other departure: a search's work is how far its labels move over its departures, and lanes taking turns
            // would each move them over the whole window (on Halifax, 1.7 times the work of one search).
            // Kept by departure, in the order one search would have found them (which of two equal journeys is kept).
            let found = Mutex([[Itinerary]](repeating: [], count: departures.count))
            DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                var own = RaptorSearch(self, request, overlay: overlay, from: start, to: start + length, pruned: pruned)
                defer { labelPool.give(own.labels) }
                for i in (lane * departures.count / lanes)..<((lane + 1) * departures.count / lanes) {
                    let mine = own.journeys(departure: i, of: departures)
                    found.withLock { $0[i] = mine }
                }
            }
            journeys = found.withLock { $0.flatMap { $0 } }
        }
        if request.arriveBy { journeys.removeAll { $0.arrival.epochSeconds > t } }
        var kept: [Itinerary] = []
        for j in journeys where !journeys.contains(where: { $0.beats(j) }) && !kept.contains(where: { $0.ties(j) }) { kept.append(j) }
        kept.sort { ($0.departure, $0.arrival, $0.transfers) < ($1.departure, $1.arrival, $1.transfers) }
        if request.arriveBy { return Array(kept.suffix(request.limit)) }
        return Array(kept.prefix(request.limit))
    }

    /// Whether a journey the search of `departures[i]` found is listed. A range query's answer is what the search of
    /// each of its departures gives, less what a journey leaving no earlier beats. A journey leaving after the latest
    /// departure is listed only from that departure's own search: the searches of earlier ones come upon others (labels
    /// a later departure's search left unset, because they could not beat what it had found, found again from an
    /// earlier start, and taken on to journeys leaving later still), and which of those they come upon depends on how
    /// the searches are bounded (`RaptorSearch.laterBest`) and spread over lanes: the answer must not.
    @inline(__always) static func listed(_ journey: Itinerary, searchedAt i: Int, _ departures: [Int64]) -> Bool {
        i == 0 || journey.departure.epochSeconds <= departures[0]
    }

    /// The instants to run the rounds for, latest first (so each run's labels bound the next):
    /// `from` itself, and every departure within the window from a stop one can board at first.
    private func departureTimes(_ search: inout RaptorSearch, from: Int64, within length: Int64) -> [Int64] {
        guard length > 0 else { return [from] }
        var times: Set<Int64> = [from]
        var firstStops: [(stop: UInt32, offset: Int64)] = search.origins.map { ($0, 0) }
        for o in search.origins {
            RaptorSearch.forEachMove(index, search.request, from: o) { to, s in firstStops.append((to, Int64(s))) }
        }
        for (stop, offset) in firstStops {
            for i in index.routeCalls(at: stop) {
                let r = index.stopRouteCalls[i].route, call = Int(index.stopRouteCalls[i].position)
                let mask = RaptorSearch.days(of: Int(r), &search.routeDays, self, search.days, from: search.t0, overlay: search.overlay)
                var after = from + offset
                while let found = earliestRun(route: Int(r), call: call, after: after, overlay: search.overlay, wheelchair: search.request.wheelchair,
                                              days: search.days, mask: mask),
                      found.departure <= from + offset + length {
                    times.insert(found.departure - offset)
                    after = found.departure + 1
                }
            }
        }
        // Trips realtime data added, leaving a first stop within the window.
        for (stop, offset) in firstStops {
            for (t, k) in search.addedCalls[stop] ?? [] where k < search.overlay.added[t].calls.count - 1 {
                let leaves = search.overlay.added[t].calls[k].departure
                if leaves >= from + offset && leaves <= from + offset + length { times.insert(leaves - offset) }
            }
        }
        return times.sorted(by: >)
    }
}

extension JourneyPlanner.Itinerary {
    /// Leaves no earlier, arrives no later, with no more changes, and is better in one of them.
    func beats(_ other: Self) -> Bool {
        departure >= other.departure && arrival <= other.arrival && transfers <= other.transfers && !ties(other)
    }

    /// The same departure, arrival and number of changes: one of the two is enough.
    func ties(_ other: Self) -> Bool {
        departure == other.departure && arrival == other.arrival && transfers == other.transfers
    }
}
