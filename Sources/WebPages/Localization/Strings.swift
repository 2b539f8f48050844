import OnwardCore

/// The string table of one language: `strings(.statusOnTime)`, or with
/// placeholders filled, `strings(.statusLate, ["minutes": "5"])`.
public struct Strings: Sendable {
    public let language: Language

    public init(_ language: Language) { self.language = language }

    /// The template as the table holds it, placeholders unfilled.
    public static func template(_ key: L10nKey, in language: Language) -> String {
        switch language {
        case .en: english(key)
        case .id: indonesian(key)
        }
    }

    /// The text for a key that takes no arguments.
    public func callAsFunction(_ key: L10nKey) -> String { Strings.template(key, in: language) }

    /// The text for a key with its `{name}` placeholders filled in. Values are
    /// plain text: the page escapes them along with the rest.
    public func callAsFunction(_ key: L10nKey, _ values: KeyValuePairs<String, String>) -> String {
        // One pass over the template: a value that happens to contain "{time}" stays as it is.
        let template = Strings.template(key, in: language)
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let name = rest[rest.index(after: open)..<close]
            if let value = values.first(where: { $0.key == name })?.value { out += value } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The names of a template's placeholders, in order of appearance.
    public static func placeholders(in template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            names.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return names
    }

    // MARK: Dates

    /// A service date for a heading: "Mon 23 Nov 2026", "Sen, 23 Nov 2026".
    public func date(_ date: ServiceDate) -> String {
        let (year, month, day) = date.components
        return self(.dateFormat, ["weekday": weekday(date.weekdayIndex), "day": String(day),
                                  "month": monthName(month), "year": String(year)])
    }

    /// A date and wall-clock time: "Mon 23 Nov 2026, 07:30".
    public func dateTime(_ time: WallClock) -> String {
        self(.dateTimeFormat, ["date": date(time.date), "time": time.hhmm])
    }

    func weekday(_ index: Int) -> String {
        let keys: [L10nKey] = [.weekdayMonday, .weekdayTuesday, .weekdayWednesday, .weekdayThursday,
                               .weekdayFriday, .weekdaySaturday, .weekdaySunday]
        return self(keys[((index % 7) + 7) % 7])
    }

    func monthName(_ month: Int) -> String {
        let keys: [L10nKey] = [.monthJanuary, .monthFebruary, .monthMarch, .monthApril, .monthMay, .monthJune,
                               .monthJuly, .monthAugust, .monthSeptember, .monthOctober, .monthNovember, .monthDecember]
        return self(keys[max(1, min(12, month)) - 1])
    }
}
