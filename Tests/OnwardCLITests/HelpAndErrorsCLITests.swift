import Foundation
import Testing

/// How `onward` speaks in its help and its errors: a default said once, discussions as paragraphs,
/// one "error: " prefix.
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

    @Test("a usage error and a failure start alike, with \"error: \"; a usage error keeps exit code 64")
    func oneErrorStyle() throws {
        let validation = try OnwardExecutable.run(["board", "SLBB", "--to", "SASN", "--arrivals"])
        #expect(validation.status == 64)
        #expect(validation.stderr.hasPrefix("error: With --arrivals, use --from STOP"), "\(validation.stderr)")
        #expect(!validation.stderr.contains("Error:"))
        let unknown = try OnwardExecutable.run(["board", "SLBB", "--no-such-option"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: "), "\(unknown.stderr)")
        let failure = try OnwardExecutable.run(["ski", "route", "--from", "here", "--to", "42.5,1.5", "--level", "easy"])
        #expect(failure.status == 1)
        #expect(failure.stderr.hasPrefix("error: --from must be LAT,LON"), "\(failure.stderr)")
        let help = try OnwardExecutable.run(["board", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: ") && help.stderr.isEmpty)
    }
}
