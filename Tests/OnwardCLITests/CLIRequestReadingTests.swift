import API
import Foundation
import Testing
import Transit

/// The CLI reads its options as the API reads a request (`Transit`): one reader of dates and times,
/// names or IDs, one set of defaults and limits, errors in the CLI's own option names.
@Suite("onward CLI: options read by the query layer")
struct CLIRequestReadingTests {
    @Test("an impossible date or time is refused, never rolled over to another day")
    func impossibleDates() throws {
        let at = try OnwardExecutable.run(["alerts", "--simulate", "--at", "2026-02-30T08:00"])
        #expect(at.status == 1 && at.stderr.contains("--at '2026-02-30T08:00' is not an ISO 8601 date and time"), "\(at.stderr)")
        let date = try OnwardExecutable.run(["board", "Lebak Bulus", "--date", "2026-02-30"])
        #expect(date.status == 1 && date.stderr.contains("--date '2026-02-30' is not a date; use YYYY-MM-DD"), "\(date.stderr)")
        let time = try OnwardExecutable.run(["plan", "Lebak Bulus", "Bundaran HI", "--time", "24:10"])
        #expect(time.status == 1 && time.stderr.contains("--time '24:10' is not a time; use HH:MM or HH:MM:SS"), "\(time.stderr)")
    }

    @Test("a negative number is read and refused with the option's limits, not taken for a missing value")
    func negativeNumbers() throws {
        let r = try OnwardExecutable.run(["plan", "Lebak Bulus", "Bundaran HI", "--limit", "-1"])
        #expect(r.status == 1 && r.stderr.contains("--limit must be a whole number between 1 and 100"), "\(r.stderr)")
        #expect(!r.stderr.contains("Missing value"))
    }

    @Test("plan --window: every option leaving in the window, as the API gives, not the default five")
    func windowDecides() throws {
        let r = try OnwardExecutable.run(["plan", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", "08:00", "--window", "120", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let answer = try JSONDecoder().decode(JourneysDTO.self, from: Data(r.stdout.utf8))
        #expect(answer.journeys.count > Queries.JourneyQuery.defaults.limit)
    }

    @Test("a calling point by a name that matches several stops lists them, as the API and the pages do")
    func ambiguousCallingPoint() throws {
        let r = try OnwardExecutable.run(["board", "Lebak Bulus", "--to", "blok"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("'blok' matches several stops") && r.stderr.contains("mrt-jakarta:SBKA") && r.stderr.contains("mrt-jakarta:SBKM"))
    }
}
