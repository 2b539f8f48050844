import Foundation
import OnwardCore
import Storage
import Testing

/// What every `DelayHistoryRepository` must do, run against each driver. Each check gets a new, empty repository.
public enum DelayHistoryRepositoryContract {
    public typealias Check = ContractCheck<any DelayHistoryRepository>

    static let monday = ServiceDate(year: 2025, month: 11, day: 3)!

    static func word(_ trip: String, call: Int, on date: ServiceDate = monday, route: String = "halifax:1", stop: String = "halifax:S1",
                     hour: Int = 8, departure: Int? = 180, arrival: Int? = 120, cancelled: Bool = false, at: Int64 = 1_000,
                     source: String = "halifax-rt") -> DelayObservation {
        DelayObservation(source: source, tripID: trip, serviceDate: date, call: call, routeID: route, stopID: stop,
                         hourOfWeek: HourOfWeek(weekday: date.weekdayIndex, hour: hour), departureDelay: departure, arrivalDelay: arrival,
                         cancelled: cancelled, observedAt: Instant(epochSeconds: at))
    }

    public static let checks: [Check] = [
        Check(name: "the latest word on a call wins; an older one is dropped; words read back exactly, by source, trip and call") { repo async throws in
            #expect(try await repo.lastFoldedDate() == nil)
            let first = word("T1", call: 3, departure: 60, arrival: nil, at: 1_000)
            try await repo.record([first, word("T1", call: 2, departure: -45, arrival: -30, at: 1_000)])
            let later = word("T1", call: 3, departure: 410, arrival: 400, at: 1_030)
            try await repo.record([later])
            try await repo.record([word("T1", call: 3, departure: 9, arrival: 9, at: 1_010)])    // an old fetch arriving late
            let other = word("T1", call: 3, departure: nil, arrival: nil, cancelled: true, at: 900, source: "other-rt")
            try await repo.record([other, word("T9", call: 0, on: monday.adding(days: 1))])
            let kept = try await repo.observations(on: monday)
            #expect(kept == [word("T1", call: 2, departure: -45, arrival: -30, at: 1_000), later, other])
            #expect(try await repo.observations(on: monday.adding(days: 1)).map(\.tripID) == ["T9"])
        },
        Check(name: "folding a day gives the aggregates of DelayAggregate.fold, once; a late word folds the day again") { repo async throws in
            var words: [DelayObservation] = []
            for (i, minutes) in [0, 2, 3, 3, 5, 12].enumerated() {
                words.append(word("T\(i)", call: 4, departure: minutes * 60 + 10, arrival: minutes * 60 - 20))
            }
            words.append(word("T6", call: 4, departure: nil, arrival: nil, cancelled: true))
            words.append(word("T0", call: 5, stop: "halifax:S2", hour: 9, departure: 75, arrival: nil))
            words.append(word("T0", call: 5, on: monday.adding(days: 1), departure: -120, arrival: -120))
            try await repo.record(words)
            #expect(try await repo.fold(through: monday) == [monday])
            #expect(try await repo.fold(through: monday).isEmpty)
            let all = monday...monday.adding(days: 7)
            let folded = try await repo.aggregates(all, routeID: nil, stopID: nil)
            #expect(folded == DelayAggregate.fold(words.filter { $0.serviceDate == monday }))
            #expect(folded.first?.observed == 6 && folded.first?.cancelled == 1 && folded.first?.departures.percentile(0.5) == 3)
            #expect(try await repo.size() == DelayHistorySize(observations: 9, aggregates: 2, unfoldedDates: 1))
            #expect(try await repo.lastFoldedDate() == monday)
            let late = word("T7", call: 4, departure: 600, arrival: 600, at: 2_000)
            try await repo.record([late])
            #expect(try await repo.fold(through: monday.adding(days: 1)) == [monday, monday.adding(days: 1)])
            let refolded = try await repo.aggregates(monday...monday, routeID: "halifax:1", stopID: "halifax:S1")
            #expect(refolded == DelayAggregate.fold((words + [late]).filter { $0.serviceDate == monday && $0.stopID == "halifax:S1" }))
        },
        Check(name: "aggregates are read by date range, route and stop") { repo async throws in
            try await repo.record([word("A", call: 1, route: "r:1", stop: "s:1"), word("B", call: 1, route: "r:2", stop: "s:1"),
                                   word("C", call: 1, on: monday.adding(days: 2), route: "r:1", stop: "s:2")])
            try await repo.fold(through: monday.adding(days: 5))
            #expect(try await repo.aggregates(monday...monday.adding(days: 2), routeID: "r:1", stopID: nil).map(\.stopID) == ["s:1", "s:2"])
            #expect(try await repo.aggregates(monday...monday.adding(days: 2), routeID: nil, stopID: "s:1").map(\.routeID) == ["r:1", "r:2"])
            #expect(try await repo.aggregates(monday.adding(days: 1)...monday.adding(days: 2), routeID: nil, stopID: nil).map(\.routeID) == ["r:1"])
            #expect(try await repo.aggregates(monday...monday, routeID: "r:1", stopID: "s:2").isEmpty)
        },
        Check(name: "raw words go after their days, the aggregates stay until dropped themselves") { repo async throws in
            try await repo.record([word("A", call: 1), word("B", call: 1, on: monday.adding(days: 3))])
            try await repo.fold(through: monday.adding(days: 3))
            #expect(try await repo.pruneRaw(before: monday.adding(days: 1)) == 1)
            #expect(try await repo.observations(on: monday).isEmpty)
            #expect(try await repo.aggregates(monday...monday, routeID: nil, stopID: nil).count == 1)
            #expect(try await repo.pruneAggregates(before: monday.adding(days: 1)) == 1)
            #expect(try await repo.aggregates(monday...monday.adding(days: 3), routeID: nil, stopID: nil).map(\.serviceDate) == [monday.adding(days: 3)])
            #expect(try await repo.size() == DelayHistorySize(observations: 1, aggregates: 1, unfoldedDates: 0))
        },
    ]
}
