import App
import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Every public ID is `SOURCE:LOCAL`, its source named by configuration, whatever else is loaded.
@Suite("Canonical IDs")
struct CanonicalIDTests {
    static let bundledZip = Network.defaultFeedURL.path

    @Test func theBundledNetworkIsMrtJakarta() throws {
        let tt = try Network.load([]).timetable
        #expect(tt.feeds.map(\.name) == ["mrt-jakarta"])
        let slbb = try #require(tt.stop(id: "mrt-jakarta:SLBB"))
        #expect(tt.place(slbb).id == "mrt-jakarta:SLBB")
        // Unprefixed, one feed has it.
        #expect(tt.stop(id: "SLBB") == slbb)
        // A prefix naming no feed is not the timetable's, and a known prefix with an unknown ID is not found elsewhere.
        #expect(tt.stop(id: "national-rail:ECR") == nil)
        #expect(tt.stop(id: "mrt-jakarta:ECR") == nil)
    }

    @Test func anIDSavedTodayResolvesAfterAnotherFeedIsAdded() throws {
        let alone = try Network.load([]).timetable
        let saved = alone.place(try #require(alone.stop(id: "SLBB"))).id
        #expect(saved == "mrt-jakarta:SLBB")
        guard Fixtures.hasSharedData else { return }
        let both = try Network.load(["mrt-jakarta=" + Self.bundledZip, Fixtures.gtfs("caltrain-2023-09").path]).timetable
        #expect(both.feeds.map(\.name) == ["mrt-jakarta", "caltrain-2023-09"])
        let s = try #require(both.stop(id: saved))
        let before = try #require(alone.stop(id: saved))
        #expect(both.place(s).id == saved && both.place(s).name == alone.place(before).name)
        // The feeds given the other way round: the same IDs.
        let swapped = try Network.load([Fixtures.gtfs("caltrain-2023-09").path, "mrt-jakarta=" + Self.bundledZip]).timetable
        let again = try #require(swapped.stop(id: saved))
        #expect(swapped.place(again).id == saved)
        #expect(swapped.stop(id: "caltrain-2023-09:70012") != nil && swapped.stop(id: "70012") == swapped.stop(id: "caltrain-2023-09:70012"))
    }

    @Test func feedArgumentsNameTheirFeed() {
        let named = Network.FeedArgument("halifax=data/h.zip")
        #expect(named.name == "halifax" && named.path == "data/h.zip")
        let plain = Network.FeedArgument("data/h.zip")
        #expect(plain.name == nil && plain.path == "data/h.zip")
        // Not a source name before '=': a path.
        let odd = Network.FeedArgument("Data/x=y.zip")
        #expect(odd.name == nil && odd.path == "Data/x=y.zip")
    }

    @Test func twoFeedsWithOneNameAreRefused() throws {
        let error = try #require(throws: Network.LoadError.self) { try Network.load(["a=" + Self.bundledZip, "a=" + Self.bundledZip]) }
        #expect(error.description.contains("two feeds are named 'a'"))
    }

    @Test func aSnapshotKeepsItsNames() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onward-ids-\(UUID().uuidString).onward")
        defer { try? FileManager.default.removeItem(at: url) }
        try Network.load(["jakarta=" + Self.bundledZip]).timetable.writeSnapshot(to: url)
        let loaded = try Network.load([url.path]).timetable
        #expect(loaded.feeds.map(\.name) == ["jakarta"] && loaded.stop(id: "jakarta:SLBB") != nil)
        #expect(try Network.load(["jakarta=" + url.path]).timetable.stop(id: "jakarta:SLBB") != nil)
        // Its IDs carry the name it was imported with: another name is refused, not silently ignored.
        let error = try #require(throws: Network.LoadError.self) { try Network.load(["other=" + url.path]) }
        #expect(error.description.contains("was imported as 'jakarta'"))
    }
}
