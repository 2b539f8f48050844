import OnwardCore

/// Keeps what live sources said of calls, raw for a few days and folded per day into `DelayAggregate`s (by
/// `DelayAggregate.fold`, the one rule) for as long as history is wanted. Drivers throw `StorageError`.
public protocol DelayHistoryRepository: Sendable {
    /// Stores observations: for each call (source, trip, service date, call) the latest word wins, an older one is
    /// dropped. The call's service date becomes unfolded again, so a late word is folded in too.
    func record(_ observations: [DelayObservation]) async throws
    /// Folds every unfolded service date up to `through` into aggregates (replacing the date's), returns the dates folded.
    @discardableResult func fold(through: ServiceDate) async throws -> [ServiceDate]
    /// Drops raw observations of service dates before `before` (their aggregates stay); returns how many went.
    @discardableResult func pruneRaw(before: ServiceDate) async throws -> Int
    /// Drops aggregates of service dates before `before`; returns how many went.
    @discardableResult func pruneAggregates(before: ServiceDate) async throws -> Int
    /// Aggregates of dates in `dates`, of one route and/or stop when given, in `DelayAggregate.fold`'s order.
    func aggregates(_ dates: ClosedRange<ServiceDate>, routeID: String?, stopID: String?) async throws -> [DelayAggregate]
    /// The raw observations of one service date, by source, trip and call.
    func observations(on date: ServiceDate) async throws -> [DelayObservation]
    /// The latest service date with aggregates, or nil when there are none.
    func lastFoldedDate() async throws -> ServiceDate?
    /// How many rows it keeps.
    func size() async throws -> DelayHistorySize
}

/// Rows kept, for the history's figures and `onward history`.
public struct DelayHistorySize: Sendable, Hashable {
    public var observations: Int
    public var aggregates: Int
    public var unfoldedDates: Int

    public init(observations: Int, aggregates: Int, unfoldedDates: Int) {
        self.observations = observations; self.aggregates = aggregates; self.unfoldedDates = unfoldedDates
    }
}

extension DelayObservation {
    /// The order drivers return raw observations in.
    public static func stored(_ a: DelayObservation, _ b: DelayObservation) -> Bool {
        (a.source, a.tripID, a.call) < (b.source, b.tripID, b.call)
    }

    /// Whether this word on a call replaces `kept`: a later one does, an earlier one does not.
    public func replaces(_ kept: DelayObservation) -> Bool { observedAt >= kept.observedAt }
}
