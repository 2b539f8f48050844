import OnwardCore
import Testing

@Suite("GTFSTime")
struct GTFSTimeTests {
    static let valid: [(String, Int32)] = [
        ("5:00:00", 5 * 3600),
        ("05:00:00", 5 * 3600),
        ("00:00:00", 0),
        ("23:59:59", 86_399),
        ("24:00:00", 86_400),
        ("25:10:00", 25 * 3600 + 600),
        ("47:59:59", 47 * 3600 + 59 * 60 + 59),
        ("100:00:00", 360_000),
    ]

    @Test(arguments: valid)
    func parses(text: String, seconds: Int32) {
        #expect(GTFSTime.parse(text) == seconds)
    }

    @Test(arguments: ["12:60:00", "12:00:60", "1:2:3", "12:00:0", "12:00", "12:00:00:00", "", ":00:00",
                      "ab:cd:ef", "12:00:00 ", " 12:00:00", "-1:00:00", "12.00.00", "1000:00:00"])
    func rejects(text: String) {
        #expect(GTFSTime.parse(text) == nil)
    }

    /// GTFS times are `HH:MM:SS` (H:MM:SS below ten hours): the minutes need two digits like the seconds.
    @Test(arguments: ["12:0:00", "12:000:00", "8:5:00"])
    func rejectsMinutesNotTwoDigits(text: String) {
        #expect(GTFSTime.parse(text) == nil)
    }

    @Test func formatsKeepingHoursPastMidnight() {
        #expect(GTFSTime.format(0) == "00:00:00")
        #expect(GTFSTime.format(5 * 3600 + 7) == "05:00:07")
        #expect(GTFSTime.format(25 * 3600 + 600) == "25:10:00")
        #expect(GTFSTime.format(86_399) == "23:59:59")
    }
}
