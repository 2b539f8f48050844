import API
import Foundation
import OnwardCore
import Testing
import WebPages

@Suite("Board page")
struct BoardPageTests {
    let page = BoardPage.render(Fixtures.board(), context: Fixtures.context())

    /// The markup of the row for one trip.
    func row(_ trip: String, in html: String) -> String? {
        let rows = html.components(separatedBy: "<tr ").dropFirst()
        return rows.first { $0.contains("/services/\(trip)?") }.map { "<tr " + ($0.components(separatedBy: "</tr>").first ?? "") }
    }

    @Test func isAFullDocumentInTheReadersLanguageAndTheme() {
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains("<html lang=\"en\" data-theme=\"system\">"))
        #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(page.contains("<title>Departures from Stasiun MRT Blok M BCA · Onward</title>"))
        #expect(page.contains("href=\"/assets/app.css?v=\(Assets.version)\""))
        #expect(page.contains("<script src=\"/assets/app.js?v=\(Assets.version)\" defer></script>"))
        #expect(page.contains("<div id=\"live-status\" class=\"visually-hidden\" role=\"status\" aria-live=\"polite\"></div>"))
        #expect(page.contains("Timetable: MRT Jakarta (CC BY 4.0)"))
        #expect(page.contains("href=\"/stops/SBKM?lang=id\""))
        #expect(page.contains("href=\"/stops/SBKM?theme=dark\""))
    }

    @Test func showsEveryRowAsATableLinkedToItsService() throws {
        #expect(page.contains("<table class=\"board\">"))
        #expect(page.contains("<th scope=\"col\" class=\"col-platform\">Platform</th>"))
        for trip in ["T-ONTIME", "T-LATE", "T-CANCELLED", "T-SKIPPED", "T-PLATFORM"] {
            let r = try #require(row(trip, in: page), "no row for \(trip)")
            #expect(r.contains("href=\"/services/\(trip)?date=2026-11-23\""))
        }
        let caption = try #require(page.range(of: "<caption>"))
        #expect(page[caption.upperBound...].hasPrefix("<span class=\"visually-hidden\">Next departures from Stasiun MRT Blok M BCA</span>"))
    }

    @Test func timesAreTheStopsWallClock() throws {
        let ontime = try #require(row("T-ONTIME", in: page))
        #expect(ontime.contains(">08:03</time>"))
        #expect(ontime.contains("On time"))
        let late = try #require(row("T-LATE", in: page))
        #expect(late.contains(">08:05</time>"))
        #expect(late.contains("class=\"time-expected status-late\""))
        #expect(late.contains(">08:10</time>"))
        #expect(late.contains("Late 5 min"))
        // An on-time service 6 s early shows no second time.
        #expect(!ontime.contains("time-expected"))
    }

    @Test func aLateRowShowsTheExpectedTimeLargeAndTheScheduledStruck() throws {
        let late = try #require(row("T-LATE", in: page))
        // Expected first, as the large time; the scheduled one after it, struck and secondary; both labelled for screen readers.
        #expect(late.contains(#"<span class="visually-hidden">Expected </span><time class="time-expected status-late" datetime="2026-11-23T08:10:37+07:00">08:10</time>"#))
        #expect(late.contains(#"<span class="time-was"><span class="visually-hidden">Scheduled </span><s><time datetime="2026-11-23T08:05:10+07:00">08:05</time></s></span>"#))
        #expect(!late.contains("time-scheduled"))
        // Each row's large time is the one a traveller goes by: the expected one where it reads differently.
        let times = page.components(separatedBy: "<td class=\"col-time\">").dropFirst().compactMap { cell in
            cell.range(of: #"class="time-(scheduled|expected)[^"]*" datetime="[^"]+">\d\d:\d\d"#, options: .regularExpression).map { String(cell[$0].suffix(5)) }
        }
        #expect(times == ["08:03", "08:10", "08:08", "08:12", "08:15"])
    }

    @Test("the minutes late are the difference of the two times shown, not of the seconds", arguments: [
        ("2026-11-23T07:02:50+07:00", "2026-11-23T07:05:31+07:00", 161, "Late 3 min"),
        ("2026-11-23T07:02:00+07:00", "2026-11-23T07:04:59+07:00", 179, "Late 2 min"),
        ("2026-11-23T07:02:10+07:00", "2026-11-23T07:00:50+07:00", -80, "Early 2 min"),
        ("2026-11-23T23:59:30+07:00", "2026-11-24T00:01:10+07:00", 100, "Late 2 min"),
    ])
    func minutesAgreeWithTheTimesShown(scheduled: String, expected: String, delay: Int, words: String) throws {
        let status = delay > 0 ? "late" : "early"
        let board = Fixtures.board(entries: [Fixtures.entry(trip: "T-X", scheduled: scheduled, expected: expected, status: status, delay: delay)])
        let r = try #require(row("T-X", in: BoardPage.render(board, context: Fixtures.context())))
        #expect(r.contains(">\(words)</span>"))
    }

    @Test func cancelledAndSkippedRowsStayStruckThrough() throws {
        let cancelled = try #require(row("T-CANCELLED", in: page))
        #expect(cancelled.contains("class=\"row is-cancelled\""))
        #expect(cancelled.contains("<s><time class=\"time-scheduled\""))
        #expect(cancelled.contains("<s>Bundaran HI</s>"))
        #expect(cancelled.contains("Cancelled"))
        let skipped = try #require(row("T-SKIPPED", in: page))
        #expect(skipped.contains("class=\"row is-skipped\""))
        #expect(skipped.contains("Skipped"))
    }

    @Test func platformChangesAreMarked() throws {
        let changed = try #require(row("T-PLATFORM", in: page))
        #expect(changed.contains("platform platform-changed"))
        #expect(changed.contains("Platform changed"))
        #expect(changed.contains("class=\"row-alert\""))
        let usual = try #require(row("T-LATE", in: page))
        #expect(!usual.contains("platform-changed"))
    }

    @Test func routeColourTravelsAsValidatedData() throws {
        #expect(page.contains("class=\"line-badge ink-light\" data-color=\"CA1F47\""))
        let board = Fixtures.board(entries: [
            Fixtures.entry(trip: "T-BAD", scheduled: "2026-11-23T08:03:20+07:00", status: "onTime", color: "red;x:url(y)"),
            Fixtures.entry(trip: "T-YELLOW", scheduled: "2026-11-23T08:04:20+07:00", status: "onTime", color: "ffd100"),
        ])
        let html = BoardPage.fragment(board, context: Fixtures.context())
        let bad = try #require(row("T-BAD", in: html))
        #expect(!bad.contains("data-color"))
        #expect(!html.contains("red;x"))
        let yellow = try #require(row("T-YELLOW", in: html))
        #expect(yellow.contains("class=\"line-badge ink-dark\" data-color=\"FFD100\""))
    }

    @Test func highPriorityAlertsAboveTheTableTheRestBelow() throws {
        let high = try #require(page.range(of: "Major delays on the North-South line"))
        let table = try #require(page.range(of: "<table class=\"board\">"))
        let other = try #require(page.range(of: "Escalator out of service"))
        #expect(high.lowerBound < table.lowerBound)
        #expect(table.upperBound < other.lowerBound)
        #expect(page.contains("Other alerts"))
    }

    @Test func staleLiveDataIsSaidWithItsAge() {
        let stale = Fixtures.board(live: #"{"simulated": false, "updatedAt": "2026-11-23T00:55:00+00:00", "stale": true, "unavailable": []}"#)
        let html = BoardPage.fragment(stale, context: Fixtures.context())
        #expect(html.contains("Live data 5 min old"))
        #expect(html.contains("Times are shown as last known."))
        // Old data the server has not flagged yet reads as stale too.
        let old = Fixtures.board(live: #"{"simulated": false, "updatedAt": "2026-11-23T00:40:00+00:00", "stale": false, "unavailable": []}"#)
        #expect(BoardPage.fragment(old, context: Fixtures.context()).contains("Live data 20 min old"))
        // Fresh data says when, in the stop's time.
        #expect(page.contains("Live data from 07:59"))
        #expect(!page.contains("data-stale"))
    }

    @Test func simulatedUnavailableAndStaticOnlyAreSaid() {
        let sim = Fixtures.board(live: #"{"simulated": true, "updatedAt": "2026-11-23T01:00:00+00:00", "stale": false, "unavailable": ["https://x.example/feed: HTTP 503"]}"#)
        let html = BoardPage.fragment(sim, context: Fixtures.context())
        #expect(html.contains("Simulated live data"))
        #expect(html.contains("1 live data source is unavailable"))
        #expect(!html.contains("x.example"), "the reason is operator detail, never shown")
        let staticOnly = BoardPage.fragment(Fixtures.board(live: nil), context: Fixtures.context())
        #expect(staticOnly.contains("Timetable times only"))
    }

    @Test func emptyBoardSaysSo() {
        let empty = Fixtures.board(entries: [])
        #expect(BoardPage.fragment(empty, context: Fixtures.context(), options: .init(windowMinutes: 90))
            .contains("No departures in the next 90 minutes."))
        #expect(BoardPage.fragment(empty, context: Fixtures.context()).contains("No departures coming up."))
        #expect(!BoardPage.fragment(empty, context: Fixtures.context()).contains("<table"))
    }

    @Test func indonesianBoard() {
        let html = BoardPage.render(Fixtures.board(), context: Fixtures.context(.id))
        #expect(html.contains("<html lang=\"id\""))
        #expect(html.contains(">Keberangkatan</a>"))
        #expect(html.contains(">Kedatangan</a>"))
        #expect(html.contains(">Peron</th>"))
        #expect(html.contains(">Tujuan</th>"))
        #expect(html.contains("Terlambat 5 menit"))
        #expect(html.contains("Dibatalkan"))
        #expect(html.contains("Tepat waktu"))
        #expect(!html.contains(">Platform</th>"))
    }

    @Test func theFragmentIsWhatTheLiveContainerHolds() throws {
        let board = Fixtures.board()
        let context = Fixtures.context()
        let fragment = BoardPage.fragment(board, context: context)
        #expect(page.contains(fragment))
        #expect(fragment.contains("<tbody id=\"board-rows\">"))
        #expect(fragment.contains("data-summary=\"Board updated. Next: NS to Bundaran HI at 08:03, on time.\""))
        #expect(page.contains("<div id=\"board-live\" class=\"live-container\" data-live=\"board=SBKM&amp;kind=departures&amp;lang=en&amp;format=html\">"))
    }

    @Test func liveSubscriptionAsksForWhatThePageShows() {
        let query = BoardPage.liveQuery(Fixtures.board(), language: .id, options: .init(windowMinutes: 30, limit: 20))
        #expect(query == "board=SBKM&kind=departures&window=30&limit=20&lang=id&format=html")
    }

    @Test func callingAtFilterLinksAndShowsArrivalAtTheDestination() throws {
        let via = #"{"id": "SBHI", "name": "Bundaran HI", "kind": "station", "latitude": 0, "longitude": 0, "timeZone": "Asia/Jakarta"}"#
        let board = Fixtures.board(entries: [
            Fixtures.entry(trip: "T-VIA", scheduled: "2026-11-23T08:03:20+07:00", status: "onTime",
                           extra: "\"arrivalAtDestination\": \"2026-11-23T08:20:00+07:00\", \"destinationStopId\": \"GBHI02\""),
        ], via: via)
        let html = BoardPage.render(board, context: Fixtures.context())
        #expect(html.contains("Arrives 08:20"))
        #expect(html.contains("Only services calling at Bundaran HI"))
        #expect(html.contains("data-live=\"board=SBKM&amp;kind=departures&amp;to=SBHI&amp;lang=en&amp;format=html\""))
        #expect(html.contains("name=\"to\""))
        #expect(html.contains("data-target=\"/stops/SBKM?to={id}\""))
        #expect(html.contains("href=\"/stops/SBKM?to=SBHI&amp;lang=id\""))
    }

    @Test func arrivalsBoardUsesTheArrivalTimesAndTab() throws {
        let json = """
        {"stop": \(Fixtures.stopJSON), "arrivals": [{"tripId": "T-ARR", "routeId": "R", "routeShortName": "NS", "routeLongName": "",
          "headsign": "Bundaran HI", "origin": "Lebak Bulus", "stopId": "GBKM03", "stopName": "Blok M", "serviceDate": "2026-11-23",
          "scheduledArrival": "2026-11-23T08:07:50+07:00", "status": "departed"}]}
        """
        let board = Fixtures.decode(BoardDTO.self, json)
        let html = BoardPage.render(board, context: Fixtures.context())
        #expect(html.contains("<a class=\"tab\" href=\"/stops/SBKM?arrivals=1\" aria-current=\"page\">Arrivals</a>"))
        #expect(html.contains(">08:07</time>"))
        #expect(html.contains(">Lebak Bulus</a>"))
        #expect(html.contains("Arrived"))
        #expect(html.contains("data-summary=\"Board updated. Next: NS from Lebak Bulus at 08:07, arrived.\""))
        #expect(html.contains("kind=arrivals"))
        #expect(html.contains("<title>Arrivals at Stasiun MRT Blok M BCA · Onward</title>"))
    }
}
