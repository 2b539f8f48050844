import ArgumentParser
import Foundation
import OnwardCore
import Transit

/// The journey planner's options, for `plan` and `commute`: the API's `planJourney` parameters under
/// their CLI names, read by the query layer (`Queries.journeyQuery`), with its defaults and limits.
struct PlanOptions: ParsableArguments {
    private static let defaults = Queries.JourneyQuery.defaults

    @OptionGroup var when: TimeOptions

    @Flag(help: "Arrive by --time rather than leave at it.")
    var arriveBy = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Every option leaving in the next MINUTES minutes (without it: the options of the first departure).", valueName: "MINUTES"))
    var window: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("At most N journeys (default: \(defaults.limit); with --window, every option in the window).", valueName: "N"))
    var limit: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The longest walk between stops, in metres (default: \(defaults.maxWalkMetres); 0: only the feed's transfers).",
                               valueName: "METRES"))
    var maxWalk: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The least time for a change, in seconds (default: \(defaults.transferSlackSeconds)).",
                                                        valueName: "SECONDS"))
    var transferSlack: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("At most N changes (default: \(defaults.maxTransfers)).", valueName: "N"))
    var maxTransfers: Int?

    @Flag(help: "Only trips and stops the feed says are wheelchair accessible.")
    var wheelchair = false

    @Flag(help: "Prefer less crowded: options by arrival, and of those arriving together the less crowded first (live occupancy).")
    var lessCrowded = false

    @Flag(help: "Prefer reliable: journeys whose changes hold four days in five by the delay history first.")
    var reliable = false

    func validate() throws {
        if arriveBy && when.time == nil { throw ValidationError("--arrive-by needs --time.") }
    }

    /// The journey these options ask for from `from` to `to` (IDs or names), read as the API reads a
    /// request; `at` (a moment already known, as when planning again) stands for --date and --time.
    func query(from: String, to: String, at: Instant? = nil, queries: Queries) async throws -> Queries.JourneyQuery {
        var options: [String: String?] = ["from": from, "to": to, "arriveBy": arriveBy ? "true" : nil, "window": window.map(String.init),
                                          "limit": limit.map(String.init), "maxWalk": maxWalk.map(String.init),
                                          "transferSlack": transferSlack.map(String.init), "maxTransfers": maxTransfers.map(String.init),
                                          "wheelchair": wheelchair ? "true" : nil, "lessCrowded": lessCrowded ? "true" : nil,
                                          "reliable": reliable ? "true" : nil]
        if let at { options["at"] = at.description } else { options.merge(when.parameters) { $1 } }
        do { return try await queries.journeyQuery(try RequestParameters(options: options)) } catch { throw error.cli }
    }
}
