import OnwardCore
import Testing

@Suite("Instant from ISO 8601 text")
struct InstantParsingTests {
    @Test("a time with its offset or Z, with or without fractional seconds; nothing without a zone, nothing impossible")
    func forms() {
        let eight = Instant(epochSeconds: 1_795_395_600)  // 2026-11-23T08:00:00+07:00
        #expect(Instant(iso8601: "2026-11-23T08:00:00+07:00") == eight)
        #expect(Instant(iso8601: "2026-11-23T01:00:00Z") == eight)
        #expect(Instant(iso8601: "2026-11-23T08:00:00.250+07:00") == eight)
        #expect(Instant(iso8601: "2026-11-22T20:00:00-05:00") == eight)
        #expect(Instant(iso8601: "2026-11-23T08:00:00") == nil)
        #expect(Instant(iso8601: "2026-11-23") == nil)
        #expect(Instant(iso8601: "yesterday") == nil)
        #expect(Instant(iso8601: "2026-02-30T08:00:00Z") == nil)
        #expect(Instant(iso8601: "2026-11-23T25:00:00Z") == nil)
        // Any offset RFC 3339 allows, with or without its colon; a year before 1000 (the API's fuzzer sends them).
        #expect(Instant(iso8601: "2026-11-23T22:05:00+22:05") == Instant(iso8601: "2026-11-23T00:00:00Z"))
        #expect(Instant(iso8601: "2026-11-23T08:00:00+0700") == eight)
        #expect(Instant(iso8601: "0160-11-30T09:30:39+22:05") != nil)
        #expect(Instant(iso8601: "2026-11-23T08:00:00+24:00") == nil)
        #expect(Instant(iso8601: "2026-11-23T08:00:00+07:00junk") == nil)
        #expect(Instant(iso8601: "2026-11-23T08:00:00.+07:00") == nil)
        #expect(Instant(iso8601: "1969-12-31T23:59:59Z") == Instant(epochSeconds: -1))
    }
}
