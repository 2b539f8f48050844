import OnwardCore
import Testing

@Suite("saved routes and stacks")
struct SavedRoutesTests {
    let york = SavedRoute(id: "york", name: "York to Leeds", kind: .board, stopId: "nr:YRK", to: "nr:LDS")
    let commute = SavedRoute(id: "commute", name: "Blok M → Bundaran HI", kind: .journey, from: "mrt:BLM", to: "mrt:BHI")
    let service = SavedRoute(id: "s1", name: "08:05 to Leeds", kind: .service, tripId: "nr:abc", serviceDate: "2026-11-24")

    @Test("creating routes adds stacks in order, each becoming current, and counts versions")
    func create() throws {
        let one = try SavedRoutes().applying(.create(york))
        let two = try one.applying(.create(commute))
        #expect(two.stacks.map(\.route.id) == ["york", "commute"])
        #expect(two.currentRouteId == "commute")
        #expect(two.version == 2)
    }

    @Test("push and pop make a drill-down stack; the explicit route is never popped")
    func pushPop() throws {
        var s = try SavedRoutes().applying(.create(york)).applying(.create(commute))
        s = try s.applying(.push(routeId: "york", service))
        #expect(s.currentRouteId == "york")
        #expect(s.current?.top == service)
        s = try s.applying(.pop(routeId: "york"))
        #expect(s.current?.top == york)
        #expect(throws: RoutesError.self) { try s.applying(.pop(routeId: "york")) }
    }

    @Test("an explicit route cannot be pushed, nor an implicit one created")
    func kinds() throws {
        let s = try SavedRoutes().applying(.create(york))
        #expect(throws: RoutesError.self) { try s.applying(.push(routeId: "york", commute)) }
        #expect(throws: RoutesError.self) { try s.applying(.create(service)) }
    }

    @Test("rename and reorder; a bad position or name is refused with its field")
    func update() throws {
        let s = try SavedRoutes().applying(.create(york)).applying(.create(commute))
        let moved = try s.applying(.update(routeId: "commute", name: "Work", position: 0))
        #expect(moved.stacks.map(\.route.id) == ["commute", "york"])
        #expect(moved.stacks[0].route.name == "Work")
        #expect(throws: RoutesError.notPossible("position must be from 0 to 1")) {
            try s.applying(.update(routeId: "york", name: nil, position: 2))
        }
        #expect(throws: RoutesError.self) { try s.applying(.update(routeId: "york", name: String(repeating: "x", count: 81), position: nil)) }
    }

    @Test("deleting the current route makes its neighbour current; deleting the last leaves none")
    func delete() throws {
        var s = try SavedRoutes().applying(.create(york)).applying(.create(commute)).applying(.setCurrent(routeId: "york"))
        s = try s.applying(.delete(routeId: "york"))
        #expect(s.currentRouteId == "commute")
        s = try s.applying(.delete(routeId: "commute"))
        #expect(s.currentRouteId == nil)
        #expect(s.stacks.isEmpty)
        #expect(throws: RoutesError.notFound("commute")) { try s.applying(.delete(routeId: "commute")) }
    }

    @Test("each kind needs its own fields and no others")
    func fields() {
        #expect(SavedRoute(kind: .board).problem() == .invalid("a board route needs stopId", field: "stopId"))
        #expect(SavedRoute(kind: .journey, from: "a", to: "b").problem() == nil)
        #expect(SavedRoute(kind: .journey, stopId: "x", from: "a", to: "b").problem() == .invalid("a journey route has no stopId", field: "stopId"))
        #expect(SavedRoute(kind: .service, tripId: "t", serviceDate: "2026-13-01").problem()?.description == "serviceDate must be a date, YYYY-MM-DD")
        #expect(SavedRoute(kind: .journeyOption, from: "a", to: "b", departure: "08:00").problem() != nil)
        #expect(SavedRoute(kind: .journeyOption, from: "a", to: "b", departure: "2026-11-24T08:00:00+07:00").problem() == nil)
    }
}
