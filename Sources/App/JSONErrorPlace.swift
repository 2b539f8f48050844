import Foundation

/// Where a JSON document stopped parsing, for a person to find it: "line 3, column 10: invalid value".
/// Foundation says "around line L, column C" on Darwin but only "around character N" (a byte offset)
/// on Linux, and "Unexpected end of file" when the document stops short; lines and columns count
/// from 1, a column in characters.
func jsonErrorPlace(_ error: any Error, in data: Data) -> String {
    let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
    let reason = (said.components(separatedBy: " around ").first ?? said).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        .replacingOccurrences(of: " during JSON parse", with: "").lowercased()
    if let match = said.firstMatch(of: /line (\d+), column (\d+)/) { return "line \(match.1), column \(match.2): \(reason)" }
    let offset = said.firstMatch(of: /character (\d+)/).flatMap { Int($0.1) }.map { min($0, data.count) }
        ?? (said.localizedCaseInsensitiveContains("end of file") ? data.count : nil)
    guard let offset else { return reason }
    let before = data.prefix(offset)
    let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
    let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
    let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
    return "line \(line), column \(column): \(reason)"
}
