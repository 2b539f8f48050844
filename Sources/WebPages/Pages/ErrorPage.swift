import OnwardCore

/// Pages for when something is missing or wrong. They say what a traveller
/// can do next, from the string table: never an error's own text.
public enum ErrorPage {
    /// A page for an HTTP status: 400, 404, 429, 503 and anything else as a
    /// server-side problem.
    /// - Parameter address: the address asked for, so the language switch stays on it.
    public static func render(status: Int, context: PageContext, address: PageAddress = PageAddress(path: Links.home)) -> String {
        let s = context.strings
        let message: L10nKey = switch status {
        case 404, 410: .errorNotFound
        case 429: .errorRateLimited
        case 503: .errorUnavailable
        case 400..<500: .errorBadRequest
        default: .errorInternal
        }
        let title = status == 404 ? s(.notFoundTitle) : s(.errorTitle)
        return page(title: title, code: status, message: s(message), search: status == 404, context: context, address: address)
    }

    /// 404 for a stop ID that names nothing.
    public static func stopNotFound(_ stopID: String, context: PageContext) -> String {
        let s = context.strings
        return page(title: s(.notFoundTitle), code: 404, message: s(.notFoundStop, ["id": stopID]), search: true, context: context,
                    address: PageAddress(path: "/stops/" + Links.pathSegment(stopID)))
    }

    /// 404 for a trip ID that names nothing.
    public static func serviceNotFound(_ tripID: String, context: PageContext) -> String {
        let s = context.strings
        return page(title: s(.notFoundTitle), code: 404, message: s(.notFoundService, ["id": tripID]), search: true, context: context,
                    address: PageAddress(path: "/services/" + Links.pathSegment(tripID)))
    }

    /// 404 for a trip that exists but does not run on the date asked for.
    public static func serviceNotRunning(_ tripID: String, date: String, context: PageContext) -> String {
        let s = context.strings
        let dateText = ServiceDate(iso: date).map { s.date($0) } ?? date
        return page(title: s(.notFoundTitle), code: 404, message: s(.notFoundNotRunning, ["id": tripID, "date": dateText]),
                    search: true, context: context,
                    address: PageAddress(path: "/services/" + Links.pathSegment(tripID), query: [.init("date", date)]))
    }

    /// 404 for a name typed into a page (a board's "calling at") that names several stops, or none:
    /// the places it may mean, each a link to the same page with that place picked.
    public static func choose(_ problem: PlaceChoices.Problem, parameter: String, context: PageContext, address: PageAddress) -> String {
        let s = context.strings
        let main: HTML = """
        <section class="error-page">
        <h1>\(s(.choiceTitle))</h1>
        \(PlaceChoices.html(problem, strings: s) { address.with(parameter, $0.id) })
        <p><a class="button" href="\(Links.home)">\(s(.errorGoHome))</a></p>
        </section>
        """
        return Layout.document(title: s(.choiceTitle), context: context, address: address, bodyClass: "page-error", main: main)
    }

    static func page(title: String, code: Int, message: String, search: Bool, context: PageContext, address: PageAddress) -> String {
        let s = context.strings
        let searchForm: HTML = search ? StopSearch.form(
            id: "q", name: "q", label: s(.notFoundSearch), placeholder: s(.searchPlaceholder), value: nil,
            action: Links.search, target: "/stops/{id}", button: s(.searchButton)) : .empty
        let main: HTML = """
        <section class="error-page">
        <p class="eyebrow">\(s(.errorStatus, ["code": String(code)]))</p>
        <h1>\(title)</h1>
        <p class="lede">\(message)</p>
        \(searchForm)
        <p><a class="button" href="\(Links.home)">\(s(.errorGoHome))</a></p>
        </section>
        """
        return Layout.document(title: title, context: context, address: address, bodyClass: "page-error",
                               main: main)
    }
}
