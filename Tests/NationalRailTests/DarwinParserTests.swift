import Foundation
import NationalRail
import OnwardCore
import Testing
import TransitSources

/// Every recorded answer (2014 to 2025, namespaces from 2012 to 2021, some stripped)
/// parses, with values checked against the files.
@Suite(.enabled(if: DarwinFixtures.available, DarwinFixtures.skipMessage))
struct DarwinParserTests {
    func parse(_ name: String) throws -> DarwinResponse { try DarwinParser.parse(try DarwinFixtures.darwin(name)) }

    func board(_ name: String) throws -> DarwinStationBoard {
        guard case .board(let b) = try parse(name) else { throw Failure("\(name) is not a board") }
        return b
    }

    func details(_ name: String) throws -> DarwinServiceDetails {
        guard case .serviceDetails(let d) = try parse(name) else { throw Failure("\(name) is not a service") }
        return d
    }

    func departures(_ name: String) throws -> DarwinDepartures {
        guard case .departures(let d) = try parse(name) else { throw Failure("\(name) is not next departures") }
        return d
    }

    struct Failure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    /// (file, kind, station CRS, rows, NRCC messages, generatedAt, calling points in all lists)
    static let recordings: [(String, String, String, Int, Int, String, Int)] = [
        ("arrival-board-with-details.xml", "board", "ECR", 10, 2, "2025-02-14T16:51:24Z", 116),
        ("arrival-board.xml", "board", "ECR", 10, 2, "2025-02-14T16:50:47Z", 0),
        ("arrival-departure-board-with-details.xml", "board", "ECR", 10, 2, "2025-02-14T16:52:01Z", 207),
        ("arrival-departure-board.xml", "board", "ECR", 10, 2, "2025-02-14T16:49:45Z", 0),
        ("departure-board-with-details.xml", "board", "ECR", 10, 2, "2025-02-14T16:52:27Z", 93),
        ("departure-board.xml", "board", "MAN", 10, 1, "2014-12-29T11:57:42Z", 0),
        // The 2022 files hold one answer followed by stray copies of its parts (as the
        // origin repository made them); only the answer itself is read: 2 destinations.
        ("fastest-departures-with-details.xml", "departures", "ECR", 2, 0, "2022-11-07T20:20:22Z", 3),
        ("fastest-departures.xml", "departures", "ECR", 2, 0, "2022-11-07T20:18:12Z", 0),
        ("next-departures-with-details.xml", "departures", "ECR", 2, 0, "2022-11-07T22:12:06Z", 3),
        ("next-departures.xml", "departures", "ECR", 2, 0, "2022-11-07T22:11:25Z", 0),
        ("service-details-splits-after.xml", "service", "CRW", 0, 0, "2015-03-21T17:12:10Z", 23),
        ("service-details.xml", "service", "MAN", 0, 0, "2014-12-30T15:38:13Z", 19),
        ("soap_arrdepboardwithdetails_ECR_2019.xml", "board", "ECR", 10, 0, "2019-12-17T08:16:54Z", 164),
        ("soap_departureboard_MAN_nrccmessages_2014.xml", "board", "MAN", 10, 1, "2014-12-29T11:57:42Z", 0),
        ("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-1.xml", "board", "ECR", 10, 0, "2019-12-12T22:19:11Z", 81),
        ("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml", "board", "ECR", 7, 4, "2020-02-24T17:31:54Z", 105),
        ("soap_fastestdepartures_details_ECR_2022.xml", "departures", "ECR", 2, 0, "2022-11-07T20:20:22Z", 3),
        ("soap_nextdepartures_ECR_2022.xml", "departures", "ECR", 2, 0, "2022-11-07T22:11:25Z", 0),
        ("soap_servicedetails_CRW_splits_2015.xml", "service", "CRW", 0, 0, "2015-03-21T17:12:10Z", 23),
        ("soap_servicedetails_ECR_2020.xml", "service", "ECR", 0, 0, "2020-02-27T08:31:54Z", 16),
    ]

    @Test func theTableCoversEveryRecording() {
        #expect(Set(Self.recordings.map(\.0)) == Set(DarwinFixtures.allDarwinFiles))
        #expect(DarwinFixtures.allDarwinFiles.count == 20)
    }

    @Test(arguments: recordings)
    func everyRecordingParses(_ r: (String, String, String, Int, Int, String, Int)) throws {
        let (name, kind, crs, rows, messages, generated, calls) = r
        func count(_ lists: [[DarwinCallingPoint]]) -> Int { lists.reduce(0) { $0 + $1.count } }
        switch try parse(name) {
        case .board(let b):
            #expect(kind == "board")
            #expect(b.crs == crs && b.services.count == rows && b.nrccMessages.count == messages)
            #expect(b.generatedAt == DarwinFixtures.utc(generated))
            #expect(b.services.reduce(0) { $0 + count($1.previousCallingPoints) + count($1.subsequentCallingPoints) } == calls)
            // Every row has an ID, an operator and a time; every call a scheduled time.
            for s in b.services {
                #expect(!s.serviceID.isEmpty && s.operatorCode != nil && (s.departure != nil || s.arrival != nil))
                #expect(!s.destinations.isEmpty && !s.origins.isEmpty)
                for call in (s.previousCallingPoints + s.subsequentCallingPoints).joined() { #expect(call.time != nil) }
            }
            for m in b.nrccMessages { #expect(!m.text.contains("<") && !m.text.contains("&nbsp;") && !m.text.contains("  ")) }
        case .departures(let d):
            #expect(kind == "departures")
            #expect(d.crs == crs && d.items.count == rows && d.generatedAt == DarwinFixtures.utc(generated))
            #expect(d.items.map(\.destinationCRS) == ["CLJ", "LBG"])
            #expect(d.items.compactMap(\.service).reduce(0) { $0 + count($1.subsequentCallingPoints) } == calls)
        case .serviceDetails(let s):
            #expect(kind == "service")
            #expect(s.location.crs == crs && s.generatedAt == DarwinFixtures.utc(generated))
            #expect(count(s.previousCallingPoints) + count(s.subsequentCallingPoints) == calls)
        }
    }

    @Test func arrivalDepartureBoard2019() throws {
        let b = try board("soap_arrdepboardwithdetails_ECR_2019.xml")
        #expect(b.locationName == "East Croydon" && b.platformAvailable == true)
        let first = b.services[0]
        #expect(first.serviceID == "ooJ6RtyQfT7XCu7oA+0t6A==")
        #expect(first.operatorName == "Thameslink" && first.operatorCode == "TL" && first.platform == "3" && first.length == 12)
        #expect(first.departure?.scheduled == DarwinFixtures.utc("2019-12-17T08:08:00Z"))
        #expect(first.departure?.expected == DarwinFixtures.utc("2019-12-17T08:14:00Z"))
        #expect(first.departure?.status == .late && first.departure?.delaySeconds == 360)
        #expect(first.arrival?.expected == DarwinFixtures.utc("2019-12-17T08:13:00Z"))
        #expect(first.delayReason == "This train has been delayed by a late running train being in front of this one")
        #expect(first.origins == [DarwinLocation(name: "Bedford", crs: "BDM")])
        #expect(first.destinations == [DarwinLocation(name: "Gatwick Airport", crs: "GTW")])
        // Previous calls have actual times: Bedford left at 06:54 for 06:52.
        let bedford = try #require(first.previousCallingPoints.first?.first)
        #expect(bedford.location.crs == "BDM" && bedford.time?.status == .departed && bedford.time?.delaySeconds == 120)
        #expect(bedford.time?.expected == DarwinFixtures.utc("2019-12-17T06:54:00Z"))
        #expect(first.subsequentCallingPoints.map { $0.map(\.location.crs) } == [["GTW"]])

        // "No report" on a call the train has passed: departed, no time.
        let grinstead = b.services[1]
        let lingfield = try #require(grinstead.previousCallingPoints.first?.first { $0.location.crs == "LFD" })
        #expect(lingfield.time?.status == .departed && lingfield.time?.expected == nil)
        // Sanderstead is still ahead: an estimate, not an actual.
        let sanderstead = try #require(grinstead.previousCallingPoints.first?.last)
        #expect(sanderstead.location.crs == "SNR" && sanderstead.time?.isActual == false && sanderstead.time?.status == .late)

        // A train from two places that joins at Purley: two previous lists.
        let joined = b.services[4]
        #expect(joined.serviceID == "ykRMqN5xF7HjeN3/9fnmdg==")
        #expect(joined.origins.map(\.name) == ["Caterham", "Tattenham Corner"])
        #expect(joined.previousCallingPoints.count == 2 && joined.previousCallingPoints.map(\.last?.location.crs) == ["SCY", "PUR"])

        let via = b.services[8]
        #expect(via.destinations == [DarwinLocation(name: "Bedford", crs: "BDM", via: "via London Bridge")])
    }

    @Test func cancelledServiceWithItsReason() throws {
        let b = try board("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-1.xml")
        let cancelled = try #require(b.services.first { $0.isCancelled })
        #expect(cancelled.serviceID == "ltDiujlDajd5DzrQ37ZoUg==")
        #expect(cancelled.cancelReason == "This train has been cancelled because of a shortage of train crew")
        #expect(cancelled.departure?.status == .cancelled && cancelled.departure?.expected == nil)
        #expect(cancelled.departure?.scheduled == DarwinFixtures.utc("2019-12-12T22:19:00Z"))
        #expect(cancelled.platform == nil)
        #expect(cancelled.subsequentCallingPoints.joined().allSatisfy { $0.time?.status == .cancelled })
        #expect(b.services.filter(\.isCancelled).count == 1)

        let late = b.services[0]
        #expect(late.serviceID == "SYUY2JISgt0CXw00/GQ2yA==" && late.departure?.delaySeconds == 480 && late.platform == "1")
    }

    @Test func nrccMessagesAsSafeText() throws {
        let man = try board("soap_departureboard_MAN_nrccmessages_2014.xml")
        #expect(man.nrccMessages.map(\.text) == [
            "Trains through Wembley Central are being delayed by up to 40 minutes. More details can be found in Latest Travel News.",
        ])
        #expect(man.nrccMessages[0].url == "http://nationalrail.co.uk/service_disruptions/88961.aspx")
        #expect(man.nrccMessages[0].html.contains("<A href="))

        let ecr = try board("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml")
        #expect(ecr.filterCRS == "KND" && ecr.filterLocationName == "Kingswood")
        #expect(ecr.nrccMessages.map(\.text) == [
            "Line closed between Lingfield and East Grinstead due to a landslip. More information can be found in Latest Travel News.",
            "The lifts are out of order between platforms 3 & 4 and the footbridge at East Croydon station",
            "The lifts are out of order between platforms 3 & 4 and the footbridge at East Croydon station",
            "Delays to Thameslink services between Luton and London St Pancras International due to a points failure between "
                + "Cricklewood and West Hampstead Thameslink. More details can be found in Latest Travel News.",
        ])
        #expect(ecr.nrccMessages.map(\.url) == [
            "http://nationalrail.co.uk/service_disruptions/242588.aspx", nil, nil,
            "http://nationalrail.co.uk/service_disruptions/243501.aspx",
        ])

        // 2025: pretty-printed, with line breaks and indentation inside the message.
        let now = try board("departure-board-with-details.xml")
        #expect(now.nrccMessages.map(\.text) == [
            "Major disruption to Thameslink services. Trains may be cancelled, revised or delayed by up to 20 minutes. "
                + "Latest information can be found in Status and Disruptions.",
            "Trains running through Purley Oaks may be cancelled. Latest information can be found in Status and Disruptions.",
        ])
        #expect(now.nrccMessages[1].url == "https://www.nationalrail.co.uk/service-disruptions/purley-oaks-20250214/")
    }

    @Test func multiDestinationTrainThatDivides() throws {
        let b = try board("soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml")
        let s = b.services[0]
        #expect(s.serviceID == "q8XqRgtqdwSZvTxW2y8U+w==")
        #expect(s.destinations.map(\.name) == ["Caterham", "Tattenham Corner"])
        #expect(s.subsequentCallingPoints.count == 2)
        #expect(s.subsequentCallingPoints[1].first?.location.crs == "PUR")
        let kingswood = try #require(s.subsequentCallingPoints[1].first { $0.location.crs == "KND" })
        #expect(kingswood.time?.scheduled == DarwinFixtures.utc("2020-02-24T18:05:00Z"))
    }

    @Test func crawleySplitTrain() throws {
        let d = try details("soap_servicedetails_CRW_splits_2015.xml")
        #expect(d.location == DarwinLocation(name: "Crawley", crs: "CRW"))
        #expect(d.operatorName == "Southern" && d.operatorCode == "SN" && d.platform == "2" && d.serviceType == "train")
        #expect(d.arrival?.scheduled == DarwinFixtures.utc("2015-03-21T17:27:00Z") && d.departure?.status == .onTime)
        #expect(d.previousCallingPoints.map { $0.map { $0.location.crs ?? "" } } == [["VIC", "CLJ", "ECR", "GTW", "TBD"]])
        // Passed calls say "On time" as their actual time.
        #expect(d.previousCallingPoints[0][0].time?.status == .departed)
        #expect(d.previousCallingPoints[0][0].time?.expected == DarwinFixtures.utc("2015-03-21T16:46:00Z"))
        #expect(d.previousCallingPoints[0][3].time?.status == .onTime)
        #expect(d.subsequentCallingPoints.count == 2)
        #expect(d.subsequentCallingPoints[0].count == 16 && d.subsequentCallingPoints[0].last?.location.name == "Southampton Central")
        #expect(d.subsequentCallingPoints[1].map(\.location.name) == ["Barnham", "Bognor Regis"])
        #expect(d.subsequentCallingPoints[1][1].time?.scheduled == DarwinFixtures.utc("2015-03-21T18:26:00Z"))
    }

    @Test func serviceDetails2020() throws {
        let d = try details("soap_servicedetails_ECR_2020.xml")
        #expect(d.arrival?.scheduled == DarwinFixtures.utc("2020-02-27T09:03:00Z"))
        #expect(d.departure?.scheduled == DarwinFixtures.utc("2020-02-27T09:04:00Z"))
        #expect(d.platform == "6")
        #expect(d.subsequentCallingPoints.map(\.count) == [7, 8])
    }

    @Test func nextDepartures2022() throws {
        let d = try departures("next-departures-with-details.xml")
        let victoria = try #require(d.items[0].service)
        #expect(victoria.serviceID == "AjQqemx5vaZC87JCOBdU7A==" && victoria.departure?.status == .onTime)
        #expect(victoria.departure?.scheduled == DarwinFixtures.utc("2022-11-07T22:15:00Z"))
        #expect(victoria.subsequentCallingPoints.first?.map(\.location.crs) == ["CLJ", "VIC"])
        let bridge = try #require(d.items[1].service)
        #expect(bridge.serviceID == "EFpoyguzo/xLlJw80uW6eA==" && bridge.departure?.delaySeconds == 360)
    }

    @Test func theSameAnswerWithEveryNamespaceStyle() throws {
        // 2014 (default namespaces per element) and 2025 (lt4/lt8 prefixes) boards give
        // the same shape of values; the 2022 files have their declarations stripped.
        let old = try board("departure-board.xml")
        #expect(old.services[4].destinations == [DarwinLocation(name: "Crewe", crs: "CRE", via: "via Stockport")])
        #expect(old.services[2].serviceID == "/FdZ9oDuXYXUyxyjYtuHKw==" && old.services[2].departure?.delaySeconds == 60)
        #expect(try parse("departure-board.xml") == parse("soap_departureboard_MAN_nrccmessages_2014.xml"))
    }
}
