import API
import OnwardCore

/// One trip: its live map (Leaflet, with Onward's own layers: the ski area, streets, transit), sharing
/// one's position, events with RSVP, the trip's chat and the hosts' broadcasts. The script
/// (`/assets/trip.js`) draws and follows `/live?trip=ID`; the server renders the frame, the members
/// and the forms, and every text the script shows comes from here, in the page's language.
public enum TripPage {
    public struct Model: Sendable {
        public var trip: TripDTO
        public var me: String
        public var members: [TripMembersDTO.Member]
        /// The operator's base tiles, if any.
        public var tileURL: String?
        public var tileAttribution: String?
        /// Whether a ski area is loaded (the mountain map and ski routing).
        public var skiArea: Bool
        public init(trip: TripDTO, me: String, members: [TripMembersDTO.Member], tileURL: String?, tileAttribution: String?, skiArea: Bool) {
            self.trip = trip; self.me = me; self.members = members; self.tileURL = tileURL; self.tileAttribution = tileAttribution; self.skiArea = skiArea
        }
    }

    static let scriptTexts: [L10nKey] = [.tripGoing, .tripMaybe, .tripNotGoing, .tripMountain, .tripStreet, .tripPause, .tripResume, .tripOlder,
                                         .tripEventPlace, .tripNoTiles, .tripSkiRoute, .tripNotifyOn,
                                         // Times in chat, events and broadcasts: the table's weekday and a 24-hour clock.
                                         .weekdayMonday, .weekdayTuesday, .weekdayWednesday, .weekdayThursday, .weekdayFriday,
                                         .weekdaySaturday, .weekdaySunday]

    public static func render(_ m: Model, context: PageContext) -> String {
        let s = context.strings
        let csrf = context.person?.csrfToken ?? ""
        let isHost = m.trip.role == "host"
        let texts = HTML.join(scriptTexts.map { HTML.attribute("data-t-" + $0.rawValue.split(separator: ".").joined(separator: "-"), s($0)) })
        let invite: HTML = m.trip.inviteCode.map { code in
            "<p class=\"trip-invite\">\(s(.tripInvite, ["code": code])) <code>/trips/join?code=\(code)</code></p>"
        } ?? .empty
        let members = HTML.join(m.members.map { member in
            "<li data-person=\"\(member.id)\">\(member.displayName)\(member.role == "host" ? HTML(trusted: " <span class=\"muted\">· \(s(.tripsHost))</span>") : .empty)</li>"
        })
        let hostTools: HTML = isHost ? """
        <section class="card trip-broadcast"><h2>\(s(.tripBroadcast))</h2>
        <form id="broadcast-form"><p class="form-field"><label class="field-label" for="broadcast-text">\(s(.tripMessage))</label>\
        <input id="broadcast-text" name="text" type="text" required maxlength="500"></p>
        <button type="submit" class="button">\(s(.tripSend))</button></form></section>
        <form method="post" action="\(Links.trip(m.trip.id))/simulate" class="trip-simulate"><input type="hidden" name="_csrf" value="\(csrf)">\
        <button type="submit" class="button button-secondary">\(s(.tripSimulate))</button></form>
        """ : .empty
        let options = HTML.join([("15", s(.tripShare15)), ("60", s(.tripShare60)), ("480", s(.tripShare480)), ("trip", s(.tripShareTrip))].map {
            "<option value=\"\($0.0)\"\($0.0 == "60" ? HTML(trusted: " selected") : .empty)>\($0.1)</option>"
        })
        let levels = HTML.join(["novice", "easy", "intermediate", "advanced", "expert"].map { "<option value=\"\($0)\">\($0)</option>" })
        let skiRoute: HTML = m.skiArea ? """
        <p class="ski-route-controls"><label for="ski-level">\(s(.tripSkiRoute))</label> <select id="ski-level">\(levels)</select></p>
        <ol id="ski-legs" class="ski-legs" aria-live="polite"></ol>
        """ : .empty
        let main: HTML = """
        <div class="page-head"><h1>\(m.trip.name)</h1><p class="connection" data-connection hidden></p></div>
        \(invite)
        <section class="trip-map-section" aria-label="\(s(.tripMap))">
        <p class="map-mode"><span id="map-mode">\(s(.tripStreet))</span></p>
        <div id="trip-map" class="trip-map"></div>
        <div class="share-controls">
        <label for="share-for">\(s(.tripShare))</label> <select id="share-for">\(options)</select>
        <button type="button" id="share-button" class="button">\(s(.tripShare))</button>
        <button type="button" id="pause-button" class="button button-secondary" hidden>\(s(.tripPause))</button>
        <label for="radius">\(s(.tripRadius))</label> <input id="radius" type="number" min="1" max="100000" step="100" value="2000">
        </div>
        \(skiRoute)
        </section>
        <section class="card trip-broadcasts"><h2>\(s(.tripBroadcasts))</h2><ul id="broadcasts" class="broadcasts"></ul>
        <button type="button" id="push-button" class="button button-secondary" hidden>\(s(.tripNotify))</button></section>
        <section class="card trip-events"><h2>\(s(.tripEvents))</h2>
        <ul id="events" class="events"></ul>
        <details class="new-event"><summary>\(s(.tripNewEvent))</summary>
        <form id="event-form">
        <p class="form-field"><label class="field-label" for="event-title">\(s(.tripEventTitle))</label><input id="event-title" type="text" required maxlength="120"></p>
        <p class="form-field"><label class="field-label" for="event-at">\(s(.tripEventAt))</label><input id="event-at" type="datetime-local" required></p>
        <p class="form-field"><label class="field-label" for="event-details">\(s(.tripEventDetails))</label><textarea id="event-details" maxlength="2000" rows="2"></textarea></p>
        <p class="form-field"><label class="field-label" for="event-audience">\(s(.tripAudience))</label><select id="event-audience">\
        <option value="nearby">\(s(.tripAudienceNearby))</option><option value="friends" selected>\(s(.tripAudienceFriends))</option>\
        <option value="chosen">\(s(.tripAudienceChosen))</option></select></p>
        <fieldset id="event-people" class="event-people" hidden><legend>\(s(.tripAudienceChosen))</legend></fieldset>
        <p class="event-place" id="event-place">\(s(.tripEventPlace))</p>
        <button type="submit" class="button">\(s(.tripSend))</button>
        </form></details></section>
        <section class="card trip-chat"><h2>\(s(.tripChat))</h2>
        <p class="chat-with"><label for="chat-with">\(s(.tripChatWith))</label> <select id="chat-with"></select></p>
        <button type="button" id="chat-older" class="link-button" hidden>\(s(.tripOlder))</button>
        <ol id="chat-log" class="chat-log" aria-live="polite"></ol>
        <form id="chat-form"><label class="visually-hidden" for="chat-text">\(s(.tripMessage))</label>\
        <input id="chat-text" type="text" required maxlength="2000" autocomplete="off"> <button type="submit" class="button">\(s(.tripSend))</button></form>
        </section>
        <section class="card"><h2>\(s(.tripMembers))</h2><ul id="members" class="members">\(members)</ul></section>
        \(hostTools)
        <form method="post" action="\(Links.trip(m.trip.id))/leave" class="trip-leave"><input type="hidden" name="_csrf" value="\(csrf)">\
        <button type="submit" class="button button-danger">\(s(.tripLeave))</button></form>
        <link rel="stylesheet" href="\(Assets.leafletBase)/leaflet.css?v=\(Assets.mapVersion)">
        <script src="\(Assets.leafletBase)/leaflet.js?v=\(Assets.mapVersion)" defer></script>
        <script src="\(Assets.versioned(Assets.tripScript.path))" defer></script>
        """
        let attributes: HTML = """
         data-trip="\(m.trip.id)"\(HTML.attribute("data-trip-name", m.trip.name)) data-me="\(m.me)" data-role="\(m.trip.role)" data-csrf="\(csrf)" data-ends="\(m.trip.endsAt)"\
        \(HTML.attribute("data-tiles", m.tileURL))\(HTML.attribute("data-tile-attribution", m.tileAttribution))\
         data-ski="\(m.skiArea ? "1" : "0")"\(texts)
        """
        return Layout.document(title: m.trip.name, context: context, address: PageAddress(path: Links.trip(m.trip.id)), section: .trips,
                               bodyClass: "page-trip", mainAttributes: attributes, main: main)
    }
}
