/// The frame around every page: the document head (one stylesheet, one
/// deferred script, nothing inline, as the Content-Security-Policy demands),
/// the header with the site name and navigation, the footer with the theme
/// and language switches and the data credits, and the live region.
public enum Layout {
    /// Which navigation item the page belongs to.
    public enum Section: Sendable { case home, journey, alerts, me, trips, none }

    /// A whole HTML document.
    /// - Parameters:
    ///   - title: the page's own title; the site name is added.
    ///   - address: the page's own address, for the language and theme links.
    ///   - bodyClass: a class naming the kind of page (`page-board`, …).
    ///   - mainAttributes: extra attributes for `<main>` (data for the script).
    ///   - main: the page's content.
    public static func document(title: String, context: PageContext, address: PageAddress, section: Section = .none,
                                bodyClass: String, mainAttributes: HTML = .empty, main: HTML) -> String {
        let s = context.strings
        let fullTitle = title.isEmpty ? s(.siteName) : s(.pageTitle, ["page": title])
        let page: HTML = """
        \(opening(title: fullTitle, context: context))
        <body\(HTML.classes(bodyClass))\(scriptStrings(s))\(HTML.attribute("data-signed-in", context.person.map { String($0.routesVersion) }))>
        <a class="skip-link" href="#main">\(s(.skipToContent))</a>
        \(header(s, section: section, signedIn: context.person != nil))
        <main id="main" class="wrap" tabindex="-1"\(mainAttributes)>
        \(main)
        </main>
        \(footer(context, address: address))
        <div id="live-status" class="visually-hidden" role="status" aria-live="polite"></div>
        </body>
        </html>
        """
        return page.rendered + "\n"
    }

    /// The doctype, `<html>` and the whole `<head>`: every page's, the glance view's too.
    static func opening(title: String, context: PageContext) -> HTML {
        """
        <!doctype html>
        <html lang="\(context.language.tag)" data-theme="\(context.theme.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="referrer" content="no-referrer">
        <title>\(title)</title>
        <link rel="stylesheet" href="\(Assets.cssURL)">
        <link rel="icon" href="\(Assets.iconURL)" type="image/svg+xml">
        <link rel="manifest" href="\(Assets.manifestPath)">
        <meta name="theme-color" content="\(Assets.themeColor)">
        <link rel="apple-touch-icon" href="\(Assets.icons[0].path)">
        <script src="\(Assets.jsURL)" defer></script>
        </head>
        """
    }

    static func header(_ s: Strings, section: Section, signedIn: Bool) -> HTML {
        func item(_ key: L10nKey, _ href: String, current: Bool) -> HTML {
            "<li><a href=\"\(href)\"\(HTML.attribute("aria-current", current ? "page" : nil))>\(s(key))</a></li>"
        }
        return """
        <header class="site-header">
        <div class="wrap header-inner">
        <a class="brand" href="\(Links.home)">\(brandMark)<span class="brand-name">\(s(.siteName))</span></a>
        <nav class="site-nav" aria-label="\(s(.navLabel))">
        <ul>\(item(.navHome, Links.home, current: section == .home))\(item(.navJourney, Links.journeys(), current: section == .journey))\
        \(item(.navAlerts, Links.alerts, current: section == .alerts))\
        \(signedIn ? item(.navMyRoutes, Links.me, current: section == .me) : item(.navSignIn, Links.signIn, current: section == .me))\
        \(signedIn ? item(.navTrips, Links.trips, current: section == .trips) : .empty)</ul>
        </nav>
        </div>
        </header>
        """
    }

    static func footer(_ context: PageContext, address: PageAddress) -> HTML {
        let s = context.strings
        let themes = Theme.allCases.map { theme -> HTML in
            let key: L10nKey = switch theme {
            case .system: .themeSystem
            case .light: .themeLight
            case .dark: .themeDark
            }
            let current = theme == context.theme
            return """
            <a class="segment" href="\(address.with("theme", theme.rawValue))" data-theme-choice="\(theme.rawValue)"\
            \(HTML.attribute("aria-current", current ? "true" : nil))>\(themeIcon(theme))<span>\(s(key))</span></a>
            """
        }
        let languages = Language.allCases.map { language -> HTML in
            let name = s(language == .en ? .languageEnglish : .languageIndonesian)
            let current = language == context.language
            return """
            <a class="segment" href="\(address.with("lang", language.tag))" hreflang="\(language.tag)" lang="\(language.tag)"\
            \(HTML.attribute("aria-current", current ? "true" : nil))><span>\(name)</span></a>
            """
        }
        let credits = context.attribution.map { line -> HTML in "<li>\(line)</li>" }
        return """
        <footer class="site-footer">
        <div class="wrap footer-inner">
        <div class="prefs">
        <div class="pref"><span class="pref-label" id="theme-label">\(s(.themeLabel))</span>\
        <div class="segmented" role="group" aria-labelledby="theme-label">\(HTML.join(themes))</div></div>
        <div class="pref"><span class="pref-label" id="language-label">\(s(.languageLabel))</span>\
        <div class="segmented" role="group" aria-labelledby="language-label">\(HTML.join(languages))</div></div>
        </div>
        \(credits.isEmpty ? HTML.empty : "<div class=\"credits\"><h2 class=\"credits-title\">\(s(.footerData))</h2><ul>\(credits)</ul></div>")
        <p class="about">\(s(.footerAbout))</p>
        </div>
        </footer>
        """
    }

    /// The texts the script shows (search states, distances, connection
    /// states), in the page's language, as `data-t-*` attributes on `<body>`:
    /// the script has no string table of its own.
    static func scriptStrings(_ s: Strings) -> HTML {
        let entries: [(String, L10nKey)] = [
            ("searching", .searchSearching), ("no-results", .searchNoResults), ("search-unavailable", .searchUnavailable),
            ("locating", .nearbyLocating), ("location-denied", .nearbyDenied), ("location-unavailable", .nearbyUnavailable),
            ("nearby-none", .nearbyNone), ("metres", .distanceMetres), ("kilometres", .distanceKilometres),
            ("live", .connectionLive), ("connecting", .connectionConnecting), ("reconnecting", .connectionReconnecting),
            ("paused", .connectionPaused), ("station", .kindStation), ("stop", .kindStop), ("platform", .kindPlatform),
            ("code", .stopCode),
            ("commute-none", .commuteNone), ("commute-ended", .commuteEnded), ("commute-simulated", .commuteSimulated),
            ("commute-notify-on", .commuteNotifyOn), ("commute-notify-blocked", .commuteNotifyBlocked), ("commute-push-on", .commutePushOn),
            ("commute-push-off", .commutePushOff), ("commute-start-failed", .commuteStartFailed), ("commute-clock", .commuteClock),
            ("commute-locating", .commuteLocating), ("commute-locate", .commuteLocate), ("no-alerts", .commuteNoAlerts),
            ("basis-liveTimes", .commuteBasisLiveTimes), ("basis-timetable", .commuteBasisTimetable),
            ("basis-position", .commuteBasisPosition), ("basis-beacon", .commuteBasisBeacon),
            ("watch-switch", .watchSwitch), ("watch-on", .watchOn), ("watch-explained", .watchExplained), ("watch-failed", .watchFailed),
            ("offline-last-live", .offlineLastLive),
        ]
        return HTML.join(entries.map { HTML.attribute("data-t-" + $0.0, s($0.1)) })
    }

    static let brandMark: HTML = """
    <svg class="brand-mark" viewBox="0 0 32 32" width="30" height="30" aria-hidden="true" focusable="false">\
    <rect class="brand-bg" x="1" y="1" width="30" height="30" rx="9"/>\
    <path class="brand-arrow" d="M9 16h13m-5.5-6 6 6-6 6" fill="none" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>\
    </svg>
    """

    static func themeIcon(_ theme: Theme) -> HTML {
        let path: HTML = switch theme {
        case .system: "<circle cx=\"12\" cy=\"12\" r=\"8\" fill=\"none\" stroke-width=\"2\"/><path d=\"M12 4a8 8 0 0 1 0 16z\"/>"
        case .light: "<circle cx=\"12\" cy=\"12\" r=\"4.5\"/><path d=\"M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1\" fill=\"none\" stroke-width=\"2\" stroke-linecap=\"round\"/>"
        case .dark: "<path d=\"M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z\"/>"
        }
        return "<svg class=\"icon\" viewBox=\"0 0 24 24\" width=\"16\" height=\"16\" aria-hidden=\"true\" focusable=\"false\">\(path)</svg>"
    }
}
