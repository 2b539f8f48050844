import API
import OnwardCore

/// "Trips": the trips the person is on, and the forms to make one or join one by its code. Both
/// forms work without a script (posted, answered with a redirect).
public enum TripsPage {
    public static func render(_ trips: [TripDTO], code: String?, notice: String?, context: PageContext) -> String {
        let s = context.strings
        let csrf = context.person?.csrfToken ?? ""
        let list: HTML = trips.isEmpty
            ? "<p class=\"empty-state\">\(s(.tripsEmpty))</p>"
            : "<ul class=\"trip-list\">\(HTML.join(trips.map { t in "<li><a href=\"\(Links.trip(t.id))\">\(t.name)</a> <span class=\"muted\">\(s(t.role == "host" ? .tripsHost : .tripsTraveller))</span></li>" }))</ul>"
        let noticeHTML: HTML = notice.map { "<p class=\"form-problem\" role=\"alert\">\($0)</p>" } ?? .empty
        let main: HTML = """
        <div class="page-head"><h1>\(s(.tripsTitle))</h1></div>
        \(noticeHTML)
        \(list)
        <section class="card"><h2>\(s(.tripsJoin))</h2>
        <form method="post" action="/trips/join"><input type="hidden" name="_csrf" value="\(csrf)">
        <p class="form-field"><label class="field-label" for="trip-code">\(s(.tripsCode))</label>\
        <input id="trip-code" name="code" type="text" required maxlength="40" autocomplete="off" autocapitalize="characters"\(HTML.attribute("value", code))></p>
        <button type="submit" class="button">\(s(.tripsJoin))</button></form></section>
        <section class="card"><h2>\(s(.tripsCreate))</h2>
        <form method="post" action="/trips"><input type="hidden" name="_csrf" value="\(csrf)">
        <p class="form-field"><label class="field-label" for="trip-name">\(s(.tripsName))</label>\
        <input id="trip-name" name="name" type="text" required maxlength="80"></p>
        <p class="form-field"><label class="field-label" for="trip-days">\(s(.tripsDays))</label>\
        <input id="trip-days" name="days" type="number" min="1" max="60" value="7" required></p>
        <button type="submit" class="button">\(s(.tripsCreate))</button></form></section>
        """
        return Layout.document(title: s(.tripsTitle), context: context, address: PageAddress(path: Links.trips), section: .trips,
                               bodyClass: "page-trips", main: main)
    }
}
