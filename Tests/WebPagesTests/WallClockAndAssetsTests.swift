import OnwardCore
import Foundation
import Testing
import WebPages

@Suite("Times and assets")
struct WallClockAndAssetsTests {
    @Test func readsTheWallClockWithoutConvertingIt() throws {
        let t = try #require(WallClock(iso: "2026-11-23T08:05:59+07:00"))
        #expect(t.hhmm == "08:05")
        #expect(t.utcOffset == 7 * 3600)
        #expect(t.instant.epochSeconds == 1_795_395_600 + 359)
        #expect(WallClock(iso: "2025-11-06T23:59:00-04:00")?.hhmm == "23:59")
        #expect(WallClock(iso: "2026-11-23T01:00:00Z")?.instant.epochSeconds == 1_795_395_600)
        #expect(WallClock(iso: "2026-11-23T01:00:00.250+00:00")?.hhmm == "01:00")
        #expect(WallClock(iso: "2026-11-23T01:00+0530")?.utcOffset == 19_800)
        #expect(WallClock(iso: "08:05") == nil)
        #expect(WallClock(iso: "2026-11-23T25:00:00+07:00") == nil)
        #expect(WallClock(iso: "2026-11-23T08:00:00+07:00junk") == nil)
    }

    @Test func assetsAreVersionedByContent() {
        #expect(Assets.version.count == 16)
        #expect(Assets.version.allSatisfy { $0.isHexDigit })
        #expect(Assets.cssURL == "/assets/app.css?v=" + Assets.version)
        #expect(Assets.jsURL == "/assets/app.js?v=" + Assets.version)
    }

    @Test func stylesheetHasTheColourTokensForBothThemes() {
        for token in ["--color-bg", "--color-text", "--color-accent", "--color-late", "--color-cancelled", "--color-on-time"] {
            #expect(Assets.css.components(separatedBy: token + ":").count == 4, "\(token) in light, dark and system-dark")
        }
        #expect(Assets.css.contains(":root[data-theme=\"dark\"]"))
        #expect(Assets.css.contains("@media (prefers-color-scheme: dark)"))
        #expect(Assets.css.contains(":root[data-theme=\"system\"]"))
        #expect(Assets.css.contains(":focus-visible"))
    }

    @Test func scriptSetsTextSafely() {
        let js = Assets.javascript
        // The only innerHTML is the server's own fragment from the live socket (a board, a commute's journey), in one function.
        #expect(js.components(separatedBy: "innerHTML").count == 2)
        #expect(js.contains("node.innerHTML = html"))
        #expect(!js.contains("eval("))
        #expect(!js.contains("document.write"))
        #expect(js.contains("style.setProperty('--line-color'"))
        #expect(js.contains("Math.min(30000, 1000 * Math.pow(2, attempt))"))
        #expect(js.contains("'/live?'"))
    }
}
