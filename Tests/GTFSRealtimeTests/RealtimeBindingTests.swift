import App
import DataSources
import Foundation
import GTFSRealtime
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// A realtime feed names the static feed it belongs to; its bare IDs take that feed's name.
@Suite("Realtime feeds bound to static feeds")
struct RealtimeBindingTests {

    @Test func aRealtimeFeedIsBoundToTheFeedItNames() throws {
        let tt = try Network.load([]).timetable
        let bound = try Network.bind([try #require(NamedFeedLocation("mrt-jakarta=rt.pb")), try #require(NamedFeedLocation("other.pb"))],
                                     to: tt)
        #expect(bound["mrt-jakarta/rt.pb"]?.name == "mrt-jakarta")
        #expect(bound["other.pb"]?.name == "mrt-jakarta")
        let error = try #require(throws: Network.LoadError.self) { try Network.bind([try #require(NamedFeedLocation("nope=rt.pb"))], to: tt) }
        #expect(error.description.contains("no static feed is named 'nope'"))
    }
}
