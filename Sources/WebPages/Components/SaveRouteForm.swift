/// A form that changes a signed-in person's routes: it posts to `action` with the session's
/// anti-forgery token and the routes' version the page was made from, and shows as one button.
enum PersonForm {
    static func render(action: String, fields: [(String, String)], label: String, person: PageContext.Person, cssClass: String = "button",
                       current: Bool = false) -> HTML {
        let hidden = HTML.join(([("_csrf", person.csrfToken), ("version", String(person.routesVersion))] + fields).map { name, value in
            "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">"
        })
        return """
        <form class="person-form" method="post" action="\(action)">\(hidden)<button type="submit" class="\(cssClass)"\
        \(HTML.attribute("aria-current", current ? "page" : nil))>\(label)</button></form>
        """
    }

    /// "Save this board" or "Save this journey", for a signed-in reader.
    static func save(_ fields: [(String, String)], label: L10nKey, context: PageContext) -> HTML {
        guard let person = context.person else { return .empty }
        return "<div class=\"save-route\">\(render(action: "/me/routes", fields: fields, label: context.strings(label), person: person))</div>"
    }
}
