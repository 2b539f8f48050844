import Foundation

extension JSONEncoder {
    /// How every wire type is written (the API, live messages, the CLI's `--json`, stored commute
    /// state): keys sorted, so output compares byte for byte, and slashes left as they are.
    public static let api: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
}
