import OnwardCore

extension CTAPrediction {
    /// The board row for this prediction.
    ///
    /// The bus tracker knows predictions, not a timetable: `scheduled` and `expected` both
    /// hold the predicted time and `hasScheduledTime` is false, so nothing shows it as a
    /// timetable time or computes a delay from it. The countdown stays on this model.
    /// - Parameter route: the route from `getroutes`, when known, for its name and colour;
    ///   without it the row's long name is the direction ("Northbound").
    public func boardEntry(route: CTARoute? = nil) -> BoardEntry {
        var entry = BoardEntry(
            tripID: CTAIDs.canonical(serviceLocalID), routeID: CTAIDs.canonical(self.route), routeShortName: self.route,
            routeLongName: route?.name ?? routeDirection, routeColor: route?.color, headsign: destination,
            stopID: CTAIDs.canonical(stopID), stopName: stopName, platform: nil,
            serviceDate: CTATime.serviceDate(of: predicted), scheduled: predicted, timeZone: CTATime.timeZoneIdentifier,
            origin: "")
        entry.expected = predicted
        entry.hasScheduledTime = false
        entry.status = status
        return entry
    }

    /// What a traveller reads beside the time.
    public var status: LiveStatus {
        // v3 dynamic action 1 is "Canceled" in the bus tracker's guide.
        if dynamicAction == 1 { return .cancelled }
        if isDelayed || countdown == .delayed { return .delayed }
        return .onTime
    }
}
