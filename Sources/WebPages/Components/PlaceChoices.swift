/// A name the traveller typed that matched several stops (or none): the places it may mean, each a
/// link that asks again with that place picked. The board's "calling at" and the journey planner
/// show the same list.
public enum PlaceChoices {
    /// One place a name may mean.
    public struct Choice: Sendable, Hashable {
        public var id: String
        public var name: String
        public var isStation: Bool

        public init(id: String, name: String, isStation: Bool) { self.id = id; self.name = name; self.isStation = isStation }
    }

    /// What was typed, and what it may mean: several matches, the nearest names, or nothing.
    public struct Problem: Sendable, Hashable {
        public var text: String
        public var choices: [Choice]
        /// The choices are names near the text (it matched none), not places it matched.
        public var nearest: Bool

        public init(text: String, choices: [Choice], nearest: Bool) { self.text = text; self.choices = choices; self.nearest = nearest }
    }

    /// The message and the list; `href` is the address that picks a choice.
    static func html(_ p: Problem, strings s: Strings, href: (Choice) -> String) -> HTML {
        let message: L10nKey = p.choices.isEmpty ? .choiceNone : p.nearest ? .choiceNearest : .choiceSeveral
        let items = p.choices.map { c -> HTML in
            let kind: HTML = c.isStation ? " <span class=\"choice-kind\">\(s(.choiceStation))</span>" : .empty
            return "<li><a href=\"\(href(c))\">\(c.name)</a>\(kind) <span class=\"choice-id\">\(c.id)</span></li>"
        }
        let list: HTML = items.isEmpty ? .empty : "<ul class=\"place-choices\">\(items)</ul>"
        return """
        <div class="place-choice" role="alert">
        <p>\(s(message, ["text": p.text]))</p>
        \(list)
        </div>
        """
    }
}
