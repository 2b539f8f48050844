import API
import OnwardCore

/// What the page says about its live data, honestly: fresh (and when),
/// old (and how old), simulated, partly unavailable, or absent.
enum LiveNotice {
    /// Live data older than this reads as stale even if the server's own
    /// threshold has not said so yet (a page can be rendered from a state
    /// taken a while ago).
    static let staleAfterSeconds = 300

    /// - Parameter utcOffset: the stop's UTC offset, for the "updated 08:05" time.
    static func render(_ live: LiveDTO?, utcOffset: Int?, context: PageContext) -> HTML {
        let s = context.strings
        guard let live else {
            return "<p class=\"live-line live-line-static\"><span class=\"live-dot is-off\" aria-hidden=\"true\"></span> \(s(.liveNone))</p>"
        }
        var out: [HTML] = []
        let age = WallClock.minutes(since: live.updatedAt, now: context.now)
        let stale = live.stale || (age.map { $0 * 60 >= staleAfterSeconds } ?? false)
        if stale {
            // Minutes read well up to two hours, hours up to two days; a replayed recording is days old.
            let title = age.map { m in
                m < 120 ? s(.liveStaleMinutes, ["minutes": String(m)])
                    : m < 2_880 ? s(.liveStaleHours, ["hours": String(m / 60)]) : s(.liveStaleDays, ["days": String(m / 1_440)])
            } ?? s(.liveStale)
            out.append("""
            <div class="banner banner-warn" data-stale="true"><strong>\(title)</strong> <span>\(s(.liveStaleNote))</span></div>
            """)
        }
        if !live.unavailable.isEmpty {
            // The reasons are operator detail (URLs, errors): the reader gets a count, never the raw text.
            let text = live.unavailable.count == 1 ? s(.liveUnavailableOne)
                : s(.liveUnavailableMany, ["count": String(live.unavailable.count)])
            out.append("<div class=\"banner banner-warn\">\(text)</div>")
        }
        var line: [HTML] = []
        if !stale, let updated = live.updatedAt.flatMap(WallClock.init(iso:)) {
            let local = LocalClock.hhmm(updated.instant, utcOffset: utcOffset ?? updated.utcOffset)
            line.append("<span class=\"live-dot\" aria-hidden=\"true\"></span><span>\(s(.liveUpdatedAt, ["time": local]))</span>")
        }
        if live.simulated {
            line.append("""
            <span class="badge badge-simulated">\(s(.liveSimulated))</span>\
            <span class="live-note">\(s(.liveSimulatedNote))</span>
            """)
        }
        if !line.isEmpty { out.append("<p class=\"live-line\">\(HTML.join(line, separator: " "))</p>") }
        return HTML.join(out, separator: "\n")
    }
}

/// Instants shown on a stop's clock, given its UTC offset.
enum LocalClock {
    static func hhmm(_ instant: Instant, utcOffset: Int) -> String {
        let local = instant.epochSeconds + Int64(utcOffset)
        let seconds = Int(((local % 86_400) + 86_400) % 86_400)
        let h = seconds / 3600, m = seconds / 60 % 60
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }

    /// Whole minutes from `iso` to `now` as words: "reported 2 min ago".
    static func reportedAgo(_ iso: String?, now: Instant, strings s: Strings) -> String? {
        guard let minutes = WallClock.minutes(since: iso, now: now) else { return nil }
        return minutes < 1 ? s(.vehicleReportedJustNow) : s(.vehicleReportedAgo, ["minutes": String(minutes)])
    }
}
