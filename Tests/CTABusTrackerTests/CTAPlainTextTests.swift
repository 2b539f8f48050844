@testable import CTABusTracker
import Testing

/// Bulletin texts are HTML fragments; what leaves the adapter is plain text.
@Suite struct CTAPlainTextTests {
    @Test(arguments: [
        ("street blockage.<br/><br/>Allow extra travel time.<br/>", "street blockage.\n\nAllow extra travel time."),
        ("Line one<BR>Line two<br />Line three", "Line one\nLine two\nLine three"),
        ("Clark &amp; Addison &#8211; &#x2019;s &nbsp; stop", "Clark & Addison – ’s stop"),
        ("<p>Hello <a href=\"https://example.com\">world</a></p>", "Hello world"),
        ("before<script type=\"text/javascript\">alert('x')</script>after", "beforeafter"),
        ("a <style>p { color: red }</style>b", "a b"),
        // Escaped twice, as JSON may carry it: still no markup.
        ("&lt;b&gt;bold&lt;/b&gt; &amp;lt;br/&amp;gt;next", "bold\nnext"),
        ("if a < b and c > d", "if a < b and c > d"),
        ("\u{2022}\tThe northbound stop\t\tmoves", "\u{2022} The northbound stop moves"),
        ("&unknown; & stays", "&unknown; & stays"),
        ("   \n\n\n  ", ""),
        ("never closed <b", "never closed <b"),
    ])
    func htmlBecomesPlainText(_ html: String, _ text: String) {
        #expect(CTAPlainText.fromHTML(html) == text)
    }
}
