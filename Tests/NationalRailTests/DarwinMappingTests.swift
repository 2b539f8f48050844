import Foundation
import NationalRail
import OnwardCore
import Testing
import TransitSources

/// Darwin values in domain terms: board rows, service details with branches, alerts.
@Suite(.enabled(if: DarwinFixtures.available, DarwinFixtures.skipMessage))
struct DarwinMappingTests {
    func board(_ name: String) throws -> DarwinStationBoard {
        guard case .board(let b) = try DarwinParser.parse(try DarwinFixtures.darwin(name)) else { throw CancellationError() }
        return b
    }

    func details(_ name: String) throws -> DarwinServiceDetails {
        guard case .serviceDetails(let d) = try DarwinParser.parse(try DarwinFixtures.darwin(name)) else { throw CancellationError() }
        return d
    }

    @Test func departureRows() throws {
        let b = try board("departure-board-with-details.xml")
        let rows = b.entries(kind: .departures)
        #expect(rows.count == 10)
        #expect(b.entries(kind: .arrivals).isEmpty)
        let first = rows[0]
        #expect(first.tripID == "national-rail:4125791ECROYDN_")
        #expect(first.routeID == "national-rail:SN" && first.routeShortName == "SN" && first.routeLongName == "Southern")
        #expect(first.operatorName == "Southern")
        #expect(first.headsign == "London Victoria" && first.origin == "Littlehampton")
        #expect(first.stopID == "national-rail:ECR" && first.stopName == "East Croydon" && first.platform == "1")
        #expect(first.timeZone == "Europe/London" && first.hasScheduledTime)
        #expect(first.scheduled == DarwinFixtures.utc("2025-02-14T16:42:00Z") && first.serviceDate == ServiceDate(year: 2025, month: 2, day: 14))
        #expect(first.expected == DarwinFixtures.utc("2025-02-14T16:51:00Z") && first.status == .late && first.delaySeconds == 540)
        #expect(first.reason == "This train has been delayed by a fault with the signalling system")
        let calls = try #require(first.callingAt)
        #expect(calls.map(\.stopID) == ["national-rail:CLJ", "national-rail:VIC"])
        #expect(calls[1].stopName == "London Victoria" && calls[1].stopSequence == 1)
        #expect(calls[1].scheduledArrival == DarwinFixtures.utc("2025-02-14T16:58:00Z") && calls[1].scheduledDeparture == calls[1].scheduledArrival)
        #expect(calls[1].expectedArrival == DarwinFixtures.utc("2025-02-14T17:07:00Z") && calls[1].status == .late)

        let cancelled = try #require(rows.first { $0.tripID == "national-rail:4123777ECROYDN_" })
        #expect(cancelled.status == .cancelled && cancelled.expected == nil)
        #expect(cancelled.reason == "This train has been cancelled because of a fault with the signalling system")
        #expect(cancelled.callingAt?.allSatisfy { $0.status == .cancelled } == true)
        // Two destinations with the same via say it once.
        #expect(rows.contains { $0.headsign == "Portsmouth Harbour & Bognor Regis via Horsham" })
    }

    @Test func arrivalRowsListWhereTheTrainCameFrom() throws {
        let b = try board("arrival-board-with-details.xml")
        let rows = b.entries(kind: .arrivals)
        #expect(rows.count == 10 && b.entries(kind: .departures).isEmpty)
        let first = rows[0]
        #expect(first.scheduled == DarwinFixtures.utc("2025-02-14T16:41:00Z") && first.expected == DarwinFixtures.utc("2025-02-14T16:50:00Z"))
        #expect(first.origin == "Littlehampton" && first.callingAt?.first?.stopName == "Littlehampton")

        // A combined board: a train that ends here has no departure row.
        let both = try board("arrival-departure-board-with-details.xml")
        #expect(both.entries(kind: .departures).count == 10 && both.entries(kind: .arrivals).count == 9)
    }

    @Test func joiningTrainArrivalRowListsBothPortions() throws {
        let b = try board("soap_arrdepboardwithdetails_ECR_2019.xml")
        let row = try #require(b.entries(kind: .arrivals).first { $0.tripID == "national-rail:ykRMqN5xF7HjeN3/9fnmdg==" })
        #expect(row.origin == "Caterham & Tattenham Corner")
        // Caterham's calls, then Tattenham Corner's that are not already listed (Purley is).
        #expect(row.callingAt?.map(\.stopID).map { $0.dropFirst("national-rail:".count) }
                == ["CAT", "WHS", "WHY", "KLY", "PUR", "PUO", "SCY", "TAT", "TAD", "KND", "CHP", "WME", "CDN", "RHM"])
        #expect(row.callingAt?.map(\.stopSequence) == Array(0..<14))
        // Departed calls carry their actual time.
        #expect(row.callingAt?[3].status == .departed && row.callingAt?[3].delaySeconds == 120)
    }

    @Test func callingAtBoardGetsTheArrivalThere() throws {
        let b = try board("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml")
        let rows = b.entries(kind: .departures, via: "KND")
        #expect(rows.count == 7)
        #expect(rows[0].headsign == "Caterham & Tattenham Corner")
        #expect(rows[0].destinationStopID == "national-rail:KND")
        #expect(rows[0].destinationArrival == DarwinFixtures.utc("2020-02-24T18:05:00Z"))
        #expect(rows.allSatisfy { $0.destinationStopID == "national-rail:KND" })
    }

    @Test func stationAlertsFromNRCC() throws {
        let alerts = try board("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml").stationAlerts
        // Four messages, two of them the same: three alerts.
        #expect(alerts.count == 3)
        #expect(Set(alerts.map(\.id)).count == 3)
        #expect(alerts.allSatisfy { $0.informedEntities == [Alert.InformedEntity(stopID: "national-rail:ECR")] })
        #expect(alerts.allSatisfy { $0.severity == .warning && $0.id.hasPrefix("national-rail:nrcc:ECR:") })
        #expect(alerts[0].header.best(for: ["en"])?.hasPrefix("Line closed between Lingfield and East Grinstead") == true)
        #expect(alerts[0].url.best(for: ["en"]) == "http://nationalrail.co.uk/service_disruptions/242588.aspx")
        #expect(alerts[0].effect == .noService && alerts[0].isHighPriority && alerts[0].cause == .weather)
        #expect(alerts[1].effect == .accessibilityIssue && !alerts[1].isHighPriority && alerts[1].url.isEmpty)
        #expect(alerts[2].effect == .significantDelays && alerts[2].cause == .technicalProblem)
        // Stable: the same words give the same ID on every parse.
        let again = try board("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml").stationAlerts
        #expect(again.map(\.id) == alerts.map(\.id))
    }

    @Test func serviceAlertsFromReasons() throws {
        let b = try board("arrival-board-with-details.xml")
        let alerts = b.serviceAlerts
        let cancel = try #require(alerts.first { $0.id == "national-rail:cancel:4123777ECROYDN_" })
        #expect(cancel.informedEntities == [Alert.InformedEntity(tripID: "national-rail:4123777ECROYDN_")])
        #expect(cancel.effect == .noService && cancel.severity == .warning && cancel.cause == .technicalProblem)
        #expect(cancel.header.best(for: []) == "This train has been cancelled because of a fault with the signalling system")
        // Cancelled at four calls only: a part-cancellation notice naming them.
        let part = try #require(alerts.first { $0.id == "national-rail:partcancel:4121937ECROYDN_" })
        #expect(part.description.best(for: []) == "Cancelled at Horsham, Littlehaven, Ifield and Crawley.")
        #expect(part.effect == .modifiedService)
        let delay = try #require(alerts.first { $0.id == "national-rail:delay:4121937ECROYDN_" })
        #expect(delay.severity == .info && !delay.isHighPriority && delay.effect == .significantDelays)
        // A cancelled train gets no delay notice beside its cancellation.
        #expect(!alerts.contains { $0.id == "national-rail:delay:4123777ECROYDN_" })
    }

    @Test func crawleySplitTrainHasTwoBranches() throws {
        let d = try details("soap_servicedetails_CRW_splits_2015.xml").serviceDetails(serviceID: "abc/def+gh==")
        #expect(d.tripID == "national-rail:abc/def+gh==" && d.routeID == "national-rail:SN" && d.operatorName == "Southern")
        #expect(d.headsign == "Southampton Central & Bognor Regis")
        #expect(d.serviceDate == ServiceDate(year: 2015, month: 3, day: 21))
        // 5 calls before Crawley, Crawley, 16 after along the main portion.
        #expect(d.calls.count == 22)
        #expect(d.calls.map(\.stopSequence) == Array(0..<22))
        #expect(d.calls[0].stopID == "national-rail:VIC" && d.calls[0].dropOff == .none)
        let crawley = d.calls[5]
        #expect(crawley.stopID == "national-rail:CRW" && crawley.platform == "2" && crawley.status == .onTime)
        #expect(crawley.scheduledArrival == DarwinFixtures.utc("2015-03-21T17:27:00Z") && crawley.expectedDeparture == crawley.scheduledDeparture)
        #expect(d.calls.last?.stopName == "Southampton Central" && d.calls.last?.pickup == BoardingRule.none)
        #expect(d.branches.count == 1)
        let bognor = d.branches[0]
        #expect(bognor.afterStopID == "national-rail:BAA" && bognor.headsign == "Bognor Regis")
        #expect(bognor.calls.map(\.stopName) == ["Bognor Regis"])
        #expect(bognor.calls[0].scheduledArrival == DarwinFixtures.utc("2015-03-21T18:26:00Z"))
        // Barnham is a call of the main portion, where the branch leaves it.
        #expect(d.calls.contains { $0.stopID == bognor.afterStopID })
        #expect(bognor.calls[0].stopSequence == d.calls.firstIndex { $0.stopID == "national-rail:BAA" }! + 1)
    }

    @Test func serviceDetailsDividingAtPurley() throws {
        let d = try details("soap_servicedetails_ECR_2020.xml").serviceDetails(serviceID: "X")
        #expect(d.headsign == "Caterham & Tattenham Corner")
        #expect(d.calls.map(\.stopName).first == "London Bridge" && d.calls.count == 9)
        let here = d.calls[1]
        #expect(here.scheduledArrival == DarwinFixtures.utc("2020-02-27T09:03:00Z") && here.scheduledDeparture == DarwinFixtures.utc("2020-02-27T09:04:00Z"))
        #expect(d.branches.map(\.afterStopID) == ["national-rail:PUR"])
        #expect(d.branches[0].calls.count == 7 && d.branches[0].calls.last?.stopName == "Tattenham Corner")
    }
}
