import Foundation
import OnwardCore
import Timetable
import TransitSources

extension GTFSNetworkSource {
    /// Journeys on the timetable, with the realtime overlay when a realtime source is configured.
    public func plan(_ request: SourceJourneyRequest) async throws(SourceError) -> SourceJourneys {
        let state = store.current
        let tt = state.timetable
        let from = try stop(request.from, in: tt), to = try stop(request.to, in: tt)
        guard from != to else {
            return SourceJourneys(from: tt.place(from), to: tt.place(to), journeys: [], live: state.live(now: request.now),
                                  emptyReason: "The origin and the destination are the same place.")
        }
        var query = JourneyPlanner.Request(from: from, to: to, time: request.at ?? request.now)
        query.arriveBy = request.arriveBy
        query.window = request.windowMinutes * 60
        query.limit = request.limit
        query.maxWalk = Double(min(request.maxWalkMetres, Int(JourneyPlanner.maxWalk)))
        query.transferSlack = request.transferSlackSeconds
        query.maxTransfers = request.maxTransfers
        query.wheelchair = request.wheelchair
        let planner = state.served.planner, plan = query, live = state.hasRealtime && !request.timetableOnly
        var journeys = await PlanningPool.shared.run {
            planner.journeys(plan, overlay: live ? state.realtime.overlay : .empty, live: live)
        }
        state.addUsualArrivals(to: &journeys)
        var answer = SourceJourneys(from: tt.place(from), to: tt.place(to), journeys: journeys, live: state.live(now: request.now))
        if journeys.isEmpty { answer.emptyReason = emptyReason(request, from: from, in: tt) }
        return answer
    }

    /// Why no journey was found: outside the timetable's dates, else no connection in time.
    private func emptyReason(_ request: SourceJourneyRequest, from: StopIndex, in tt: Timetable) -> String {
        let zone = TimeZone.named(tt.timeZoneIdentifier(of: from))
        if let outside = Self.outsideCalendar(request.at ?? request.now, in: zone, tt) { return outside }
        return request.arriveBy
            ? "No journey arrives by then with at most \(request.maxTransfers) changes."
            : "No journey leaves in that time with at most \(request.maxTransfers) changes."
    }
}
