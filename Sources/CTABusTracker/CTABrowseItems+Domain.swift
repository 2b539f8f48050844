import OnwardCore

extension CTARoute {
    /// `cta:22` "22" "Clark", colour `CC3300`.
    public var summary: RouteSummary {
        RouteSummary(id: CTAIDs.canonical(route), shortName: route, longName: name, color: color)
    }
}

extension CTADirection {
    /// The direction as browsing lists it; its ID is what `getstops` takes.
    public var routeDirection: RouteDirection { RouteDirection(id: id, name: name) }
}

extension CTAStop {
    /// The stop as a place; its code is the number on its sign.
    public var place: StopPlace {
        StopPlace(id: CTAIDs.canonical(id), name: name, code: id, kind: .stop, latitude: latitude, longitude: longitude,
                  parentID: nil, platform: nil, timeZone: CTATime.timeZoneIdentifier)
    }
}
