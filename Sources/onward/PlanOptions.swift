import ArgumentParser
import Foundation
import OnwardCore
import Transit

/// The journey planner's options, for `plan` and `commute`, with the API's limits.
struct PlanOptions: ParsableArguments {
    @OptionGroup var when: TimeOptions

    @Flag(help: "Arrive by --time rather than leave at it.")
    var arriveBy = false

    @Option(help: ArgumentHelp("Every option leaving in the next MINUTES minutes (default: those of the first departure).", valueName: "MINUTES"))
    var window: Int = 0

    @Option(help: ArgumentHelp("At most N journeys (default \(Queries.defaultJourneyLimit)).", valueName: "N"))
    var limit: Int = Queries.defaultJourneyLimit

    @Option(help: ArgumentHelp("The longest walk between stops, in metres (default 500; 0: only the feed's transfers).", valueName: "METRES"))
    var maxWalk: Int = 500

    @Option(help: ArgumentHelp("The least time for a change, in seconds (default 60).", valueName: "SECONDS"))
    var transferSlack: Int = 60

    @Option(help: ArgumentHelp("At most N changes (default 5).", valueName: "N"))
    var maxTransfers: Int = 5

    @Flag(help: "Only trips and stops the feed says are wheelchair accessible.")
    var wheelchair = false

    func validate() throws {
        // The API's limits: one query layer, one set of limits.
        func check(_ v: Int, _ r: ClosedRange<Int>, _ name: String, _ unit: String) throws {
            if !r.contains(v) { throw ValidationError("--\(name) must be between \(r.lowerBound) and \(r.upperBound)\(unit).") }
        }
        try check(window, 0...Queries.maxWindowMinutes, "window", " minutes")
        try check(limit, 1...Queries.maxLimit, "limit", "")
        try check(maxWalk, 0...Queries.maxWalkMetres, "max-walk", " metres")
        try check(transferSlack, 0...Queries.maxTransferSlackSeconds, "transfer-slack", " seconds")
        try check(maxTransfers, 0...Queries.maxTransfersAllowed, "max-transfers", "")
        if arriveBy && when.time == nil { throw ValidationError("--arrive-by needs --time.") }
    }

    /// The moment asked for at the origin (nil: now).
    func moment(at origin: StopPlace) throws -> Instant? {
        when.date == nil && when.time == nil ? nil : try when.instant(in: TimeZone(identifier: origin.timeZone) ?? .gmt)
    }

    func query(from: String, to: String, at: Instant?) -> Queries.JourneyQuery {
        var q = Queries.JourneyQuery(from: from, to: to, at: at)
        q.arriveBy = arriveBy
        q.windowMinutes = window
        q.limit = limit
        q.maxWalkMetres = maxWalk
        q.transferSlackSeconds = transferSlack
        q.maxTransfers = maxTransfers
        q.wheelchair = wheelchair
        return q
    }
}

extension Queries {
    /// The two places a journey is asked between, typed by ID or name; what does not match is a CLI error.
    func journeyEnds(_ from: String, _ to: String) async throws -> (StopPlace, StopPlace) {
        do { return (try await matchStop(from), try await matchStop(to)) } catch { throw error.cli }
    }
}
