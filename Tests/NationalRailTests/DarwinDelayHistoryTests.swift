import Foundation
import NationalRail
import OnwardCore
import Synchronization
import Testing
import TransitSources

/// National Rail's boards in the delay history (issue 27, item 1): what Darwin said of each train at the station goes
/// to the history once per answer, and a board shows how late each operator's trains usually are there at that hour.
@Suite(.enabled(if: DarwinFixtures.available, DarwinFixtures.skipMessage))
struct DarwinDelayHistoryTests {
    static let now = "2025-02-14T16:52:27Z"

    func source(_ fake: FakeDarwin) -> NationalRailSource {
        let instant = DarwinFixtures.utc(Self.now)
        return NationalRailSource(token: NationalRailSourceTests.token, endpoint: NationalRailSourceTests.endpoint, fetcher: fake, now: { instant })
    }

    @Test("East Croydon's board at 16:52 on a Friday, as the recording says it, recorded once however often it is asked")
    func recordsWhatTheBoardSaid() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:GetDepBoardWithDetailsRequest>", "<ldb:crs>ECR</ldb:crs>"], file: "departure-board-with-details.xml")
        let s = source(fake)
        let heard = Mutex<[[DelayObservation]]>([])
        s.observeDelays { batch in heard.withLock { $0.append(batch) } }
        for _ in 0..<3 { _ = try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", now: DarwinFixtures.utc(Self.now))) }
        let batches = heard.withLock { $0 }
        #expect(batches.count == 1)
        let observed = try #require(batches.first)
        // The recording's rows: scheduled (std) and expected (etd) departures, "On time", and one cancelled.
        let rows: [(String, String, Int?, Bool)] = [
            ("4125791ECROYDN_", "SN", 540, false), ("4121937ECROYDN_", "TL", 420, false), ("4124105ECROYDN_", "TL", 480, false),
            ("4124090ECROYDN_", "TL", 420, false), ("4130119ECROYDN_", "SN", 0, false), ("4123688ECROYDN_", "SN", 0, false),
            ("4126693ECROYDN_", "SN", 0, false), ("4126968ECROYDN_", "SN", 0, false), ("4123430ECROYDN_", "SN", 660, false),
            ("4123777ECROYDN_", "TL", nil, true),
        ]
        #expect(observed.map(\.tripID) == rows.map { "national-rail:" + $0.0 })
        #expect(observed.map(\.routeID) == rows.map { "national-rail:" + $0.1 })
        #expect(observed.map(\.departureDelay) == rows.map(\.2))
        #expect(observed.map(\.cancelled) == rows.map(\.3))
        #expect(observed.allSatisfy { $0.stopID == "national-rail:ECR" && $0.call == 2773 && $0.arrivalDelay == nil })
        #expect(observed.allSatisfy { $0.serviceDate == ServiceDate(year: 2025, month: 2, day: 14) && $0.hourOfWeek == HourOfWeek(weekday: 4, hour: 16) })
        #expect(observed.allSatisfy { $0.source == "national-rail" && $0.observedAt == DarwinFixtures.utc("2025-02-14T16:52:27Z") })
    }

    @Test("with a history book, each row says how late its operator's trains usually are at the station at that hour")
    func showsTheUsualDelay() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:GetDepBoardWithDetailsRequest>", "<ldb:crs>ECR</ldb:crs>"], file: "departure-board-with-details.xml")
        let s = source(fake)
        // Four Fridays of Southern (SN) trains at East Croydon at 16:00–17:00, two a day, 3 and 6 minutes late.
        let words = (1...4).flatMap { week in
            [180, 360].enumerated().map { n, delay in
                DelayObservation(source: "national-rail", tripID: "national-rail:T\(week)-\(n)", serviceDate: ServiceDate(year: 2025, month: 2, day: 14)!.adding(days: -7 * week),
                                 call: 2773, routeID: "national-rail:SN", stopID: "national-rail:ECR", hourOfWeek: HourOfWeek(weekday: 4, hour: 16),
                                 departureDelay: delay, arrivalDelay: nil, cancelled: false, observedAt: Instant(epochSeconds: 0))
            }
        }
        s.serve(history: DelayHistoryBook(DelayAggregate.fold(words)))
        let board = try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", now: DarwinFixtures.utc(Self.now)))
        let southern = board.entries.filter { $0.routeID == "national-rail:SN" }, thameslink = board.entries.filter { $0.routeID == "national-rail:TL" }
        #expect(!southern.isEmpty && southern.allSatisfy { $0.usualDelay?.days == 4 && $0.usualDelay?.observed == 8 })
        #expect(thameslink.allSatisfy { $0.usualDelay == nil })
    }
}
