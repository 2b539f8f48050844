import OnwardCore

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
    /// service that has been and gone at an arrivals board. With the scheduled and
    /// expected times (API text), the minutes are those the two times shown differ by.
    func text(delaySeconds: Int?, arrivals: Bool = false, scheduled: String? = nil, expected: String? = nil, strings s: Strings) -> String {
        let minutes = String(Self.minutes(delaySeconds: delaySeconds, scheduled: scheduled, expected: expected))
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

    /// Minutes late or early: the difference of the two HH:MM readings shown (each time
    /// floored to its minute), else the delay's whole minutes.
    static func minutes(delaySeconds: Int?, scheduled: String?, expected: String?) -> Int {
        if let sched = scheduled.flatMap(WallClock.init(iso:)), let exp = expected.flatMap(WallClock.init(iso:)) {
            return abs(Instant.minutesAsShown(from: sched.instant, to: exp.instant))
        }
        return abs(delaySeconds ?? 0) / 60
    }

    func badge(delaySeconds: Int?, arrivals: Bool = false, scheduled: String? = nil, expected: String? = nil, strings s: Strings) -> HTML {
        let words = text(delaySeconds: delaySeconds, arrivals: arrivals, scheduled: scheduled, expected: expected, strings: s)
        return "<span class=\"status \(cssClass)\">\(words)</span>"
    }
}

/// The time a traveller goes by, large: the scheduled time, or, when the expected
/// time reads differently, the expected time with the scheduled one struck through
/// beside it (a board is in expected-time order, so its large times are too).
enum TimeCell {
    static func render(scheduled: String?, expected: String?, status: RunStatus, strings s: Strings) -> HTML {
        guard let sched = scheduled.flatMap(WallClock.init(iso:)) else {
            // A source with predictions only (the bus tracker): the predicted time is the time.
            guard let exp = expected.flatMap(WallClock.init(iso:)) else { return .empty }
            return "<span class=\"visually-hidden\">\(s(.expected)) </span><time class=\"time-scheduled\" datetime=\"\(expected)\">\(exp.hhmm)</time>"
        }
        if status.showsExpectedTime, let exp = expected.flatMap(WallClock.init(iso:)), exp.hhmm != sched.hhmm {
            return """
            <span class="visually-hidden">\(s(.expected)) </span><time class="time-expected \(status.cssClass)" datetime="\(expected)">\
            \(exp.hhmm)</time> <span class="time-was"><span class="visually-hidden">\(s(.scheduled)) </span>\
            <s><time datetime="\(scheduled)">\(sched.hhmm)</time></s></span>
            """
        }
        var schedHTML: HTML = "<time class=\"time-scheduled\" datetime=\"\(scheduled)\">\(sched.hhmm)</time>"
        if status.isStruck { schedHTML = "<s>\(schedHTML)</s>" }
        return "<span class=\"visually-hidden\">\(s(.scheduled)) </span>\(schedHTML)"
    }
}
