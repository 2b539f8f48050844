import API
import OnwardCore

/// Commuting mode: the journey being made, the alerts so far, and the switches for
/// notifications and location. Which commute is in the address's fragment (`/commute#ID`);
/// the script follows it over the live channel and fills the page.
public enum CommutePage {
    public static func render(context: PageContext) -> String {
        let s = context.strings
        let main: HTML = """
        <div class="page-head">
        <h1>\(s(.commuteTitle))</h1>
        <p class="connection" data-connection hidden></p>
        </div>
        <section class="commute" data-commute-page>
        <p class="commute-intro">\(s(.commuteIntro))</p>
        <p class="commute-none empty-state" data-commute-none hidden>\(s(.commuteNone)) <a href="\(Links.journeys())">\(s(.navJourney))</a></p>
        <noscript><p class="empty-state">\(s(.commuteNone))</p></noscript>
        <div class="commute-banner" role="alert" data-commute-banner hidden></div>
        <p class="commute-state" data-commute-state></p>
        <div class="commute-journey" data-commute-journey></div>
        <div class="commute-actions" data-commute-actions hidden>
        <button type="button" class="button" data-commute-notify>\(s(.commuteNotify))</button>
        <button type="button" class="button" data-commute-locate aria-pressed="false">\(s(.commuteLocate))</button>
        <button type="button" class="button" data-commute-stop>\(s(.commuteStop))</button>
        </div>
        <p class="commute-delivery" data-commute-delivery></p>
        <h2>\(s(.commuteAlerts))</h2>
        <ol class="commute-alerts" data-commute-alerts aria-live="polite"><li class="commute-alert-empty">\(s(.commuteNoAlerts))</li></ol>
        </section>
        """
        return Layout.document(title: s(.commuteTitle), context: context, address: PageAddress(path: Links.commute(), query: []),
                               section: .journey, bodyClass: "page-commute", main: main)
    }

    /// The journey part of the page, as the live channel sends it (`html`).
    public static func journeyFragment(_ c: CommuteDTO, strings s: Strings) -> String {
        "<ol class=\"journey-list\">\(JourneyPage.journey(c.journey, strings: s))</ol>"
    }
}
