import OnwardCore

/// Darwin's notices as `Alert`s: NRCC messages become station alerts, and a
/// service's cancel and delay reasons become alerts about that service, so a
/// service page shows them beside its calls.
///
/// Darwin gives no cause, effect or severity, only words. The effect is read from
/// the words where they are plain ("line closed", "may be cancelled", "delayed",
/// "lifts are out of order") because it decides whether a board shows the notice
/// above its rows (`Alert.isHighPriority`); anything else is `.other`.
enum DarwinAlerts {
    /// One alert per distinct message, about the station `crs`. The ID is stable
    /// for the same words at the same station (a hash, not Swift's seeded `Hasher`).
    static func station(_ messages: [DarwinMessage], crs: String) -> [Alert] {
        var seen: Set<String> = []
        var alerts: [Alert] = []
        for message in messages {
            let id = NationalRailIDs.source + ":nrcc:" + crs + ":" + fnv1a(message.text)
            guard seen.insert(id).inserted else { continue }
            alerts.append(Alert(
                id: id, informedEntities: [Alert.InformedEntity(stopID: NationalRailIDs.station(crs))],
                cause: cause(message.text), effect: effect(message.text), severity: .warning,
                header: LocalizedText(message.text), url: message.url.map { LocalizedText($0) } ?? LocalizedText()))
        }
        return alerts
    }

    /// A service's own notices: why it is cancelled; else why some of its calls are
    /// cancelled; else why it is late. Delays are `.info` so a board of late trains
    /// does not stack a notice per row above its departures (each row shows its reason).
    static func service(serviceID: String, isCancelled: Bool, cancelReason: String?, delayReason: String?,
                        callingPoints: [[DarwinCallingPoint]]) -> [Alert] {
        let entity = Alert.InformedEntity(tripID: NationalRailIDs.service(serviceID))
        var alerts: [Alert] = []
        if isCancelled {
            if let reason = cancelReason ?? firstCallReason(callingPoints) {
                alerts.append(Alert(id: NationalRailIDs.source + ":cancel:" + serviceID, informedEntities: [entity],
                                    cause: cause(reason), effect: .noService, severity: .warning, header: LocalizedText(reason)))
            }
            return alerts
        }
        let cancelledCalls = callingPoints.joined().filter { $0.isCancelled || $0.time?.status == .cancelled }
        if !cancelledCalls.isEmpty, let reason = cancelReason ?? firstCallReason(callingPoints) {
            var names: [String] = []
            for call in cancelledCalls where !names.contains(call.location.name) { names.append(call.location.name) }
            alerts.append(Alert(id: NationalRailIDs.source + ":partcancel:" + serviceID, informedEntities: [entity],
                                cause: cause(reason), effect: .modifiedService, severity: .warning,
                                header: LocalizedText(reason),
                                description: LocalizedText("Cancelled at " + list(names) + ".")))
        }
        if let reason = delayReason {
            alerts.append(Alert(id: NationalRailIDs.source + ":delay:" + serviceID, informedEntities: [entity],
                                cause: cause(reason), effect: .significantDelays, severity: .info, header: LocalizedText(reason)))
        }
        return alerts
    }

    private static func firstCallReason(_ lists: [[DarwinCallingPoint]]) -> String? {
        lists.joined().first { $0.cancelReason != nil }?.cancelReason
    }

    /// "A, B and C".
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    static func effect(_ text: String) -> Alert.Effect {
        let t = text.lowercased()
        if ["lift", "escalator", "step-free", "step free"].contains(where: t.contains) { return .accessibilityIssue }
        if ["line closed", "lines closed", "closed between", "no trains", "no train services", "will not run",
            "not be running", "station is closed"].contains(where: t.contains) { return .noService }
        if ["cancel", "reduced service", "fewer trains"].contains(where: t.contains) { return .reducedService }
        if ["delay", "late running", "running late", "disruption"].contains(where: t.contains) { return .significantDelays }
        if ["bus replacement", "replacement bus", "buses replace", "diverted"].contains(where: t.contains) { return .detour }
        return .other
    }

    /// Darwin's reason texts are fixed phrases ("a fault with the signalling
    /// system", "a shortage of train crew"); the clear ones map to a cause.
    static func cause(_ text: String) -> Alert.Cause {
        let t = text.lowercased()
        if ["strike", "industrial action"].contains(where: t.contains) { return .strike }
        if ["police", "security alert", "trespass"].contains(where: t.contains) { return .policeActivity }
        if ["taken ill", "medical", "ill passenger", "unwell"].contains(where: t.contains) { return .medicalEmergency }
        if ["hit by a train", "accident", "collision", "derail", "fatality"].contains(where: t.contains) { return .accident }
        // Whole phrases only: "heat" would match Heathrow, "ice" every "service".
        if ["weather", "flood", "snow", "icy rails", "high winds", "strong winds", "fog", "extreme heat", "storm",
            "landslip", "fallen tree", "lightning"].contains(where: t.contains) { return .weather }
        if ["engineering work", "maintenance", "overrunning"].contains(where: t.contains) { return .maintenance }
        if ["fault", "failure", "broken down", "signalling", "power supply"].contains(where: t.contains) {
            return .technicalProblem
        }
        return .unknown
    }

    /// A stable hash of the text (see `StableHash`).
    static func fnv1a(_ text: String) -> String { StableHash.hex(text) }
}
