import Foundation
import Testing
import WebPages

/// WCAG 2 contrast of the colour tokens used for text, read from the stylesheet itself.
@Suite("Colour contrast")
struct ContrastTests {
    /// The `--color-*: #rrggbb` tokens of the block that starts with `selector {`.
    static func tokens(after selector: String) throws -> [String: String] {
        let css = Assets.css
        let start = try #require(css.range(of: selector + " {"))
        let end = try #require(css.range(of: "}", range: start.upperBound..<css.endIndex))
        var tokens: [String: String] = [:]
        for line in css[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("--color-") else { continue }
            tokens[String(parts[0].dropFirst("--color-".count))] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " ;"))
        }
        return tokens
    }

    static func luminance(_ hex: String) throws -> Double {
        let digits = hex.dropFirst()
        #expect(hex.hasPrefix("#") && digits.count == 6, "\(hex)")
        let value = try #require(Int(digits, radix: 16))
        func linear(_ byte: Int) -> Double {
            let c = Double(byte) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let channels: [Double] = [linear(value >> 16), linear((value >> 8) & 0xFF), linear(value & 0xFF)]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    static func ratio(_ a: String, _ b: String) throws -> Double {
        let (la, lb) = (try luminance(a), try luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    @Test("the formula: black on white is 21:1, and the grey passed stops were drawn in is under 4.5:1")
    func formula() throws {
        #expect(abs(try Self.ratio("#000000", "#ffffff") - 21) < 0.01)
        #expect(try Self.ratio("#7a808c", "#ffffff") < 4.5)
    }

    @Test("every text token is at least 4.5:1 (WCAG AA) on every surface it is drawn on, in both themes",
          arguments: [":root", #":root[data-theme="dark"]"#])
    func textTokens(theme: String) throws {
        let t = try Self.tokens(after: theme)
        let texts = ["text", "muted", "passed", "accent", "on-time", "late", "early", "cancelled", "simulated", "warn-text", "bad-text"]
        for text in texts {
            let fg = try #require(t[text], "--color-\(text) in \(theme)")
            for background in ["bg", "surface", "surface-2"] {
                let bg = try #require(t[background])
                let r = try Self.ratio(fg, bg)
                #expect(r >= 4.5, "\(theme): --color-\(text) \(fg) on --color-\(background) \(bg) is \(r):1")
            }
        }
        for (fg, bg) in [("warn-text", "warn-bg"), ("bad-text", "bad-bg"), ("simulated", "simulated-bg"), ("on-accent", "accent")] {
            let r = try Self.ratio(try #require(t[fg]), try #require(t[bg]))
            #expect(r >= 4.5, "\(theme): --color-\(fg) on --color-\(bg) is \(r):1")
        }
    }

    @Test("passed stops and departed rows are quieter by colour, never by opacity (which takes text under its token's contrast)")
    func noOpacityOnGoneText() {
        let css = Assets.css.replacingOccurrences(of: #"/\*.*?\*/"#, with: "", options: .regularExpression)
        for rule in css.split(separator: "}") where rule.contains(".is-passed") || rule.contains(".is-departed") {
            #expect(!rule.contains("opacity"), "\(rule)")
        }
        #expect(Assets.css.contains(".call.is-passed .call-status .status { color: var(--color-passed); }"))
    }
}
