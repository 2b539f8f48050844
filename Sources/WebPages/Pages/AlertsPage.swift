import API
import OnwardCore

/// All alerts active now, or those for one stop or route.
public enum AlertsPage {
    /// - Parameter names: names for the routes and stops the alerts refer to by ID.
    public static func render(_ alerts: AlertsDTO, context: PageContext, names: EntityNames = EntityNames()) -> String {
        let s = context.strings
        let title: String
        var query: [PageAddress.Pair] = []
        if let stop = alerts.stop {
            title = s(.alertsTitleStop, ["stop": stop.name])
            query.append(.init("stop", stop.id))
        } else if let route = alerts.routeId {
            title = s(.alertsTitleRoute, ["route": names.routes[route] ?? route])
            query.append(.init("route", route))
        } else {
            title = s(.alertsTitle)
        }
        let list: HTML = alerts.alerts.isEmpty ? "<p class=\"empty-state\">\(s(.alertsNone))</p>"
            : AlertView.list(alerts.alerts, headingLevel: 2, names: names, strings: s)
        let inactive: HTML = alerts.inactiveCount > 0
            ? "<p class=\"note-line\">\(s(.alertsInactive, ["count": String(alerts.inactiveCount)]))</p>" : .empty
        let back: HTML = alerts.stop.map { stop in
            "<p class=\"eyebrow\"><a href=\"\(Links.board(stop.id))\">\(stop.name)</a></p>"
        } ?? .empty
        let main: HTML = """
        <div class="page-head">
        \(back)
        <h1>\(title)</h1>
        </div>
        \(list)
        \(inactive)
        """
        return Layout.document(title: title, context: context, address: PageAddress(path: Links.alerts, query: query),
                               section: .alerts, bodyClass: "page-alerts", main: main)
    }
}
