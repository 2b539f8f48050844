import API
import Foundation

/// Styling for a terminal: colour only when the stream is a terminal that
/// wants it (not `NO_COLOR`, not `TERM=dumb`), so piped output stays plain.
struct Terminal {
    let colour: Bool
    let isTTY: Bool

    static let stdout = Terminal(fd: STDOUT_FILENO)
    static let stderr = Terminal(fd: STDERR_FILENO)

    init(fd: Int32) {
        isTTY = isatty(fd) == 1
        let env = ProcessInfo.processInfo.environment
        colour = isTTY && env["NO_COLOR"] == nil && env["TERM"] != "dumb"
    }

    private func wrap(_ code: String, _ s: String) -> String { colour ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { wrap("1", s) }
    func dim(_ s: String) -> String { wrap("2", s) }
    func red(_ s: String) -> String { wrap("31", s) }
    func yellow(_ s: String) -> String { wrap("33", s) }
    func green(_ s: String) -> String { wrap("32", s) }
    func cyan(_ s: String) -> String { wrap("36", s) }
    /// Struck through where the terminal can; a cancelled time stays readable.
    func strike(_ s: String) -> String { wrap("9", s) }

    /// A route's colour (hex RRGGBB) as a 24-bit background, with its text colour.
    func badge(_ s: String, background: String?, foreground: String?) -> String {
        guard colour, let bg = rgb(background) else { return s }
        let fg = rgb(foreground) ?? (255, 255, 255)
        return "\u{1B}[48;2;\(bg.0);\(bg.1);\(bg.2)m\u{1B}[38;2;\(fg.0);\(fg.1);\(fg.2)m \(s) \u{1B}[0m"
    }

    private func rgb(_ hex: String?) -> (Int, Int, Int)? {
        guard let hex, hex.count == 6, let v = Int(hex, radix: 16) else { return nil }
        return (v >> 16 & 255, v >> 8 & 255, v & 255)
    }
}

/// Lays out rows in aligned columns; widths count characters, not bytes,
/// and ignore colour codes.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    func render(_ t: Terminal) -> String {
        var widths = headers.map(visibleWidth)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], visibleWidth(cell)) } }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() {
                let padding = i == cells.count - 1 ? "" : String(repeating: " ", count: widths[i] - visibleWidth(cell))
                parts.append(cell + padding)
            }
            return "  " + parts.joined(separator: "  ")
        }
        var out = [t.dim(line(headers))]
        out += rows.map(line)
        return out.joined(separator: "\n")
    }

    private func visibleWidth(_ s: String) -> Int {
        var n = 0
        var inEscape = false
        for c in s.unicodeScalars {
            if inEscape { if c == "m" { inEscape = false }; continue }
            if c == "\u{1B}" { inEscape = true; continue }
            n += 1
        }
        return n
    }
}

func printJSON<T: Encodable>(_ value: T) throws {
    let data = try JSONEncoder.onward.encode(value)
    FileHandle.standardOutput.write(data)
    FileHandle.standardOutput.write(Data("\n".utf8))
}

