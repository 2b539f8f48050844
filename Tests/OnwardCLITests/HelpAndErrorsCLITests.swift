import Foundation
import Testing

/// How `onward` speaks in its help: a default said once, discussions as paragraphs.
@Suite("onward help and error messages")
struct HelpAndErrorsCLITests {
    static let commands: [[String]] = [[], ["serve"], ["board"], ["service"], ["plan"], ["commute"], ["stops"], ["routes"], ["sources"],
                                       ["import"], ["alerts"], ["rt", "inspect"], ["login"], ["logout"], ["glance"], ["ski", "route"]]

    /// `onward help COMMAND` on a very wide terminal, so nothing is wrapped: a paragraph is one line.
    private static func help(_ command: [String]) throws -> String {
        let out = try OnwardExecutable.run(["help"] + command, environment: ["COLUMNS": "1000"])
        #expect(out.status == 0, "\(command): \(out.stderr)")
        return out.stdout
    }

    @Test("an option's default is said once, not by our text and ArgumentParser both", arguments: commands)
    func defaultOnce(_ command: [String]) throws {
        for line in try Self.help(command).split(separator: "\n") {
            #expect(line.components(separatedBy: "(default").count <= 2, "\(command): \(line)")
        }
    }

    @Test("a discussion is written in paragraphs: no line breaks inside a sentence", arguments: commands)
    func discussionInParagraphs(_ command: [String]) throws {
        // The discussion lies between the OVERVIEW line and USAGE.
        let lines = try Self.help(command).components(separatedBy: "\n")
        let discussion = lines.dropFirst().prefix { !$0.hasPrefix("USAGE:") }.filter { !$0.isEmpty }
        for line in discussion {
            #expect(line.hasSuffix("."), "\(command): a paragraph ends mid-sentence: \(line)")
        }
    }
}
