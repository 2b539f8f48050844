import NationalRail
import Testing

/// NRCC HTML reduced to safe plain text, with its link.
@Suite struct DarwinTextTests {
    @Test func tagsEntitiesAndSpace() {
        let m = DarwinMessage(html: "<P>Trains&nbsp;to <b>Leeds</b>\n   are   delayed.</P><p>See <a href='https://example.org/a?b=1&amp;c=2'>here</a>.</p>")
        #expect(m.text == "Trains to Leeds are delayed. See here.")
        #expect(m.url == "https://example.org/a?b=1&c=2")
    }

    @Test func scriptsAndUnsafeLinksGo() {
        let m = DarwinMessage(html: "Hello<script>alert('x')</script> <style>p{}</style>world <a href=\"javascript:alert(1)\">x</a>")
        #expect(m.text == "Hello world x")
        #expect(m.url == nil)
    }

    @Test func escapedMarkupStaysText() {
        // Entities are decoded after the tags are gone: "&lt;b&gt;" is text, not a tag.
        let m = DarwinMessage(html: "Use &lt;b&gt; for bold &amp; &#8220;quotes&#x201D; &pound;5 &unknown; a&b")
        #expect(m.text == "Use <b> for bold & \u{201C}quotes\u{201D} £5 &unknown; a&b")
    }

    @Test func unterminatedTagIsText() {
        #expect(DarwinMessage(html: "3 < 4 and done").text == "3 < 4 and done")
        #expect(DarwinMessage(html: "   ").text.isEmpty)
    }
}
