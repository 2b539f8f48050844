import CTABusTracker
import Foundation
import OnwardCore
import Testing
import TransitSources

/// Every recording in `shared/data/cta-bustracker/` read, with values checked against the file.
@Suite(.needsRecordings) struct CTAParserRecordingTests {
    @Test func routesXML() throws {
        let answer = try CTAParser.routes(CTAFixtures.data("v2xml_getroutes.xml"))
        #expect(answer.items.count == 127)
        #expect(answer.emptyReason == nil && answer.messages.isEmpty)
        #expect(answer.items.first == CTARoute(route: "1", name: "Bronzeville/Union Station", color: "336633"))
        #expect(answer.items.last == CTARoute(route: "206", name: "Evanston Circulator", color: "666600"))
        let clark = try #require(answer.items.first { $0.route == "22" })
        #expect(clark.summary == RouteSummary(id: "cta:22", shortName: "22", longName: "Clark", color: "CC3300"))
        // Entities decoded: `Museum of S &amp; I`.
        #expect(answer.items.first { $0.route == "10" }?.name == "Museum of S & I")
        #expect(answer.items.contains { $0.route == "J14" && $0.name == "Jeffery Jump" })
    }

    @Test func directionsXML() throws {
        let answer = try CTAParser.directions(CTAFixtures.data("v2xml_getdirections_rt22.xml"))
        #expect(answer.items == [CTADirection(id: "Northbound", name: "Northbound"), CTADirection(id: "Southbound", name: "Southbound")])
        #expect(answer.items.map(\.routeDirection) == [RouteDirection(id: "Northbound", name: "Northbound"),
                                                      RouteDirection(id: "Southbound", name: "Southbound")])
    }

    @Test func stopsXML() throws {
        let answer = try CTAParser.stops(CTAFixtures.data("v2xml_getstops_rt22_northbound.xml"))
        #expect(answer.items.count == 86)
        #expect(answer.items.first == CTAStop(id: "1926", name: "Clark & Addison", latitude: 41.947086853598, longitude: -87.656360864639))
        #expect(answer.items.last == CTAStop(id: "14227", name: "Washington & State", latitude: 41.883173318274, longitude: -87.628530263901))
        let harrison = try #require(answer.items.first { $0.id == "15895" })
        #expect(harrison.place == StopPlace(id: "cta:15895", name: "Clark & Harrison", code: "15895", kind: .stop,
                                            latitude: 41.874054707633, longitude: -87.630702853203, parentID: nil,
                                            platform: nil, timeZone: "America/Chicago"))
    }

    @Test func stopsJSONv2() throws {
        let answer = try CTAParser.stops(CTAFixtures.data("v2json_getstops_rt20.json"))
        #expect(answer.items.count == 68)
        #expect(answer.items.first == CTAStop(id: "4727", name: "1633 W Madison", latitude: 41.881383249235, longitude: -87.668550968956))
        #expect(answer.items.last?.id == "449")
        // `\u0026` decoded, and the trailing space some names have trimmed.
        #expect(answer.items.first { $0.id == "8613" }?.name == "Columbus & Randolph")
        #expect(answer.items.first { $0.id == "437" }?.name == "Madison & Aberdeen")
    }

    @Test func stopsJSONv3() throws {
        let answer = try CTAParser.stops(CTAFixtures.data("getstops-v3-ashland-northave-2026.json"))
        #expect(answer.items.count == 122)
        #expect(answer.items.first == CTAStop(id: "6137", name: "10112 S Beverly", latitude: 41.710204999999, longitude: -87.657789000001))
        #expect(answer.items.last == CTAStop(id: "12352", name: "Vincennes & 104th Street", latitude: 41.705098, longitude: -87.656756000002))
        #expect(answer.items.first { $0.id == "18390" }?.name == "95th Red Line Station")
    }

    @Test func predictionsXML() throws {
        let answer = try CTAParser.predictions(CTAFixtures.data("v2xml_getpredictions_rt22_stpid15895.xml"))
        #expect(answer.items.count == 2)
        let first = CTAPrediction(madeAt: utc(2015, 2, 14, 18, 20), kind: .departure, stopID: "15895", stopName: "Clark & Harrison",
                                  vehicleID: "4336", distanceToStop: 0, route: "22", routeDirection: "Northbound",
                                  destination: "Howard", predicted: utc(2015, 2, 14, 18, 25), blockID: "22 -513",
                                  tripID: "204510", isDelayed: false, countdown: .minutes(3))
        let second = CTAPrediction(madeAt: utc(2015, 2, 14, 18, 21), kind: .departure, stopID: "15895", stopName: "Clark & Harrison",
                                   vehicleID: "4361", distanceToStop: 3971, route: "22", routeDirection: "Northbound",
                                   destination: "Howard", predicted: utc(2015, 2, 14, 18, 35), blockID: "22 -501",
                                   tripID: "204511", isDelayed: false, countdown: .minutes(14))
        #expect(answer.items == [first, second])
        #expect(answer.items.map(\.countdown?.description) == ["3", "14"])
    }

    @Test func predictionsXMLAsBoardEntries() throws {
        let answer = try CTAParser.predictions(CTAFixtures.data("v2xml_getpredictions_rt22_stpid15895.xml"))
        let entry = answer.items[0].boardEntry()
        #expect(entry.tripID == "cta:204510")
        #expect(entry.routeID == "cta:22")
        #expect(entry.routeShortName == "22")
        #expect(entry.routeLongName == "Northbound")
        #expect(entry.routeColor == nil)
        #expect(entry.headsign == "Howard")
        #expect(entry.origin == "")
        #expect(entry.stopID == "cta:15895")
        #expect(entry.stopName == "Clark & Harrison")
        #expect(entry.platform == nil)
        #expect(entry.serviceDate == ServiceDate(year: 2015, month: 2, day: 14))
        #expect(entry.scheduled == utc(2015, 2, 14, 18, 25))
        #expect(entry.expected == utc(2015, 2, 14, 18, 25))
        #expect(entry.hasScheduledTime == false)
        #expect(entry.timeZone == "America/Chicago")
        #expect(entry.status == .onTime)
        #expect(entry.delaySeconds == nil)
        // With the route known from getroutes: its name and colour.
        let named = answer.items[0].boardEntry(route: CTARoute(route: "22", name: "Clark", color: "CC3300"))
        #expect(named.routeLongName == "Clark")
        #expect(named.routeColor == "CC3300")
    }

    @Test func predictionsJSON() throws {
        let answer = try CTAParser.predictions(CTAFixtures.data("v2json_getpredictions_rt20_stpid4727.json"))
        #expect(answer.items.count == 3)
        #expect(answer.items.map(\.predicted) == [utc(2018, 4, 5, 1, 27), utc(2018, 4, 5, 1, 38), utc(2018, 4, 5, 1, 53)])
        #expect(answer.items.map(\.madeAt) == [utc(2018, 4, 5, 1, 24), utc(2018, 4, 5, 1, 23), utc(2018, 4, 5, 1, 23)])
        #expect(answer.items.map(\.countdown) == [.minutes(3), .minutes(14), .minutes(29)])
        #expect(answer.items.map(\.vehicleID) == ["2013", "1977", "1947"])
        #expect(answer.items.map(\.tripID) == ["1040611", "1040612", "1040613"])
        #expect(answer.items.map(\.distanceToStop) == [3365, 15694, 28844])
        #expect(answer.items.map(\.blockID) == ["20 -807", "20 -810", "20 -803"])
        for p in answer.items {
            #expect(p.kind == .arrival && p.stopID == "4727" && p.stopName == "1633 W Madison" && p.route == "20")
            #expect(p.routeDesignator == "20" && p.routeDirection == "Eastbound" && p.destination == "Michigan")
            #expect(p.isDelayed == false && p.status == .onTime)
        }
        // 20:27 on 4 April in Chicago is 01:27 UTC on the 5th: the service date is Chicago's.
        #expect(answer.items[0].boardEntry().serviceDate == ServiceDate(year: 2018, month: 4, day: 4))
    }

    @Test func noArrivalTimesIsAnEmptyAnswer() throws {
        let answer = try CTAParser.predictions(CTAFixtures.data("v2json_getpredictions_error_no_arrival_times_rt1.json"))
        #expect(answer.items.isEmpty)
        #expect(answer.emptyReason == "No arrival times")
        #expect(answer.messages == [CTAMessage(text: "No arrival times", kind: .noData, route: "1", stopID: "70")])
    }

    @Test func bulletinsXML() throws {
        let answer = try CTAParser.bulletins(CTAFixtures.data("v2xml_getservicebulletins_rt8.xml"))
        #expect(answer.items.count == 6)
        #expect(answer.items.map(\.priority) == [.medium, .medium, .low, .low, .low, .low])
        #expect(answer.items.map(\.name) == [
            "TCU #8 Halsted reroute Halsted/35th", "TCU #8 Reroute Halsted/Harrison", "#63 - Bus Stop Relocation",
            "#8 - Bus Stop Relocations/Eliminations", "#8 Halsted Bus Stop Relocations", "#8 Halsted Bus Stop Relocations",
        ])
        let first = answer.items[0]
        #expect(first.subject == "#8 Halsted reroute Halsted/35th")
        #expect(first.detail == "#8 Halsted buses are temporarily rerouted in both directions via Halsted, 31st, Wallace, "
                + "35th, and Halsted, due to street blockage.\n\nAllow extra travel time.")
        #expect(first.services == [CTABulletin.Service(route: "8")])
        // `<srvc/>`: a bulletin about nothing in particular.
        #expect(answer.items[2].services.isEmpty)
        // `<br/>` inside the name and subject is gone too.
        #expect(answer.items[5].subject == "Bus Stop Relocations")
        #expect(answer.items[3].detail.hasPrefix("• The northbound and southbound #8 bus stops located near"))
        #expect(answer.items[3].detail.contains("\n\n–Board northbound buses on the northeast corner of Halsted/Grand\n"))
    }

    @Test func bulletinsAsAlerts() throws {
        let alerts = try CTAParser.bulletins(CTAFixtures.data("v2xml_getservicebulletins_rt8.xml")).items.map { $0.alert() }
        #expect(alerts.map(\.severity) == [.warning, .warning, .info, .info, .info, .info])
        // Medium and Low go below the predictions, as the bus tracker shows them.
        #expect(alerts.allSatisfy { !$0.isHighPriority })
        #expect(BoardAlerts(alerts).highPriority.isEmpty && BoardAlerts(alerts).other.count == 6)
        #expect(alerts[0].header == LocalizedText("TCU #8 Halsted reroute Halsted/35th"))
        #expect(alerts[0].informedEntities == [Alert.InformedEntity(routeID: "cta:8")])
        #expect(alerts[2].informedEntities.isEmpty)
        // The subject opens the description when the name does not already say it.
        #expect(alerts[1].description.best(for: ["en"])?.hasPrefix("Reroute at Halsted/Harrison\n\n#8 Halsted buses") == true)
        #expect(alerts[0].description.best(for: ["en"])?.hasPrefix("#8 Halsted buses are temporarily") == true)
        // IDs are stable and distinct, even for the two bulletins with the same subject.
        #expect(Set(alerts.map(\.id)).count == 6)
        #expect(alerts.allSatisfy { $0.id.hasPrefix("cta:sb-") })
        let again = try CTAParser.bulletins(CTAFixtures.data("v2xml_getservicebulletins_rt8.xml")).items.map { $0.alert().id }
        #expect(again == alerts.map(\.id))
        // Safe plain text: no markup and no entities left in anything a page shows.
        for alert in alerts {
            for text in [alert.header, alert.description].compactMap({ $0.best(for: ["en"]) }) {
                for leftover in ["<", ">", "&lt;", "&gt;", "&amp;", "br/", "\t"] {
                    #expect(!text.contains(leftover), "\(alert.id) still has \(leftover)")
                }
            }
        }
    }

    @Test func vehiclesXML() throws {
        let answer = try CTAParser.vehicles(CTAFixtures.data("v2xml_getvehicles_rt22.xml"))
        #expect(answer.items.count == 13)
        let first = CTAVehicle(vehicleID: "4394", reportedAt: utc(2015, 2, 14, 17, 40), latitude: 41.873779296875,
                               longitude: -87.63054656982422, heading: 178, patternID: "3932", route: "22", destination: "Howard",
                               patternDistance: 115, isDelayed: false, speedMPH: 0, blockID: "22 -506", tripID: "204506")
        #expect(answer.items[0] == first)
        #expect(answer.items.map(\.destination).filter { $0 == "Howard" }.count == 7)
        #expect(answer.items.first { $0.vehicleID == "4360" }?.speedMPH == 32)
        #expect(answer.items.first { $0.vehicleID == "4332" }?.reportedAt == utc(2015, 2, 14, 17, 41))

        let placement = answer.items[0].placement
        #expect(placement.tripID == "cta:204506")
        #expect(placement.routeID == "cta:22")
        #expect(placement.routeShortName == "22")
        #expect(placement.headsign == "Howard")
        #expect(placement.serviceDate == ServiceDate(year: 2015, month: 2, day: 14))
        #expect(placement.vehicle.vehicleID == "4394")
        #expect(placement.vehicle.latitude == 41.873779296875 && placement.vehicle.longitude == -87.63054656982422)
        #expect(placement.vehicle.bearing == 178)
        #expect(placement.vehicle.reportedAt == utc(2015, 2, 14, 17, 40))
        #expect(answer.items.first { $0.vehicleID == "4360" }?.placement.vehicle.speed == 32 * 0.447_04)
    }

    @Test func timeXML() throws {
        #expect(try CTAParser.time(CTAFixtures.data("v2xml_gettime.xml")) == utc(2015, 2, 14, 17, 31, 13))
    }

    /// Twelve recordings: eleven are read above; the adapter does not ask for patterns, but
    /// that answer still reads as a bus tracker answer (no routes in it, and no error). A new
    /// recording fails this count until a test reads it.
    @Test func everyRecordingIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: CTAFixtures.folder.path).sorted()
        #expect(names.count == 12)
        #expect(try CTAParser.routes(CTAFixtures.data("v2xml_getpatterns_rt22.xml")).items.isEmpty)
    }
}
