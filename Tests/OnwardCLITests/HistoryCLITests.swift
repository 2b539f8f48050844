import API
import Foundation
import OnwardTesting
import Testing

/// `onward history`: the replay tool fills a data folder's history from the simulation, `history` reads it back, and a
/// board in that folder says how late each row usually is.
@Suite("onward history (bundled network)")
struct HistoryCLITests {
    static func decode<T: Decodable>(_ type: T.Type, _ out: OnwardExecutable.Output, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        #expect(out.status == 0, "\(out.stderr)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(type, from: Data(out.stdout.utf8))
    }

    @Test("replay --simulate fills the history; history SASN shows it by hour; board in the same folder shows it per row")
    func replayThenRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Three weeks, a simulated poll every two hours: every run is seen while it runs (the simulation speaks of runs from
        // three hours back to two ahead), so each call's last word is kept.
        let replay = try OnwardExecutable.run(["history", "replay", "--simulate", "--from", "2026-11-02", "--days", "21", "--step", "120",
                                               "--data-dir", folder.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        // Jakarta is UTC+7: the last UTC day's evening runs are the next local day's.
        #expect(replay.stdout.contains("Replayed 252 simulated polls"), "\(replay.stdout)")
        #expect(replay.stdout.contains("Folded 22 days (2026-11-02 to 2026-11-23)."), "\(replay.stdout)")

        let history = try Self.decode(HistoryDTO.self, OnwardExecutable.run(["history", "SASN", "--json", "--data-dir", folder.path]))
        #expect(history.kind == "stop" && history.id == "mrt-jakarta:SASN")
        #expect(history.through == "2026-11-23")
        let weekdayMorning = try #require(history.rows.first { $0.usual.dayKind == "weekday" && $0.usual.hour == 8 })
        #expect(weekdayMorning.routeId == "mrt-jakarta:MRTJ_NS" && weekdayMorning.usual.enough && weekdayMorning.usual.days >= 15)
        #expect(history.rows.contains { $0.usual.dayKind == "sunday" && $0.usual.enough })
        let text = try OnwardExecutable.run(["history", "SASN", "--data-dir", folder.path])
        #expect(text.stdout.contains("Weekdays  08:00  usually"), "\(text.stdout)")

        let board = try Self.decode(BoardDTO.self, OnwardExecutable.run(["board", "SASN", "--simulate", "--date", "2026-11-23", "--time", "08:00",
                                                                          "--window", "30", "--json", "--data-dir", folder.path]))
        let rows = try #require(board.departures)
        #expect(!rows.isEmpty && rows.allSatisfy { $0.usualDelay?.enough == true && [7, 8].contains($0.usualDelay?.hour ?? -1) })
        // A folder with no history: no row says anything of it.
        let empty = try TemporaryFolder()
        defer { empty.remove() }
        let plain = try Self.decode(BoardDTO.self, OnwardExecutable.run(["board", "SASN", "--simulate", "--date", "2026-11-23", "--time", "08:00",
                                                                          "--window", "30", "--json", "--data-dir", empty.path]))
        #expect(plain.departures?.allSatisfy { $0.usualDelay == nil } == true)
        #expect(!FileManager.default.fileExists(atPath: empty.path + "/onward.sqlite"))
    }
}
