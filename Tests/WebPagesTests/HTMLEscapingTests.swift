import API
import Testing
@testable import WebPages

@Suite("Escaping")
struct HTMLEscapingTests {
    @Test func escapesMarkupCharacters() {
        #expect(HTML.escape("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
        #expect(HTML.escape("Tom & \"Jerry\"") == "Tom &amp; &quot;Jerry&quot;")
        #expect(HTML.escape("Stasiun MRT Blok M") == "Stasiun MRT Blok M")
        #expect(HTML.escape("&amp;") == "&amp;amp;")
    }

    @Test func escapingKeepsNonASCIITextWhole() {
        #expect(HTML.escape("Gare de l'Est — Café <ü>") == "Gare de l&#39;Est — Café &lt;ü&gt;")
        #expect(HTML.escape("東京駅 & 大阪") == "東京駅 &amp; 大阪")
        #expect(HTML.escape("Bundaran HI"[...]) == "Bundaran HI")
        #expect(HTML.escape("") == "")
    }

    @Test func queryComponentsArePercentEncodedByteByByte() {
        #expect(Links.queryComponent("Blok M & Café/1") == "Blok%20M%20%26%20Caf%C3%A9%2F1")
        #expect(Links.queryComponent("a-b._~Z9") == "a-b._~Z9")
        #expect(Links.percentEncode("/stops/a b", keepingAlso: "/") == "/stops/a%20b")
    }

    @Test func interpolatedTextIsEscapedAndMarkupIsNot() {
        let name = "<b>Evil</b> & \"quoted\""
        let inner: HTML = "<em>ok</em>"
        let html: HTML = "<p title=\"\(name)\">\(name) \(inner)</p>"
        #expect(html.rendered == "<p title=\"&lt;b&gt;Evil&lt;/b&gt; &amp; &quot;quoted&quot;\">&lt;b&gt;Evil&lt;/b&gt; &amp; &quot;quoted&quot; <em>ok</em></p>")
    }

    @Test func attributesAreQuotedAndOmittedWhenNil() {
        #expect(HTML.attribute("data-x", "a\"b").rendered == " data-x=\"a&quot;b\"")
        #expect(HTML.attribute("data-x", nil).rendered == "")
        #expect(HTML.classes("a", nil, "", "b").rendered == " class=\"a b\"")
    }

    @Test func stopNamesFromFeedsCannotInjectMarkup() {
        var board = Fixtures.board()
        board.stop.name = "<script>alert(1)</script> & \"Co\""
        board.departures?[0].headsign = "<img src=x onerror=alert(1)>"
        let page = BoardPage.render(board, context: Fixtures.context())
        #expect(!page.contains("<script>alert(1)"))
        #expect(!page.contains("<img src=x"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
    }

    @Test func idsArePercentEncodedInLinks() {
        #expect(Links.board("A/B C") == "/stops/A%2FB%20C")
        #expect(Links.board("S1", arrivals: true, via: "X&Y") == "/stops/S1?arrivals=1&from=X%26Y")
        #expect(Links.service("T#1", date: "2026-11-23") == "/services/T%231?date=2026-11-23")
        #expect(Links.pathSegment("Ä") == "%C3%84")
    }

    @Test func onlyHTTPLinksFromFeedsAreRendered() {
        #expect(Links.external("https://example.org/x?a=1") == "https://example.org/x?a=1")
        #expect(Links.external(" http://example.org ") == "http://example.org")
        #expect(Links.external("javascript:alert(1)") == nil)
        #expect(Links.external("JaVaScRiPt:alert(1)") == nil)
        #expect(Links.external("data:text/html,<b>") == nil)
        #expect(Links.external("//example.org") == nil)
        #expect(Links.external("https://exa mple.org") == nil)
        #expect(Links.external(nil) == nil)
    }

    @Test func routeColoursAreValidatedAsSixHexDigits() {
        #expect(RouteColor.hex("ca1f47") == "CA1F47")
        #expect(RouteColor.hex("#00A1DE") == "00A1DE")
        #expect(RouteColor.hex("red") == nil)
        #expect(RouteColor.hex("CA1F47;background:url(x)") == nil)
        #expect(RouteColor.hex("12345") == nil)
        #expect(RouteColor.hex(nil) == nil)
        #expect(RouteColor.prefersDarkText("FFD100"))
        #expect(!RouteColor.prefersDarkText("CA1F47"))
        #expect(!RouteColor.prefersDarkText("000000"))
    }
}
