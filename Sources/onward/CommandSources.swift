import App
import Foundation
import OnwardCore
import Synchronization
import Transit

/// The sources a command answers from, as `onward serve` would configure them: the GTFS
/// network (`--feed`, its `--realtime` feeds, `--simulate`) and the upstream sources, all
/// in one registry, so a command asks the same query layer the server does.
final class CommandSources: Sendable {
    let registry: SourceRegistry
    let network: GTFSNetwork?
    /// The moment live data is read "as of": now, or the date and time a command was given.
    private let asOf = AsOf()

    /// Opens the sources. The GTFS network is loaded unless `id` names an upstream source
    /// (`national-rail:YRK`), whose answer does not need it.
    init(feeds: FeedOptions, live: RealtimeOptions?, sources: SourceOptions, for id: String? = nil, identifying: Bool = false) async throws {
        let upstream = try await sources.registry()
        if let id, upstream.owns(id) {
            registry = upstream
            network = nil
            return
        }
        if let id { try sources.explainUnconfigured(id) }
        let loaded = try feeds.load(identifying: identifying)
        let options = GTFSNetwork.Options(realtime: live?.realtime ?? [], simulate: live?.simulate ?? false, maxAge: live?.maxAge ?? 120)
        let opened: GTFSNetwork
        let asOf = self.asOf
        do {
            opened = try GTFSNetwork.open(loaded, options: options, fetcher: Fetchers.live(), now: { asOf.moment.withLock { $0 } })
        } catch { throw CLIError(error.description) }
        network = opened
        registry = SourceRegistry([opened.source] + upstream.sources)
        // The delay history the server keeps here, so a board says how late each row usually is, as the server's does.
        await HistoryKeeping.serveBook(try await sources.settings(), to: opened, today: ServiceDate(dayNumber: Int32(Instant.now().epochSeconds / 86_400)))
    }

    /// Reads the live data once, as of `moment`; a feed that fails is reported on standard
    /// error and shown as unavailable, never fatal.
    func readLive(asOf moment: Instant) async {
        asOf.moment.withLock { $0 = moment }
        guard let network else { return }
        for (name, error) in await network.readOnce(now: moment) {
            FileHandle.standardError.write(Data((Terminal.stderr.yellow("live data unavailable: ") + "\(name): \(error.message)\n").utf8))
        }
    }

    /// The recorded realtime feeds (`--realtime FILE…`) as a replay in time order: those made by `start` are
    /// applied now, as of their moments; the later ones are returned, each to apply at its moment. Nil when a
    /// feed is a URL (it is then read once, as of `start`).
    func replayLive(from start: Instant) async throws -> [(at: Instant, apply: @Sendable () async -> Void)]? {
        guard let network, RealtimeReplay.isRecorded(network) else { return nil }
        let replay: RealtimeReplay
        do { replay = try RealtimeReplay(network) } catch { throw CLIError(error.description) }
        let asOf = self.asOf
        let steps = replay.captures.map { capture in
            (at: capture.at, apply: { @Sendable () async -> Void in
                asOf.moment.withLock { $0 = capture.at }
                await replay.apply(capture)
            })
        }
        for step in steps where step.at <= start { await step.apply() }
        asOf.moment.withLock { $0 = start }
        return steps.filter { $0.at > start }
    }

    /// Sets the moment live data is read as of (a replay moves it capture by capture).
    func setMoment(_ moment: Instant) { asOf.moment.withLock { $0 = moment } }

    /// The query layer as of `now`.
    func queries(now: Instant = .now()) -> Queries { Queries(registry, now: now) }
}

/// The "now" a command's live data is read at, set once the stop's zone is known.
final class AsOf: Sendable {
    let moment = Mutex(Instant.now())
}

extension QueryError {
    /// The query layer's message, as the CLI prints it: a parameter's API name is the option's name
    /// (`maxWalk must be …` is `--max-walk must be …`), and a name that matches no stop says how to search.
    var cli: CLIError {
        var text = message
        if let parameter, let option = Self.options[parameter], text.hasPrefix(parameter + " ") || text.hasPrefix(parameter + " '") {
            text = option + text.dropFirst(parameter.count)
        }
        if code == .stopNotFound && candidates.isEmpty && text.hasPrefix("no stop") { text += " with `onward stops --search TEXT`" }
        return CLIError(text)
    }

    /// The API's parameter names as the CLI's options.
    private static let options = ["date": "--date", "time": "--time", "at": "--at", "window": "--window", "limit": "--limit",
                                  "maxWalk": "--max-walk", "transferSlack": "--transfer-slack", "maxTransfers": "--max-transfers",
                                  "arriveBy": "--arrive-by", "to": "--to", "from": "--from", "q": "--search", "radius": "--radius",
                                  "lat": "--near's latitude", "lon": "--near's longitude"]
}

extension Error {
    /// Any error as the CLI prints it: the query layer's in its words, a CLI error as it is.
    var cli: any Error { (self as? QueryError)?.cli ?? self }
}
