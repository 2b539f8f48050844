import Foundation
import Testing

/// `onward ski route` on the bundled Vallnord ski area.
@Suite("onward ski route")
struct SkiCLITests {
    /// The top of la Caubella chair at Pal, and the cable car's bottom station in La Massana.
    static let caubellaTop = "42.5350919,1.488898", town = "42.5471289,1.5137913"

    @Test("a novice goes down el Planell and takes the cable car to the town; --json says the same")
    func novice() throws {
        let out = try OnwardExecutable.run(["ski", "route", "--from", Self.caubellaTop, "--to", Self.town, "--level", "novice"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("run   el Planell — novice, green"))
        #expect(out.stdout.contains("lift  la Massana — cable car"))
        let json = try OnwardExecutable.run(["ski", "route", "--from", Self.caubellaTop, "--to", Self.town, "--level", "novice", "--json"])
        let route = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let legs = try #require(route["legs"] as? [[String: Any]])
        #expect(legs.compactMap { $0["difficulty"] as? String }.allSatisfy { $0 == "novice" })
        #expect(legs.last { $0["kind"] as? String == "lift" }?["name"] as? String == "la Massana")
    }

    @Test("a bad level or point is refused, naming the option; a novice at the top of Port Negre is told there is no way down")
    func refusals() throws {
        let level = try OnwardExecutable.run(["ski", "route", "--from", Self.caubellaTop, "--to", Self.town, "--level", "black"])
        #expect(level.status != 0 && level.stderr.contains("--level"))
        let point = try OnwardExecutable.run(["ski", "route", "--from", "north", "--to", Self.town, "--level", "easy"])
        #expect(point.status != 0 && point.stderr.contains("--from"))
        let none = try OnwardExecutable.run(["ski", "route", "--from", "42.5665203,1.4449171", "--to", Self.town, "--level", "novice"])
        #expect(none.status != 0 && none.stderr.contains("no way there for a skier of level novice"))
    }
}
