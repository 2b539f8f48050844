import API
import OnwardCore
import Transit
import TransitSources
import WebPages

/// What a signed-in person's phone keeps for when it has no signal: "My routes" as the list of their saved boards,
/// commuting mode's page, and each saved board whose source has a timetable (a live-only source has nothing to show offline) as its next
/// hours. The API (`/api/v1/me/offline`, which the service worker reads) and the offline "My routes" page list the
/// same boards from here.
extension ServerDependencies {
    func offlineBoards(_ routes: SavedRoutes) -> [(name: String, link: String)] {
        var seen = Set<String>()
        return routes.stacks.map(\.route).compactMap { route in
            guard route.kind == .board, let stop = route.stopId,
                  sources.resolve(stop, as: .stop)?.source.capabilities.contains(.anyTime) == true else { return nil }
            let link = Links.board(stop, arrivals: route.arrivals == true, via: route.to)
            return seen.insert(link).inserted ? (route.name, link) : nil
        }
    }

    func offlinePack(_ routes: SavedRoutes, strings: Strings) -> OfflinePackDTO {
        let me = OfflinePackDTO.PageDTO(url: Links.me, copy: OfflineCopy.copy(of: Links.me), name: strings(.myRoutesTitle))
        // Commuting mode's page as it is (it shows the journey it last heard of, which the page keeps for the session).
        let commute = OfflinePackDTO.PageDTO(url: Links.commute(), copy: Links.commute(), name: strings(.commuteTitle))
        let boards = offlineBoards(routes).map { OfflinePackDTO.PageDTO(url: $0.link, copy: OfflineCopy.copy(of: $0.link), name: $0.name) }
        return OfflinePackDTO(pages: [me, commute] + boards, assets: [Assets.cssURL, Assets.jsURL, Assets.iconURL], routesVersion: routes.version)
    }
}
