import API
import OnwardCore

/// The pages a signed-in person's phone keeps for when it has no signal (the web app's service worker, `sw.js`, stores
/// them and serves them when the network fails): each saved board as the timetable's next hours, and a list of those
/// boards in place of "My routes". A copy says it is one; once the network is back its live part catches up by itself.
public enum OfflineCopy {
    /// The query that asks a board page (or "My routes") for its offline copy.
    public static let parameter = "offline"

    /// How far ahead a kept board goes.
    public static let boardHours = 3

    /// On `<main>`: the page is a kept copy (the script then drops the rows gone by, and reconnects as soon as it can).
    static let mark = HTML(trusted: " data-offline-copy")

    /// The address of a page's copy: the page's own with `offline=1`.
    public static func copy(of link: String) -> String { link + (link.contains("?") ? "&" : "?") + parameter + "=1" }

    /// "Offline: timetable only, last live data at 08:12", in place of the live-data line: the time is when the live
    /// data the copy was made beside was made, at the stop; without live data, only the first half.
    static func notice(_ live: LiveDTO?, utcOffset: Int?, strings s: Strings) -> HTML {
        let time = live?.updatedAt.flatMap(WallClock.init(iso:)).flatMap { w in utcOffset.map { LocalClock.hhmm(w.instant, utcOffset: $0) } }
        let text = time.map { s(.offlineLastLive, ["time": $0]) } ?? s(.offlineTimetableOnly)
        return "<p class=\"banner banner-warn offline-note\" data-offline-note><strong>\(text)</strong> <span>\(s(.offlineBack))</span></p>"
    }
}
