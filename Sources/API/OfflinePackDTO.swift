/// `GET /api/v1/me/offline`: what a signed-in person's phone keeps for when it has no signal. The web app's service
/// worker fetches each page's `copy` and serves it at `url` when the network fails; `assets` are what those pages load.
public struct OfflinePackDTO: Codable, Sendable, Equatable {
    public struct PageDTO: Codable, Sendable, Equatable {
        /// The page's own address (a saved board's, or `/me`).
        public var url: String
        /// Where its offline copy is made: the timetable's next hours, marked as a copy.
        public var copy: String
        public var name: String

        public init(url: String, copy: String, name: String) { self.url = url; self.copy = copy; self.name = name }
    }

    public var pages: [PageDTO]
    public var assets: [String]
    /// The person's routes' version the pack was made from: a change of routes makes a new pack.
    public var routesVersion: Int

    public init(pages: [PageDTO], assets: [String], routesVersion: Int) {
        self.pages = pages; self.assets = assets; self.routesVersion = routesVersion
    }
}
