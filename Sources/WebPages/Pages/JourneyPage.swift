import API
import OnwardCore

/// The journey planner: a form (from, to, date, time, arrive by) whose place fields
/// search as you type, and the journeys found, each with its rides, platforms,
/// changes and live delays.
public enum JourneyPage {
    /// What the form holds: the typed text of each place, and the stop picked from the
    /// suggestions (the script fills `fromID`/`toID`; without it the text is matched).
    public struct Form: Sendable {
        public var fromText = "", fromID = "", toText = "", toID = ""
        public var date = "", time = ""
        public var arriveBy = false
        public var wheelchair = false
        public var lessCrowded = false
        public var reliable = false

        public init() {}
    }

    /// - Parameters:
    ///   - problem: why no journey is shown, in words.
    ///   - choice: a place typed as a name that matched several stops, or none (`from` or `to`), with the places to pick.
    public static func render(form: Form, answer: JourneysDTO?, problem: String?, choice: (parameter: String, problem: PlaceChoices.Problem)? = nil,
                              context: PageContext) -> String {
        let s = context.strings
        let title = answer.map { s(.journeyTitleFromTo, ["from": $0.from.name, "to": $0.to.name]) } ?? s(.journeyTitle)
        let address = PageAddress(path: Links.journeys(), query: query(form))
        var problemHTML: HTML = problem.map { "<p class=\"empty-state\" role=\"alert\">\($0)</p>" } ?? .empty
        if let choice {
            // Picking a place asks again with its ID in the field the name was typed in; the question comes
            // before the form, so on a phone it is on the first screen.
            problemHTML = PlaceChoices.html(choice.problem, strings: s) { address.with(choice.parameter, $0.id) }
        }
        let found: HTML = answer.map { a in
            PersonForm.save([("kind", "journey"), ("from", a.from.id), ("to", a.to.id)], label: .saveJourney, context: context)
                + results(a, strings: s, person: context.person)
        } ?? .empty
        // Once journeys are found, the form folds into one line (from → to, and a way to change them), so on a
        // phone the first journey is on the first screen; without an answer it is the page.
        let asked: HTML = when(form, strings: s).map { "<span class=\"journey-search-when\">\($0)</span>" } ?? .empty
        let search: HTML = answer.map { a in
            """
            <details class="journey-search panel"><summary><span class="journey-search-places">\(a.from.name) → \(a.to.name)\(asked)</span> \
            <span class="journey-search-change">\(s(.journeyChangeSearch))</span></summary>
            \(formHTML(form, strings: s))
            </details>
            """
        } ?? formHTML(form, strings: s, panel: true)
        let main: HTML = """
        <div class="page-head">
        <h1>\(s(.journeyTitle))</h1>
        </div>
        \(choice == nil ? search : problemHTML)
        \(choice == nil ? problemHTML : search)
        \(found)
        """
        return Layout.document(title: title, context: context, address: address, section: .journey, bodyClass: "page-journey", main: main)
    }

    /// The page's address for what the form holds: a place by its picked ID, else its text.
    static func query(_ form: Form) -> [PageAddress.Pair] {
        var query: [PageAddress.Pair] = []
        for (name, value) in [("from", form.fromID.isEmpty ? form.fromText : form.fromID), ("to", form.toID.isEmpty ? form.toText : form.toID),
                              ("date", form.date), ("time", form.time)] where !value.isEmpty {
            query.append(.init(name, value))
        }
        if form.arriveBy { query.append(.init("arriveBy", "1")) }
        if form.wheelchair { query.append(.init("wheelchair", "1")) }
        if form.lessCrowded { query.append(.init("lessCrowded", "1")) }
        if form.reliable { query.append(.init("reliable", "1")) }
        return query
    }

    /// The date and time the form asked for, for the folded form ("Mon 23 Nov 2026, 08:00"); nil when it asked for none (now).
    static func when(_ form: Form, strings s: Strings) -> String? {
        let date = ServiceDate(iso: form.date)
        if let date, let clock = WallClock(iso: date.isoString + "T" + form.time + "Z") { return s.dateTime(clock) }
        if let date { return s.date(date) }
        return form.time.isEmpty ? nil : form.time
    }

    static func formHTML(_ form: Form, strings s: Strings, panel: Bool = false) -> HTML {
        func place(_ id: String, _ name: String, label: L10nKey, placeholder: L10nKey, text: String, picked: String, pair: String) -> HTML {
            """
            <div class="journey-field">
            <label class="field-label" for="\(id)">\(s(label))</label>
            <div class="combo">
            <input id="\(id)" name="\(name)" type="search"\(HTML.attribute("value", text)) placeholder="\(s(placeholder))" \
            autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="100" required \
            data-stop-search data-pick="\(id)-id" data-pair="\(pair)">
            <ul id="\(id)-results" class="suggestions" role="listbox" aria-label="\(s(label))" hidden></ul>
            <p class="suggestions-status" id="\(id)-status" hidden></p>
            </div>
            <input type="hidden" id="\(id)-id" name="\(name)Id"\(HTML.attribute("value", picked))>
            </div>
            """
        }
        return """
        <form class="journey-form\(panel ? " panel" : "")" action="\(Links.journeys())" method="get">
        \(place("journey-from", "from", label: .journeyFrom, placeholder: .journeyFromPlaceholder, text: form.fromText, picked: form.fromID, pair: "journey-to"))
        \(place("journey-to", "to", label: .journeyTo, placeholder: .journeyToPlaceholder, text: form.toText, picked: form.toID, pair: "journey-from"))
        <div class="journey-when">
        <div class="journey-field"><label class="field-label" for="journey-date">\(s(.journeyDate))</label>\
        <input id="journey-date" name="date" type="date"\(HTML.attribute("value", form.date))></div>
        <div class="journey-field"><label class="field-label" for="journey-time">\(s(.journeyTime))</label>\
        <input id="journey-time" name="time" type="time"\(HTML.attribute("value", form.time))></div>
        </div>
        <p class="journey-check"><input id="journey-arrive-by" name="arriveBy" type="checkbox" value="1"\(HTML.flag("checked", form.arriveBy))> \
        <label for="journey-arrive-by">\(s(.journeyArriveBy))</label></p>
        <p class="journey-check"><input id="journey-wheelchair" name="wheelchair" type="checkbox" value="1"\(HTML.flag("checked", form.wheelchair))> \
        <label for="journey-wheelchair">\(s(.journeyWheelchair))</label></p>
        <p class="journey-check"><input id="journey-less-crowded" name="lessCrowded" type="checkbox" value="1"\(HTML.flag("checked", form.lessCrowded))> \
        <label for="journey-less-crowded">\(s(.journeyLessCrowded))</label></p>
        <p class="journey-check"><input id="journey-reliable" name="reliable" type="checkbox" value="1"\(HTML.flag("checked", form.reliable))> \
        <label for="journey-reliable">\(s(.journeyReliable))</label></p>
        <button type="submit" class="button button-primary">\(s(.journeySubmit))</button>
        </form>
        """
    }

    /// The options found; for a signed-in person, each with a switch to watch it (`watch`).
    static func results(_ answer: JourneysDTO, strings s: Strings, person: PageContext.Person? = nil) -> HTML {
        guard !answer.journeys.isEmpty else {
            return "<p class=\"empty-state\">\(answer.emptyReason ?? s(.journeyNone))</p>"
        }
        let items = answer.journeys.enumerated().map { n, j in journey(j, strings: s, option: n + 1, watch: person.map { _ in "watch-days-\(n + 1)" }) }
        // What starting a commute posts (the script adds the option and the form's date, time and checks);
        // hidden until the script shows it: commuting needs it.
        return """
        <section class="journeys" aria-labelledby="journeys-heading" data-commute-from="\(answer.from.id)" data-commute-to="\(answer.to.id)"\
        \(watchAttributes(answer, person: person))>
        <h2 id="journeys-heading">\(s(.journeyOptions))</h2>
        <p class="journey-check" data-commute-only hidden><input id="commute-near" type="checkbox"> \
        <label for="commute-near">\(s(.commuteNearStation))</label></p>
        <p class="commute-problem" role="alert" data-commute-problem hidden></p>
        <ol class="journey-list">\(items)</ol>
        </section>
        """
    }

    /// One option; with `option`, its buttons to start commuting on it (shown by the script), and with `watch` (the
    /// ID of its days' choice) its switch to watch it.
    public static func journey(_ j: JourneyDTO, strings s: Strings, option: Int? = nil, watch watchID: String? = nil) -> HTML {
        let changes = j.transfers == 0 ? s(.journeyNoChange) : j.transfers == 1 ? s(.journeyOneChange) : s(.journeyChanges, ["count": String(j.transfers)])
        let minutes = s(.journeyMinutes, ["minutes": String((j.duration + 30) / 60)])
        // Before each ride but the first, after the walk to it: how tight the change is.
        var rides = 0
        let legs = HTML.join(j.legs.map { l -> HTML in
            let shown = leg(_: l, strings: s)
            guard l.kind == "transit" else { return shown }
            defer { rides += 1 }
            guard rides > 0, let changes = j.changes, rides - 1 < changes.count else { return shown }
            return HTML.join([margin(changes[rides - 1], next: l, strings: s), shown])
        })
        return """
        <li class="journey panel">
        <p class="journey-summary"><span class="journey-times"><time datetime="\(j.departure)">\(WallClock.hhmm(j.departure) ?? "")</time> → \
        <time datetime="\(j.arrival)">\(WallClock.hhmm(j.arrival) ?? "")</time></span> <span class="journey-meta">\(minutes) · \(changes)</span></p>
        <ol class="journey-legs">\(legs)</ol>
        \(option.map { n -> HTML in
            """
            <p class="journey-actions" data-commute-only hidden><button type="button" class="button button-primary" data-commute-start="\(String(n))">\
            \(s(.commuteStart))</button> <button type="button" class="button" data-commute-start="\(String(n))" data-simulate>\(s(.commuteTry))</button></p>
            """
        } ?? .empty)
        \(watchID.map { watch(j, id: $0, strings: s) } ?? .empty)
        </li>
        """
    }

    /// What the script needs to watch the options of `answer`: the places, and the person's CSRF token.
    static func watchAttributes(_ answer: JourneysDTO, person: PageContext.Person?) -> HTML {
        guard let person else { return .empty }
        return HTML.attribute("data-watch-csrf", person.csrfToken) + HTML.attribute("data-watch-from", answer.from.id)
            + HTML.attribute("data-watch-to", answer.to.id)
    }

    /// The switch that watches this option ("my 07:40, on weekdays"): the script posts it with the person's push
    /// subscription, and marks the options already watched.
    static func watch(_ j: JourneyDTO, id: String, strings s: Strings) -> HTML {
        let days = [("", s(.watchOnce)), ("mon,tue,wed,thu,fri", s(.watchWeekdays)), ("mon,tue,wed,thu,fri,sat,sun", s(.watchEveryDay))]
        let choices = HTML.join(days.map { value, label in "<option value=\"\(value)\">\(label)</option>" })
        // The timetable's departure when the option starts with a ride (a late train is watched at its own time).
        let departure = j.legs.first.flatMap { $0.kind == "transit" ? $0.departure : nil } ?? j.departure
        return """
        <div class="journey-watch" data-watch-departure="\(departure)" hidden>
        <button type="button" class="button" role="switch" aria-checked="false" data-watch-toggle>\(s(.watchSwitch))</button>
        <label class="field-label" for="\(id)">\(s(.watchRepeat))</label> \
        <select id="\(id)" data-watch-days>\(choices)</select>
        <p class="watch-status" role="status" data-watch-status></p>
        </div>
        """
    }

    /// "4 min to change", or "4 min to change; your train is 2 min late: 2 min" when live times move it.
    static func margin(_ c: JourneyChangeDTO, next: JourneyLegDTO, strings s: Strings) -> HTML {
        if c.staysSeated == true {
            let text = s(.journeyStaySeated, ["line": next.routeShortName ?? "", "headsign": next.headsign ?? ""])
            return "<li class=\"leg leg-margin leg-seated\">\(text)</li>"
        }
        var text = s(.journeyMargin, ["minutes": String(JourneyChangeDTO.minutes(c.marginSeconds))])
        if let change = c.change, let live = c.liveMarginSeconds {
            let why = switch change {
            case .arrivingLate(let m): s(.journeyMarginArrivingLate, ["late": String(m)])
            case .arrivingEarly(let m): s(.journeyMarginArrivingEarly, ["late": String(m)])
            case .leavingLate(let m): s(.journeyMarginLeavingLate, ["late": String(m)])
            case .live: s(.journeyMarginLive)
            }
            text += "; \(why): " + (c.canBeMade ? s(.journeyMinutes, ["minutes": String(JourneyChangeDTO.minutes(live))]) : s(.journeyMarginMissed))
        }
        if c.risky == true, let late = c.usualArrival?.arrivalMedianMinutes {
            text += "<span class=\"risky-change\">\(s(.journeyRisky, ["minutes": String(late)]))</span>"
        }
        return "<li class=\"leg leg-margin\"\(c.isTight ? " data-tight" : "")\(c.risky == true ? " data-risky" : "")>\(text)</li>"
    }

    static func leg(_ leg: JourneyLegDTO, strings s: Strings) -> HTML {
        let minutes = String(((leg.duration ?? 0) + 30) / 60)
        guard leg.kind == "transit" else {
            let text = leg.from.name == leg.to.name && leg.to.platform != nil
                ? s(.journeyChangePlatform, ["platform": leg.to.platform ?? "", "minutes": minutes])
                : s(.journeyWalk, ["stop": leg.to.name, "minutes": minutes])
            return "<li class=\"leg leg-walk\">\(text)</li>"
        }
        let status = RunStatus(api: leg.status ?? "scheduled")
        let badge = LineBadge.render(shortName: leg.routeShortName ?? "", longName: "", color: leg.routeColor, strings: s)
        let service: HTML = leg.tripId.map { id in
            "<a href=\"\(Links.service(id, date: leg.serviceDate))\">\(s(.journeyTowards, ["headsign": leg.headsign ?? ""]))</a>"
        } ?? "\(s(.journeyTowards, ["headsign": leg.headsign ?? ""]))"
        func stop(_ st: JourneyStopDTO) -> HTML {
            let platform: HTML = st.platform.map { " <span class=\"platform\">\(s(.platformNumber, ["platform": $0]))</span>" } ?? .empty
            return "<a href=\"\(Links.board(st.stopId))\">\(st.name)</a>\(platform)"
        }
        return """
        <li class="leg leg-ride">
        <p class="leg-call"><span class="leg-time">\(TimeCell.render(scheduled: leg.departure, expected: leg.expectedDeparture, status: status, strings: s))</span> \
        \(stop(leg.from))</p>
        <p class="leg-service">\(badge) \(service)\(leg.added == true ? " <span class=\"leg-added\">\(s(.journeyAddedTrip))</span>" : "")\
        \(leg.occupancy?.level == nil ? HTML.empty : " " + OccupancyView.badge(leg.occupancy, strings: s))</p>
        <p class="leg-call"><span class="leg-time">\(TimeCell.render(scheduled: leg.arrival, expected: leg.expectedArrival, status: status, strings: s))</span> \
        \(stop(leg.to))</p>
        </li>
        """
    }
}
