import App
import Foundation

/// A one-line progress bar on standard error, drawn only on a terminal.
final class ProgressBar: @unchecked Sendable {
    let enabled: Bool
    private var lastDraw = Date.distantPast

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: FeedImporting.Progress) {
        guard enabled, Date().timeIntervalSince(lastDraw) > 0.1 || p.bytesRead == p.totalBytes else { return }
        lastDraw = Date()
        let fraction = p.totalBytes.map { $0 > 0 ? min(Double(p.bytesRead) / Double($0), 1) : 1 } ?? 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(p.feed) \(p.file.padding(toLength: 16, withPad: " ", startingAt: 0)) \(bar) \(Int(fraction * 100))%".utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
