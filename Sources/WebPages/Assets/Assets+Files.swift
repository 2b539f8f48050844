extension Assets {
    /// The stylesheet: `Resources/app.css` with `Resources/dark-tokens.css` put in both places
    /// that need the dark colours (a chosen dark theme, and a dark device with no choice),
    /// so the tokens are written once. Both files are embedded in the binary.
    public static let css: String = {
        let template = String(decoding: PackageResources.app_css, as: UTF8.self)
        let dark = String(decoding: PackageResources.dark_tokens_css, as: UTF8.self)
        return template.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("/* @dark-tokens") ? dark.trimmingSuffix() : String(line)
        }.joined(separator: "\n")
    }()

    /// The script: plain ES2017, no build step, no third-party code (`Resources/app.js`). Every
    /// page works without it; it adds the theme switch without a reload, route colours,
    /// search as you type, nearby and recent stations, and live updates over a WebSocket.
    /// Texts come from the page (`data-t-*` on `<body>`) in the page's language. Text from
    /// the network is only ever set with `textContent`; the one `innerHTML` is the server's
    /// own page fragment.
    public static let javascript = String(decoding: PackageResources.app_js, as: UTF8.self)

    /// The service worker (`Resources/sw.js`): shows commuting alerts that come by Web Push. Served
    /// at the site's root so its scope is every page, and never cached long, so an update reaches browsers.
    public static let serviceWorker = String(decoding: PackageResources.sw_js, as: UTF8.self)
    public static let serviceWorkerPath = "/sw.js"
}

private extension String {
    func trimmingSuffix() -> String {
        var s = Substring(self)
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
