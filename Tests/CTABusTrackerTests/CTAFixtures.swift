import Foundation
import OnwardCore
import Testing

/// The recorded bus tracker answers in `shared/data/cta-bustracker/`, beside the project.
enum CTAFixtures {
    /// Found from this file's real path: the test folder may be reached through a symlink.
    static let folder: URL = {
        let file = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        let root = file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/data/cta-bustracker")
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("v2xml_gettime.xml").path) }

    static let skipMessage: Comment = "the CTA recordings (shared/data/cta-bustracker) are not beside the project"

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a suite or test, with a message, when the recordings are absent.
    static var needsRecordings: Self { .enabled(if: CTAFixtures.available, CTAFixtures.skipMessage) }
}

/// An instant stated in UTC, for expectations.
func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Instant {
    let day = ServiceDate(year: y, month: mo, day: d)!
    return Instant(epochSeconds: Int64(day.dayNumber) * 86_400 + Int64(h * 3600 + mi * 60 + s))
}

/// Bus tracker answers built in tests, in both formats, in the documented shape:
/// `bustime-response` holding `error` entries with `msg` (and the parameter they are about).
enum CTAErrorBody {
    static func json(_ message: String, stpid: String? = nil, rt: String? = nil) -> Data {
        var fields = [#""msg": "\#(message)""#]
        if let stpid { fields.insert(#""stpid": "\#(stpid)""#, at: 0) }
        if let rt { fields.insert(#""rt": "\#(rt)""#, at: 0) }
        return Data(#"{"bustime-response": {"error": [{\#(fields.joined(separator: ", "))}]}}"#.utf8)
    }

    static func xml(_ message: String, stpid: String? = nil, rt: String? = nil) -> Data {
        var inner = "<msg>\(message)</msg>"
        if let stpid { inner = "<stpid>\(stpid)</stpid>" + inner }
        if let rt { inner = "<rt>\(rt)</rt>" + inner }
        return Data("<?xml version=\"1.0\"?>\n<bustime-response><error>\(inner)</error></bustime-response>\n".utf8)
    }

    static let invalidKey = "Invalid API access key supplied"
    static let dailyLimit = "Transaction limit for current day has been exceeded."
}
