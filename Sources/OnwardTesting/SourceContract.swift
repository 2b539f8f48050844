import Foundation
import OnwardCore
import Testing
import TransitSources

/// What every source must do, whatever its upstream: the checks one contract test runs
/// against the GTFS network, National Rail and the CTA bus tracker alike. A source passes
/// when its IDs are canonical and its own, what it declares it answers and what it does not
/// declare is refused as unsupported (never an empty list that looks like "nothing there"),
/// an unknown stop is "not found", and nothing it reports names a URL.
public struct SourceContract: Sendable {
    /// A stop with departures at the moment the source is asked (a recorded board).
    public var stopID: String
    /// The stop's ID without its source prefix, as a person might type it.
    public var localStopID: String
    /// A name the stop search finds (for a source that searches).
    public var searchText: String
    /// A stop the source knows, without asking its upstream, does not exist; nil for a source
    /// whose upstream alone decides (the bus tracker).
    public var unknownStopID: String?
    public var now: Instant

    public init(stopID: String, localStopID: String, searchText: String = "", unknownStopID: String?, now: Instant) {
        self.stopID = stopID; self.localStopID = localStopID; self.searchText = searchText
        self.unknownStopID = unknownStopID; self.now = now
    }

    public func check(_ source: any TransitSource) async throws {
        #expect(!source.sourceNames.isEmpty && source.sourceNames.allSatisfy(CanonicalID.isValidSourceName))
        #expect(!source.displayName.isEmpty)
        func isOwn(_ id: String) -> Bool { CanonicalID.split(id).map { source.sourceNames.contains($0.source) } ?? false }

        let place = try await source.place(stopID)
        #expect(place.id == stopID && TimeZone(identifier: place.timeZone) != nil)
        // IDs: once the stop is known, its unprefixed ID names it here, canonically.
        #expect(source.canonicalIDs(forLocal: localStopID, as: .stop) == [stopID])
        #expect(source.recognizes(localID: localStopID, as: .stop))

        // An unknown stop is not found: not a crash, not an empty board.
        if let unknownStopID {
            await expectCode(.notFound) { try await source.board(SourceBoardRequest(stopID: unknownStopID, limit: 5, now: now)) }
        }

        // Declared capabilities answer, with the source's own IDs.
        let caps = source.capabilities
        if caps.contains(.departures) {
            let board = try await source.board(SourceBoardRequest(stopID: stopID, limit: 5, now: now))
            #expect(board.kind == .departures && isOwn(board.place.id))
            #expect(!board.entries.isEmpty || board.emptyReason != nil, "an empty board says why")
            #expect(board.entries.allSatisfy { isOwn($0.tripID) && isOwn($0.stopID) })
            if let alerts = board.entryAlertIDs { #expect(alerts.count == board.entries.count) }
        }
        if caps.contains(.stopSearch) {
            let found = try await source.searchStops(searchText, limit: 5)
            #expect(!found.isEmpty && found.count <= 5 && found.allSatisfy { isOwn($0.id) })
        } else {
            await expectCode(.unsupported) { try await source.searchStops(searchText, limit: 5) }
        }
        if !caps.contains(.browse) { await expectCode(.unsupported) { try await source.routes() } }
        if !caps.contains(.serviceDetails) {
            await expectCode(.unsupported) { try await source.service(SourceServiceRequest(serviceID: stopID, now: now)) }
        }
        if !caps.contains(.vehicles) { await expectCode(.unsupported) { try await source.vehicles(routeID: nil, now: now) } }

        // Health by name, never by URL.
        #expect(source.status(now: now).allSatisfy { !$0.name.contains("://") && !($0.detail ?? "").contains("://") })
    }

    private func expectCode(_ code: SourceError.Code, _ body: () async throws -> some Any,
                            sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await body()
            Issue.record("expected \(code.rawValue), got an answer", sourceLocation: sourceLocation)
        } catch {
            #expect((error as? SourceError)?.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }
}
