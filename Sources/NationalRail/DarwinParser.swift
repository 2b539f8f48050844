import DataSources
import Foundation
import OnwardCore

/// Reads Darwin OpenLDBWS answers (SOAP 1.1 or 1.2) into `DarwinResponse` values.
///
/// Elements are matched by local name only: Darwin has moved its types through a
/// dozen namespaces since 2012 (`lt`, `lt4`, `lt5`, `lt7`, `lt8`, or default
/// namespaces per element), and some recordings have the declarations stripped.
/// The parser is a pure function over bytes (`XMLReader` keeps no shared state), so
/// any number of requests may parse at once.
public enum DarwinParser {
    /// Parses an answer. `status` is the HTTP status it came with: 401 and 403 are the
    /// token's fault whatever the body says; a SOAP Fault about the token is a
    /// `.configuration` error (the operator's to fix, not the traveller's), any other
    /// fault `.httpStatus`; a body that is not XML is `.undecodable` with its line.
    public static func parse(_ body: Data, status: Int = 200) throws(SourceError) -> DarwinResponse {
        try parse([UInt8](body), status: status)
    }

    /// Parses an answer given as bytes (see `parse(_:status:)`).
    public static func parse(_ bytes: [UInt8], status: Int = 200) throws(SourceError) -> DarwinResponse {
        if status == 401 || status == 403 { throw tokenRefused }
        let root: DataSources.XMLElement
        do {
            root = try XMLReader.parse(bytes)
        } catch {
            if status >= 400 { throw SourceError(.httpStatus, "National Rail answered HTTP \(status)", status: status) }
            throw SourceError(.undecodable, "National Rail's answer is not well-formed XML: \(error.description)")
        }
        let payload: DataSources.XMLElement
        if root.name == "Envelope" {
            guard let body = root.child("Body") else { throw SourceError(.undecodable, "National Rail's answer has no SOAP Body") }
            // The first element: some recordings carry stray copies of the answer's parts after it.
            guard let first = body.children.first else { throw SourceError(.undecodable, "National Rail's answer has an empty SOAP Body") }
            payload = first
        } else {
            payload = root
        }
        if payload.name == "Fault" { throw fault(payload, status: status) }
        if status >= 400 { throw SourceError(.httpStatus, "National Rail answered HTTP \(status)", status: status) }
        return try response(payload)
    }

    /// The error for a refused token. It never repeats what the server said, which
    /// might echo the request.
    static let tokenRefused = SourceError(
        .configuration, "National Rail refused the access token: check the operator's national-rail token")

    // MARK: - Faults

    static func fault(_ fault: DataSources.XMLElement, status: Int) -> SourceError {
        // SOAP 1.1: faultcode / faultstring; SOAP 1.2: Code/Value and Reason/Text.
        let text = fault.childText("faultstring") ?? fault.child("Reason")?.childText("Text") ?? ""
        let code = fault.childText("faultcode") ?? fault.child("Code")?.childText("Value") ?? ""
        let lower = (text + " " + code).lowercased()
        if lower.contains("token") || lower.contains("unauthori") || lower.contains("forbidden") { return tokenRefused }
        let shown = text.isEmpty ? "no reason given" : String(DarwinText.collapse(text).prefix(200))
        if lower.contains("invalid service id") || lower.contains("serviceid") {
            return SourceError(.notFound, "National Rail does not know that service (\(shown))")
        }
        return SourceError(.httpStatus, "National Rail answered with a SOAP fault: \(shown)", status: status >= 400 ? status : 500)
    }

    // MARK: - Answers

    static func response(_ payload: DataSources.XMLElement) throws(SourceError) -> DarwinResponse {
        let name = payload.name
        let result = payload.children.first
        if name == "GetServiceDetailsResponse" || result?.name == "GetServiceDetailsResult" {
            guard let result, result.child("generatedAt") != nil else {
                throw SourceError(.notFound, "National Rail has no details for that service now")
            }
            return .serviceDetails(try serviceDetails(result))
        }
        guard let result else { throw SourceError(.undecodable, "National Rail's \(name) is empty") }
        if result.name == "DeparturesBoard" || name.contains("Departures") {
            return .departures(try departures(result))
        }
        if result.name == "GetStationBoardResult" || name.hasSuffix("BoardResponse") || name.hasSuffix("WithDetailsResponse") {
            return .board(try board(result))
        }
        throw SourceError(.undecodable, "National Rail answered with an unexpected \(name)")
    }

    static func generatedAt(_ e: DataSources.XMLElement) throws(SourceError) -> Instant {
        guard let text = e.childText("generatedAt"), let at = isoInstant(text) else {
            throw SourceError(.undecodable, "National Rail's answer has no readable generatedAt")
        }
        return at
    }

    static func board(_ result: DataSources.XMLElement) throws(SourceError) -> DarwinStationBoard {
        let at = try generatedAt(result)
        var clock = DarwinClock()
        var board = DarwinStationBoard(
            generatedAt: at, locationName: result.childText("locationName") ?? "", crs: result.childText("crs") ?? "",
            filterLocationName: result.childText("filterLocationName"),
            filterCRS: result.childText("filtercrs") ?? result.childText("filterCrs"),
            platformAvailable: result.childText("platformAvailable").map { $0 == "true" },
            nrccMessages: messages(result))
        for (container, type) in [("trainServices", "train"), ("busServices", "bus"), ("ferryServices", "ferry")] {
            guard let list = result.child(container) else { continue }
            for element in list.children("service") {
                if let s = service(element, defaultType: type, generatedAt: at, clock: &clock) { board.services.append(s) }
            }
        }
        return board
    }

    static func departures(_ result: DataSources.XMLElement) throws(SourceError) -> DarwinDepartures {
        let at = try generatedAt(result)
        var clock = DarwinClock()
        var items: [DarwinDepartures.Item] = []
        for destination in result.child("departures")?.children("destination") ?? [] {
            let s = destination.child("service").flatMap { service($0, defaultType: "train", generatedAt: at, clock: &clock) }
            items.append(.init(destinationCRS: destination.attributes["crs"] ?? "", service: s))
        }
        return DarwinDepartures(generatedAt: at, locationName: result.childText("locationName") ?? "",
                                crs: result.childText("crs") ?? "", nrccMessages: messages(result), items: items)
    }

    static func serviceDetails(_ result: DataSources.XMLElement) throws(SourceError) -> DarwinServiceDetails {
        let at = try generatedAt(result)
        var clock = DarwinClock()
        let cancelled = result.childText("isCancelled") == "true"
        let arrival = clock.event(scheduled: result.childText("sta"), estimate: result.childText("eta"),
                                  actual: result.childText("ata"), cancelled: cancelled, near: at)
        let departure = clock.event(scheduled: result.childText("std"), estimate: result.childText("etd"),
                                    actual: result.childText("atd"), cancelled: cancelled, near: at)
        let here = departure?.scheduled ?? arrival?.scheduled ?? at
        return DarwinServiceDetails(
            generatedAt: at,
            location: DarwinLocation(name: result.childText("locationName") ?? "", crs: result.childText("crs")),
            serviceType: result.childText("serviceType") ?? "train",
            operatorName: result.childText("operator"), operatorCode: result.childText("operatorCode"),
            platform: result.childText("platform"), arrival: arrival, departure: departure, isCancelled: cancelled,
            cancelReason: result.childText("cancelReason"), delayReason: result.childText("delayReason"),
            previousCallingPoints: callingPointLists(result.child("previousCallingPoints"), backwardFrom: arrival?.scheduled ?? here, clock: &clock),
            subsequentCallingPoints: callingPointLists(result.child("subsequentCallingPoints"), forwardFrom: here, clock: &clock),
            length: result.childText("length").flatMap { Int($0) })
    }

    static func service(_ e: DataSources.XMLElement, defaultType: String, generatedAt at: Instant,
                        clock: inout DarwinClock) -> DarwinService? {
        // A row without an ID cannot link to its service; Darwin always sends one.
        guard let id = e.childText("serviceID") else { return nil }
        let cancelled = e.childText("isCancelled") == "true"
        let arrival = clock.event(scheduled: e.childText("sta"), estimate: e.childText("eta"), actual: e.childText("ata"),
                                  cancelled: cancelled, near: at)
        let departure = clock.event(scheduled: e.childText("std"), estimate: e.childText("etd"), actual: e.childText("atd"),
                                    cancelled: cancelled, near: at)
        let here = departure?.scheduled ?? arrival?.scheduled ?? at
        return DarwinService(
            serviceID: id, serviceType: e.childText("serviceType") ?? defaultType,
            operatorName: e.childText("operator"), operatorCode: e.childText("operatorCode"), platform: e.childText("platform"),
            arrival: arrival, departure: departure, isCancelled: cancelled,
            cancelReason: e.childText("cancelReason"), delayReason: e.childText("delayReason"),
            origins: locations(e.child("origin")), destinations: locations(e.child("destination")),
            previousCallingPoints: callingPointLists(e.child("previousCallingPoints"), backwardFrom: arrival?.scheduled ?? here, clock: &clock),
            subsequentCallingPoints: callingPointLists(e.child("subsequentCallingPoints"), forwardFrom: here, clock: &clock),
            length: e.childText("length").flatMap { Int($0) })
    }

    static func locations(_ e: DataSources.XMLElement?) -> [DarwinLocation] {
        (e?.children("location") ?? []).map {
            DarwinLocation(name: $0.childText("locationName") ?? $0.childText("crs") ?? "", crs: $0.childText("crs"), via: $0.childText("via"))
        }
    }

    static func messages(_ result: DataSources.XMLElement) -> [DarwinMessage] {
        (result.child("nrccMessages")?.children("message") ?? []).compactMap { m in
            // The HTML comes escaped as text; if a producer sent it as markup, keep its words.
            let html = m.children.isEmpty ? m.text : allText(m)
            let message = DarwinMessage(html: html)
            return message.text.isEmpty ? nil : message
        }
    }

    private static func allText(_ e: DataSources.XMLElement) -> String {
        ([e.text] + e.children.map(allText)).joined(separator: " ")
    }

    /// Subsequent calling points, each time placed near the call before it (the
    /// first near the service's time here), so a long run past midnight stays in order.
    static func callingPointLists(_ e: DataSources.XMLElement?, forwardFrom anchor: Instant,
                                  clock: inout DarwinClock) -> [[DarwinCallingPoint]] {
        (e?.children("callingPointList") ?? []).map { list in
            var reference = anchor
            return list.children("callingPoint").map { p in
                let point = callingPoint(p, near: reference, clock: &clock)
                if let t = point.time?.scheduled { reference = t }
                return point
            }
        }
    }

    /// Previous calling points, placed walking backwards from the service's time here.
    static func callingPointLists(_ e: DataSources.XMLElement?, backwardFrom anchor: Instant,
                                  clock: inout DarwinClock) -> [[DarwinCallingPoint]] {
        (e?.children("callingPointList") ?? []).map { list in
            var reference = anchor
            var points: [DarwinCallingPoint] = []
            for p in list.children("callingPoint").reversed() {
                let point = callingPoint(p, near: reference, clock: &clock)
                if let t = point.time?.scheduled { reference = t }
                points.append(point)
            }
            return points.reversed()
        }
    }

    static func callingPoint(_ p: DataSources.XMLElement, near reference: Instant, clock: inout DarwinClock) -> DarwinCallingPoint {
        let cancelled = p.childText("isCancelled") == "true"
        return DarwinCallingPoint(
            location: DarwinLocation(name: p.childText("locationName") ?? p.childText("crs") ?? "", crs: p.childText("crs")),
            time: clock.event(scheduled: p.childText("st"), estimate: p.childText("et"), actual: p.childText("at"),
                              cancelled: cancelled, near: reference),
            isCancelled: cancelled, cancelReason: p.childText("cancelReason"), delayReason: p.childText("delayReason"),
            length: p.childText("length").flatMap { Int($0) })
    }

    /// `2025-02-14T16:51:24.3986784+00:00` (any number of fraction digits; `Z`, an
    /// offset, or none for UTC) to the second, fractions dropped.
    static func isoInstant(_ text: String) -> Instant? {
        let u = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= u.count else { return nil }
            var v = 0
            for k in from..<(from + count) {
                guard u[k] >= 48, u[k] <= 57 else { return nil }
                v = v * 10 + Int(u[k] - 48)
            }
            return v
        }
        guard u.count >= 19, u[4] == 45, u[7] == 45, u[10] == 84 || u[10] == 32, u[13] == 58, u[16] == 58,
              let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2),
              let s = num(17, 2), h < 24, mi < 60, s < 61, let date = ServiceDate(year: y, month: mo, day: d) else { return nil }
        var i = 19
        if i < u.count, u[i] == 46 {
            i += 1
            while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
        }
        var offset = 0
        if i < u.count {
            if u[i] == 90 {
                i += 1
            } else if u[i] == 43 || u[i] == 45, let oh = num(i + 1, 2) {
                let hasColon = i + 3 < u.count && u[i + 3] == 58
                guard let om = num(i + (hasColon ? 4 : 3), 2) else { return nil }
                offset = (oh * 3600 + om * 60) * (u[i] == 45 ? -1 : 1)
                i += hasColon ? 6 : 5
            } else {
                return nil
            }
        }
        guard i == u.count else { return nil }
        return Instant(epochSeconds: Int64(date.dayNumber) * 86_400 + Int64(h * 3600 + mi * 60 + s - offset))
    }
}
