import Foundation

extension String {
    /// What a secret is replaced with.
    public static let redactionMark = "•••"

    /// This text with every occurrence of each secret replaced by "•••": for
    /// messages that embed text we do not control (an upstream's error body, a
    /// platform error description) and so might quote a key or a token.
    ///
    /// Each secret is also matched in its percent-encoded forms, as it appears
    /// inside a quoted URL. Empty secrets are ignored (they would match everywhere),
    /// and longer secrets are replaced first, so a secret that contains another is
    /// not left half-shown.
    public func redacting(_ secrets: some Sequence<String>) -> String {
        var forms: Set<String> = []
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            for allowed in [CharacterSet.urlQueryAllowed, .urlPathAllowed, .alphanumerics] {
                if let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) { forms.insert(encoded) }
            }
        }
        var text = self
        for form in forms.sorted(by: { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }) {
            text = text.replacingOccurrences(of: form, with: Self.redactionMark)
        }
        return text
    }

    /// This text with one secret redacted (see `redacting(_:)`).
    public func redacting(_ secret: String) -> String { redacting([secret]) }
}
