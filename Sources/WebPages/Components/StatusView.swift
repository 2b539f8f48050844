/// How a service is running, as words and a colour class. The API sends the
/// status as a string (`LiveStatus` raw values) with the delay in seconds.
enum RunStatus: String, Sendable {
    case scheduled, noLiveData, onTime, late, delayed, early, cancelled, skipped, departed

    /// Unknown values read as timetable-only: never claim live data we do not understand.
    init(api text: String) { self = RunStatus(rawValue: text) ?? .scheduled }

    /// Struck through on the page (still shown, never hidden).
    var isStruck: Bool { self == .cancelled || self == .skipped }

    /// The CSS class that colours it.
    var cssClass: String {
        switch self {
        case .scheduled, .noLiveData: "status-muted"
        case .onTime: "status-on-time"
        case .late, .delayed: "status-late"
        case .early: "status-early"
        case .cancelled, .skipped: "status-cancelled"
        case .departed: "status-departed"
        }
    }

    /// The words: "On time", "Late 5 min", … `arrivals` says "Arrived" for a
    /// service that has been and gone at an arrivals board.
    func text(delaySeconds: Int?, arrivals: Bool = false, strings s: Strings) -> String {
        let minutes = String(abs(delaySeconds ?? 0) / 60)
        return switch self {
        case .scheduled: s(.statusScheduled)
        case .noLiveData: s(.statusNoLiveData)
        case .onTime: s(.statusOnTime)
        case .late: s(.statusLate, ["minutes": minutes])
        case .delayed: s(.statusDelayed)
        case .early: s(.statusEarly, ["minutes": minutes])
        case .cancelled: s(.statusCancelled)
        case .skipped: s(.statusSkipped)
        case .departed: s(arrivals ? .statusArrived : .statusDeparted)
        }
    }

    /// Whether an expected time differing from the scheduled one is worth showing beside it.
    var showsExpectedTime: Bool { self == .late || self == .early || self == .departed }

    func badge(delaySeconds: Int?, arrivals: Bool = false, strings s: Strings) -> HTML {
        "<span class=\"status \(cssClass)\">\(text(delaySeconds: delaySeconds, arrivals: arrivals, strings: s))</span>"
    }
}

/// A scheduled time with the expected one beside it when they differ.
enum TimeCell {
    static func render(scheduled: String?, expected: String?, status: RunStatus, strings s: Strings) -> HTML {
        guard let sched = scheduled.flatMap(WallClock.init(iso:)) else {
            // A source with predictions only (the bus tracker): the predicted time is the time.
            guard let exp = expected.flatMap(WallClock.init(iso:)) else { return .empty }
            return "<span class=\"visually-hidden\">\(s(.expected)) </span><time class=\"time-scheduled\" datetime=\"\(expected)\">\(exp.hhmm)</time>"
        }
        var schedHTML: HTML = "<time class=\"time-scheduled\" datetime=\"\(scheduled)\">\(sched.hhmm)</time>"
        if status.isStruck { schedHTML = "<s>\(schedHTML)</s>" }
        var out: HTML = "<span class=\"visually-hidden\">\(s(.scheduled)) </span>\(schedHTML)"
        if status.showsExpectedTime, let exp = expected.flatMap(WallClock.init(iso:)), exp.hhmm != sched.hhmm {
            out += """
             <span class="time-expected \(status.cssClass)"><span class="visually-hidden">\(s(.expected)) </span>\
            <time datetime="\(expected)">\(exp.hhmm)</time></span>
            """
        }
        return out
    }
}
