import API

/// The station search box. Without the script it is a plain GET form; the
/// script turns the input into a combobox that searches as you type
/// (`/api/v1/stops?q=`) and goes to `data-target` with `{id}` replaced by the
/// picked stop's ID.
enum StopSearch {
    /// - Parameters:
    ///   - id: the input's element ID (the list is `{id}-results`).
    ///   - name: the query parameter the form sends.
    ///   - action: where the form goes without the script.
    ///   - target: where picking a suggestion goes, with `{id}` for the stop ID.
    ///   - hidden: extra parameters the form must keep.
    static func form(id: String, name: String, label: String, placeholder: String, value: String?, action: String,
                     target: String, button: String, hidden: [(String, String)] = [], cssClass: String = "search") -> HTML {
        let extras = hidden.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" as HTML }
        return """
        <form\(HTML.classes(cssClass)) action="\(action)" method="get" role="search">
        <label class="field-label" for="\(id)">\(label)</label>
        <div class="search-row">
        <div class="combo">
        <input id="\(id)" name="\(name)" type="search"\(HTML.attribute("value", value)) placeholder="\(placeholder)" \
        autocomplete="off" autocapitalize="none" spellcheck="false" enterkeyhint="search" maxlength="100" \
        data-stop-search data-target="\(target)">
        <ul id="\(id)-results" class="suggestions" role="listbox" aria-label="\(label)" hidden></ul>
        <p class="suggestions-status" id="\(id)-status" hidden></p>
        </div>
        \(extras)<button type="submit" class="button button-primary">\(button)</button>
        </div>
        </form>
        """
    }

    /// Stops as a list of links to their boards (search results, nearby,
    /// all stations); the script builds the same markup.
    static func list(_ stops: [StopDTO], strings s: Strings) -> HTML {
        let items = stops.map { stop -> HTML in
            var meta: [String] = [kindName(stop, strings: s)]
            if let code = stop.code, !code.isEmpty { meta.append(s(.stopCode, ["code": code])) }
            if let d = stop.distanceMetres { meta.append(distance(d, strings: s)) }
            return """
            <li><a class="stop-item" href="\(Links.board(stop.id))"><span class="stop-name">\(stop.name)</span>\
            <span class="stop-meta">\(meta.joined(separator: " · "))</span></a></li>
            """
        }
        return "<ul class=\"stop-list\">\(items)</ul>"
    }

    static func kindName(_ stop: StopDTO, strings s: Strings) -> String {
        switch stop.kind {
        case "station": s(.kindStation)
        default: stop.platform == nil ? s(.kindStop) : s(.kindPlatform)
        }
    }

    /// "350 m", "1.2 km" (with the language's decimal mark).
    static func distance(_ metres: Double, strings s: Strings) -> String {
        guard metres.isFinite, metres >= 0 else { return "" }
        if metres < 1000 {
            return s(.distanceMetres, ["distance": String(Int((metres / 10).rounded()) * 10)])
        }
        let tenths = Int((metres / 100).rounded())
        let mark = s.language == .id ? "," : "."
        let text = tenths % 10 == 0 || tenths >= 100 ? String(tenths / 10) : String(tenths / 10) + mark + String(tenths % 10)
        return s(.distanceKilometres, ["distance": text])
    }
}
