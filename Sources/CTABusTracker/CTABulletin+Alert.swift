import OnwardCore

extension CTABulletin {
    /// The bulletin as an `Alert`.
    ///
    /// Priority sets severity: High is severe (shown above the predictions, as the bus
    /// tracker's own pages do), Medium a warning, Low information; with no effect set,
    /// `Alert.isHighPriority` puts Medium and Low below the rows. The bus tracker gives no
    /// active period: the alert is active for as long as the bus tracker lists it.
    public func alert() -> Alert {
        Alert(id: alertID, informedEntities: informedEntities, severity: severity, header: LocalizedText(name),
              description: LocalizedText(descriptionText))
    }

    /// The bus tracker gives no ID, and a name is not unique (route 8's recorded bulletins
    /// have two named "#8 Halsted Bus Stop Relocations"), so the ID is a stable hash of
    /// the name, subject and detail: the same bulletin keeps its ID from one answer to the next.
    public var alertID: String {
        CTAIDs.canonical("sb-" + Self.stableHash([name, subject, detail].joined(separator: "\u{1F}")))
    }

    /// High → severe, Medium → warning, Low → info.
    public var severity: Alert.Severity {
        switch priority {
        case .high: .severe
        case .medium: .warning
        case .low: .info
        case .unknown: .unknown
        }
    }

    /// Routes and stops as canonical IDs. The direction (`rtdir`, "Northbound") has no
    /// place in an informed entity, whose direction is GTFS's 0 or 1, so a bulletin for one
    /// direction applies to the whole route here.
    public var informedEntities: [Alert.InformedEntity] {
        var seen = Set<Alert.InformedEntity>()
        return services.compactMap { s -> Alert.InformedEntity? in
            let entity = Alert.InformedEntity(routeID: s.route.map(CTAIDs.canonical), stopID: s.stopID.map(CTAIDs.canonical))
            guard !entity.isEmpty, seen.insert(entity).inserted else { return nil }
            return entity
        }
    }

    /// The subject, when it says more than the name, then the detail (or the brief form
    /// when there is no detail).
    var descriptionText: String {
        let body = detail.isEmpty ? brief : detail
        let subjectWords = TextFolding.fold(subject)
        let addsSubject = !subjectWords.isEmpty && !TextFolding.fold(name).contains(subjectWords)
            && !TextFolding.fold(body).hasPrefix(subjectWords)
        return [addsSubject ? subject : "", body].filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// A stable hash of the text (see `StableHash`).
    static func stableHash(_ text: String) -> String { StableHash.hex(text) }
}
