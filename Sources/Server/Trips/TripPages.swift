import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Storage
import Trips
import WebPages

/// The web app's trip pages: the list with the forms to make and join a trip, and each trip's live
/// map page. Changes are forms answered with a redirect; the map page's script uses the JSON API and
/// `/live?trip=ID` with the session's cookie and anti-forgery token.
struct TripPages: Sendable {
    let deps: ServerDependencies
    let pages: PageRoutes
    var trips: TripService { deps.trips }

    func add(to router: Router<OnwardRequestContext>) {
        router.get("trips") { request, _ in
            guard let me = try await pages.signedIn(request, deps.queries()) else { return PeoplePages.redirect(Links.signIn) }
            let mine = try await trips.trips(of: me.signed.account.id).map { TripService.dto($0, for: me.signed.account.id) }
            let notice = request.uri.queryParameters.get("notfound") == "1" ? me.context.strings(.tripsCodeNotFound) : nil
            return pages.page(TripsPage.render(mine, code: request.uri.queryParameters.get("code").map { String($0) }, notice: notice, context: me.context),
                              request)
        }
        // The invitation link: the join form with its code filled in (a GET changes nothing).
        router.get("trips/join") { request, _ in
            let code = request.uri.queryParameters.get("code").map { String($0) } ?? ""
            guard try await pages.signedIn(request, deps.queries()) != nil else { return PeoplePages.redirect(Links.signIn) }
            return PeoplePages.redirect(Links.trips + Links.queryString([("code", code)]))
        }
        router.post("trips") { request, _ in
            let (signed, form) = try await people.change(request)
            let days = min(max(Int(form["days"] ?? "") ?? 7, 1), 60)
            let trip = try await trips.create(by: signed.account.id, name: form["name"] ?? "", endsAt: deps.trips.now().adding(seconds: Int64(days) * 86_400))
            return PeoplePages.redirect(Links.trip(trip.id))
        }
        router.post("trips/join") { request, _ in
            let (signed, form) = try await people.change(request)
            do {
                return PeoplePages.redirect(Links.trip(try await trips.join(signed.account.id, code: form["code"] ?? "").id))
            } catch let e as ServiceError where e.code.isNotFound {
                return PeoplePages.redirect(Links.trips + "?notfound=1")
            }
        }
        router.get("trips/{tripId}") { request, context in
            guard let me = try await pages.signedIn(request, deps.queries()) else { return PeoplePages.redirect(Links.signIn) }
            let person = me.signed.account.id
            let trip = try await trips.trip(try context.pathID("tripId"), for: person)
            let model = TripPage.Model(trip: TripService.dto(trip, for: person), me: person, members: try await trips.members(trip.id, for: person).members,
                                       tileURL: deps.settings.maps.tileURL, tileAttribution: deps.settings.maps.tileAttribution, skiArea: deps.ski != nil)
            var response = pages.page(TripPage.render(model, context: me.context), request)
            // The operator's base tiles are images from their server: allowed on this page only.
            if let policy = SecurityHeaders.policy(allowingTiles: deps.settings.maps.tileURL) {
                response.headers[.contentSecurityPolicy] = policy
            }
            return response
        }
        router.post("trips/{tripId}/leave") { request, context in
            let (signed, _) = try await people.change(request)
            try await trips.leave(try context.pathID("tripId"), person: signed.account.id)
            return PeoplePages.redirect(Links.trips)
        }
        router.post("trips/{tripId}/simulate") { request, context in
            let (signed, _) = try await people.change(request)
            let id = try context.pathID("tripId")
            try await TripSimulation.start(on: id, by: signed.account.id, trips: deps.trips, ski: deps.ski)
            return PeoplePages.redirect(Links.trip(id))
        }
    }

    var people: PeoplePages { PeoplePages(deps: deps, pages: pages) }
}
