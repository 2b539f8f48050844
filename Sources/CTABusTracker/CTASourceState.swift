import OnwardCore

/// What `CTABusTrackerSource` remembers between calls: what the bus tracker has told it
/// about stops and routes (the adapter knows nothing offline), and how its last requests went.
struct CTASourceState: Sendable {
    /// Stops seen in `getstops` answers: the IDs the adapter recognises, and places with coordinates.
    var stops: [String: CTAStop] = [:]
    /// Stop names seen in predictions (`stpnm`), for stops no `getstops` answer has listed.
    var stopNames: [String: String] = [:]
    /// Routes seen in a `getroutes` answer, for names and colours on board rows.
    var routes: [String: CTARoute] = [:]
    /// Set when the bus tracker said the key's transactions for the day are spent: no
    /// request is sent before then (the bus tracker counts by its own, Chicago, day).
    var dailyLimitUntil: Instant?

    var lastSuccess: Instant?
    var lastFailure: Failure?
    /// Requests left in the adapter's own daily allowance, as of the last request.
    var budgetRemaining: Int?

    struct Failure: Sendable {
        var at: Instant
        var error: SourceError
    }

    /// Whether the most recent request failed.
    var isFailing: Bool {
        guard let lastFailure else { return false }
        return lastSuccess.map { lastFailure.at >= $0 } ?? true
    }

    mutating func remember(_ stops: [CTAStop]) {
        for stop in stops { self.stops[stop.id] = stop }
    }

    mutating func remember(_ predictions: [CTAPrediction]) {
        for p in predictions where !p.stopName.isEmpty { stopNames[p.stopID] = p.stopName }
    }

    /// The name of a stop, from `getstops` first (it is the list the bus tracker maintains).
    func stopName(_ id: String) -> String? { stops[id]?.name ?? stopNames[id] }
}
