import API
import Commute
import Foundation
import Logging
import OnwardCore
import ServiceLifecycle
import Storage
import Synchronization
import Transit
import TransitSources

/// Watched journeys: a person's "my 07:40 to work, on weekdays". Every `checkSeconds`, each watch whose
/// window is open (its lead time before the departure, until the train has left) is checked against the live
/// data; what changed since its person was last told is stored, then sent once, with the best alternative,
/// by Web Push (and Telegram) and to their live clients. Watches of one option (one origin, destination and
/// departure) are checked together: one look at the live data and one search for an alternative serve them
/// all, so a cancellation reaches 10,000 watchers for the cost of one.
public final class WatchService: Service, Sendable {
    let repository: any WatchRepository
    let sources: SourceRegistry
    /// How a person is reached outside the app (their stored push subscription, their Telegram chat).
    let notifier: TripNotifier?
    public let now: @Sendable () -> Instant
    let logger: Logger
    /// Each person's live clients hear their watches' notices; a slow client keeps the last 16.
    public let notices = LiveHub<String, WatchNoticeDTO>(keep: 16)
    /// Whether this server checks the watches: alone, always; among servers on one database, the leader only.
    let ticking = Atomic<Bool>(true)
    /// The option each departure watched was found to be (by the timetable), kept while it is watched.
    let options = Mutex<[OptionKey: Journey?]>([:])

    /// How often the watches are checked.
    let checkSeconds: Int
    /// How long after its timetabled departure a late train is still watched.
    static let graceSeconds: Int64 = 3_600
    /// How many notices a watch keeps for its page.
    static let keptNotices = 10

    public init(repository: any WatchRepository, sources: SourceRegistry, notifier: TripNotifier?, checkSeconds: Int = 30,
                now: @escaping @Sendable () -> Instant = { .now() }, logger: Logger = Logger(label: "onward.watch")) {
        self.repository = repository; self.sources = sources; self.notifier = notifier; self.checkSeconds = checkSeconds
        self.now = now; self.logger = logger
    }

    /// What the server keeps of a watch: the watch, the day being watched and what its person was told of it.
    struct State: Codable, Hashable {
        var watch: JourneyWatch
        /// The day of the departure `told` is about: a new day starts with nothing told.
        var day: ServiceDate?
        var told: WatchFindings?
        var notices: [WatchNotice] = []
    }

    /// One departure of one journey: the watches that share it are checked together.
    struct OptionKey: Hashable {
        var from: String
        var to: String
        var departure: Instant
    }

    // MARK: A person's watches

    /// Starts watching the option `request` names for `owner`, by its timetabled or its live departure (as a journey
    /// answer shows it): the option must be in the timetable on that date (so a typo is refused now, not silent
    /// every morning).
    public func create(owner: String, _ request: WatchRequestDTO) async throws -> WatchDTO {
        guard let departure = Instant(iso8601: request.departure) else {
            throw ServiceError.invalid("departure '\(request.departure)' is not an ISO 8601 time with its offset", "departure")
        }
        var days: [Int] = []
        for name in request.days ?? [] {
            guard let day = JourneyWatch.dayNames.firstIndex(of: name) else {
                throw ServiceError.invalid("days: '\(name)' is not one of \(JourneyWatch.dayNames.joined(separator: ", "))", "days")
            }
            if !days.contains(day) { days.append(day) }
        }
        let queries = Queries(sources, now: now())
        var query = Queries.JourneyQuery(from: try await queries.stopID(request.from, parameter: "from"),
                                         to: try await queries.stopID(request.to, parameter: "to"), at: departure)
        query.limit = 1
        // The departure a journey answer shows is live: a late option is found live, and watched at its timetabled time.
        if let live = try await queries.journeys(query).journeys.journeys.first, live.departure == departure, let ride = live.rides.first {
            query.at = departure.adding(seconds: -((ride.expectedDeparture ?? ride.departure).epochSeconds - ride.departure.epochSeconds))
        }
        query.timetableOnly = true
        let answer = try await queries.journeys(query).journeys
        let zone = TimeZone.named(answer.from.timeZone)
        let local = LocalTime(departure, in: zone)
        guard let option = answer.journeys.first, option.departure == query.at else {
            throw ServiceError(.journeyNotFound, "No journey from \(answer.from.name) to \(answer.to.name) leaves at \(local.hhmm) on \(local.date).",
                               parameter: "departure")
        }
        let watch = JourneyWatch(from: answer.from.id, to: answer.to.id, fromName: answer.from.name, toName: answer.to.name,
                                 departureSeconds: LocalTime(option.departure, in: zone).secondsOfDay, timeZone: answer.from.timeZone, days: days.sorted(),
                                 date: days.isEmpty ? LocalTime(option.departure, in: zone).date : nil,
                                 leadMinutes: request.leadMinutes ?? JourneyWatch.defaultLeadMinutes,
                                 thresholdMinutes: request.thresholdMinutes ?? JourneyWatch.defaultThresholdMinutes,
                                 name: request.name ?? "")
        if let (message, field) = watch.problem() { throw ServiceError.invalid(message, field) }
        let id = "w" + Secrets.token().prefix(16)
        guard try await repository.save(WatchRecord(id: id, owner: owner, state: try StoredState.encode(State(watch: watch)))) else {
            throw StorageError(.conflict, "a new watch's ID was taken; watch it again")
        }
        logger.info("journey watched", metadata: ["days": .stringConvertible(days.count)])
        return WatchDTO(id: id, watch: watch, notices: [], now: now())
    }

    /// A person's watches, by ID.
    public func list(owner: String) async throws -> [WatchDTO] {
        let real = now()
        return try await repository.watches(owner: owner).compactMap { r in
            (try? Self.state(r)).map { WatchDTO(id: r.id, watch: $0.watch, notices: $0.notices, now: real) }
        }
    }

    /// Stops watching; `watchNotFound` for an ID that is not one of the person's (whether or not it is someone else's).
    public func remove(owner: String, id: String) async throws {
        guard try await repository.remove(id: id, owner: owner) else { throw ServiceError(.watchNotFound, "You watch no journey with this ID.") }
    }

    static func state(_ record: WatchRecord) throws -> State { try StoredState.decode(State.self, from: record.state, place: "watch \(record.id)") }

    // MARK: Checking

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if self.ticking.load(ordering: .relaxed) { _ = await self.check() }
                try? await Task.sleep(for: .seconds(self.checkSeconds))
            }
        }
    }

    /// Among servers on one database, only the leader checks (`lead`), so no notice is sent twice.
    public func shareChecks() { ticking.store(false, ordering: .relaxed) }

    /// Checks while the caller holds the leadership.
    public func lead() async {
        ticking.store(true, ordering: .relaxed)
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
        ticking.store(false, ordering: .relaxed)
    }

    /// One round of checks as of now: every watch whose window is open, option by option. Returns the notices
    /// sent. What is said is stored first: a notice whose save failed is not sent (it is found again next round).
    @discardableResult
    public func check() async -> [(owner: String, notice: WatchNoticeDTO)] {
        let real = now()
        let records: [WatchRecord]
        do { records = try await repository.all() } catch {
            logger.warning("the watched journeys could not be read", metadata: ["error": .string("\(error)")])
            return []
        }
        var groups: [OptionKey: [(WatchRecord, State, ServiceDate)]] = [:]
        for record in records {
            guard let state = try? Self.state(record), let (date, departure) = state.watch.watched(at: real, graceSeconds: Self.graceSeconds) else { continue }
            groups[OptionKey(from: state.watch.from, to: state.watch.to, departure: departure), default: []].append((record, state, date))
        }
        forgetOptions(except: Set(groups.keys))
        var changed: [(WatchRecord, WatchNoticeDTO, JourneyWatch)] = []
        for (key, members) in groups.sorted(by: { $0.key.departure < $1.key.departure }) {
            changed += await check(key, members, at: real)
        }
        guard !changed.isEmpty else { return [] }
        do { try await repository.update(changed.map(\.0)) } catch {
            logger.warning("watch notices could not be saved, so were not sent", metadata: ["error": .string("\(error)")])
            return []
        }
        for (record, notice, watch) in changed { await deliver(notice, of: watch, to: record.owner) }
        logger.info("watch notices sent", metadata: ["count": .stringConvertible(changed.count)])
        return changed.map { ($0.0.owner, $0.1) }
    }

    /// Checks the watches of one option: their new records and notices, for those that have news.
    private func check(_ key: OptionKey, _ members: [(WatchRecord, State, ServiceDate)], at real: Instant)
        async -> [(WatchRecord, WatchNoticeDTO, JourneyWatch)] {
        let queries = Queries(sources, now: real)
        let findings: WatchFindings
        let option = await self.option(key)
        if let option {
            let live = await queries.refreshed(option)
            // Once the train has left, there is nothing left to warn of.
            guard live.departure.adding(seconds: 60) >= real else { return [] }
            findings = WatchFindings(option: option, live: live)
        } else {
            // Not in the day's timetable (a calendar exception, a new timetable): as good as cancelled.
            guard key.departure >= real else { return [] }
            findings = .notRunning(at: key.departure)
        }
        var alternative: WatchNotice.Alternative??
        var out: [(WatchRecord, WatchNoticeDTO, JourneyWatch)] = []
        for (record, var state, date) in members {
            if state.day != date { state.day = date; state.told = nil }
            guard let kind = findings.news(since: state.told, thresholdMinutes: state.watch.thresholdMinutes) else { continue }
            if alternative == nil {
                alternative = WatchNotice.wantsAlternative(kind) ? .some(await self.alternative(key, option: option, at: real)) : nil
            }
            let zone = TimeZone.named(state.watch.timeZone)
            let notice = WatchNotice(kind: kind, at: real, departure: key.departure, findings: findings, alternative: alternative ?? nil,
                                     destination: state.watch.toName, zone: zone)
            state.told = findings
            state.notices = Array((state.notices + [notice]).suffix(Self.keptNotices))
            guard let data = try? StoredState.encode(state) else { continue }
            out.append((WatchRecord(id: record.id, owner: record.owner, state: data), WatchNoticeDTO(notice, zone: zone), state.watch))
        }
        return out
    }

    /// The option watched, as the timetable has it: the first journey leaving exactly at the departure. Found
    /// once and kept while it is watched; nil when the day's timetable has no such journey.
    private func option(_ key: OptionKey) async -> Journey? {
        if let kept = options.withLock({ $0[key] }) { return kept }
        var query = Queries.JourneyQuery(from: key.from, to: key.to, at: key.departure)
        query.timetableOnly = true
        query.limit = 1
        let found: Journey?
        do {
            found = try await Queries(sources, now: now()).journeys(query).journeys.journeys.first { $0.departure == key.departure }
        } catch {
            // A source that cannot plan now is asked again next round, not taken for a cancellation.
            logger.warning("a watched journey could not be planned", metadata: ["error": .string("\(error)")])
            return nil
        }
        options.withLock { $0[key] = found }
        return found
    }

    private func forgetOptions(except kept: Set<OptionKey>) {
        options.withLock { $0 = $0.filter { kept.contains($0.key) } }
    }

    /// The best other way with the live data, leaving at or after the watched departure: the traveller planned to
    /// set out for it, and may not make an earlier one.
    private func alternative(_ key: OptionKey, option: Journey?, at real: Instant) async -> WatchNotice.Alternative? {
        var query = Queries.JourneyQuery(from: key.from, to: key.to, at: max(real, key.departure))
        query.windowMinutes = 40
        query.limit = 6
        guard let found = try? await Queries(sources, now: real).journeys(query).journeys.journeys else { return nil }
        return WatchNotice.Alternative.best(of: found, besides: option)
    }

    /// Tells the owner: their live clients, then (queued) push and Telegram. The push opens the journey's page,
    /// where the other ways are.
    private func deliver(_ notice: WatchNoticeDTO, of watch: JourneyWatch, to owner: String) async {
        notices.publish(notice, to: owner)
        var page = URLComponents()
        page.path = "/journeys"
        page.queryItems = [URLQueryItem(name: "from", value: watch.from), URLQueryItem(name: "to", value: watch.to)]
        // `:` is allowed in a query, but the pages' own links escape it; so does this one.
        let url = (page.string ?? "/journeys").replacingOccurrences(of: ":", with: "%3A")
        await notifier?.tell(person: owner, title: "Onward", body: notice.message, url: url)
    }
}
