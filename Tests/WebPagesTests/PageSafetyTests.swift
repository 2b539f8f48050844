import Foundation
import Testing
import WebPages

/// Checks over every page the module renders: what the Content-Security-Policy
/// forbids never appears, and no text is left untranslated.
@Suite("Every page")
struct PageSafetyTests {
    static let pages = Fixtures.allPages()

    @Test func noInlineScriptsStylesOrHandlers() throws {
        let inlineScript = try Regex(#"<script(?![^>]*\ssrc=)[^>]*>"#).ignoresCase()
        let styleAttribute = try Regex(#"<[^>]+\sstyle\s*="#).ignoresCase()
        let styleElement = try Regex(#"<style[\s>]"#).ignoresCase()
        let handler = try Regex(#"<[^>]+\son[a-z]+\s*="#).ignoresCase()
        let jsURL = try Regex(#"(href|src|action)\s*=\s*"\s*javascript:"#).ignoresCase()
        for (name, html) in Self.pages {
            #expect(html.firstMatch(of: inlineScript) == nil, "\(name): inline script")
            #expect(html.firstMatch(of: styleAttribute) == nil, "\(name): style attribute")
            #expect(html.firstMatch(of: styleElement) == nil, "\(name): style element")
            #expect(html.firstMatch(of: handler) == nil, "\(name): inline event handler")
            #expect(html.firstMatch(of: jsURL) == nil, "\(name): javascript: URL")
        }
    }

    @Test func noUnrenderedKeysOrPlaceholders() throws {
        let placeholder = try Regex(#"\{[a-z]+\}"#)
        // The script's own texts (`data-t-*` on <body>) are templates on purpose: it fills them.
        let scriptTexts = try Regex(#"\sdata-t-[a-z-]+="[^"]*""#)
        for (name, page) in Self.pages {
            let html = page.replacing(scriptTexts, with: "")
            for key in L10nKey.allCases {
                #expect(!html.contains(key.rawValue), "\(name) shows the key \(key.rawValue)")
            }
            // `{id}` is the one placeholder pages carry on purpose: the script fills it in a link template.
            let leftovers = html.matches(of: placeholder).map { String(html[$0.range]) }.filter { $0 != "{id}" }
            #expect(leftovers.isEmpty, "\(name) has unfilled \(leftovers)")
        }
    }

    @Test func fullPagesHaveTheFrame() {
        for (name, html) in Self.pages where !name.contains("fragment") {
            #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"), "\(name)")
            #expect(html.contains("data-theme=\"dark\""), "\(name)")
            #expect(html.contains("id=\"live-status\""), "\(name)")
            #expect(html.contains("<main id=\"main\""), "\(name)")
            #expect(html.contains("Timetable: MRT Jakarta (CC BY 4.0)"), "\(name)")
            #expect(html.components(separatedBy: "<h1").count == 2, "\(name): one h1")
        }
    }

    @Test func englishPagesHaveNoIndonesianChromeAndViceVersa() {
        for (name, html) in Self.pages where !name.contains("fragment") {
            if name.hasSuffix("-en") {
                #expect(html.contains("<html lang=\"en\""), "\(name)")
                #expect(!html.contains(">Beranda<"), "\(name)")
            } else {
                #expect(html.contains("<html lang=\"id\""), "\(name)")
                #expect(html.contains(">Beranda<"), "\(name)")
                #expect(!html.contains(">Home<"), "\(name)")
            }
        }
    }
}
