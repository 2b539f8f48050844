import Foundation

/// Folds text for search: lower case, accents removed, punctuation as spaces.
/// "Bundarán HI" and "bundaran-hi" both fold to "bundaran hi".
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                out.append(scalar); lastWasSpace = false
            } else if !lastWasSpace {
                out.append(" "); lastWasSpace = true
            }
        }
        var s = String(out)
        if s.hasSuffix(" ") { s.removeLast() }
        return s
    }

    public static func words(_ text: String) -> [Substring] {
        fold(text).split(separator: " ")
    }
}
