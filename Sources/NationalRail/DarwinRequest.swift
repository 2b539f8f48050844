import DataSources
import Foundation

/// One OpenLDBWS question, and the SOAP request that asks it.
///
/// Values are clamped to what Darwin accepts, so a request is never refused for
/// a number out of range: `numRows` 1–10 on the WithDetails boards (Darwin's
/// documented limit for boards that carry calling points; 150 for plain boards),
/// `timeOffset` −120…119 minutes from Darwin's own now, `timeWindow` 1–120 minutes,
/// and at most 10 destinations for the next/fastest departures.
public struct DarwinRequest: Sendable, Hashable {
    /// The operations this adapter uses. The WithDetails boards give every row its
    /// calling points, so a board row links straight to a service page.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case departureBoard = "GetDepBoardWithDetails"
        case arrivalBoard = "GetArrBoardWithDetails"
        case arrivalDepartureBoard = "GetArrDepBoardWithDetails"
        case serviceDetails = "GetServiceDetails"
        /// The next service to each of several destinations ("when is my next train home?").
        case nextDepartures = "GetNextDeparturesWithDetails"
        /// The service that arrives first at each of several destinations, even if it leaves later.
        case fastestDepartures = "GetFastestDeparturesWithDetails"

        /// The SOAPAction of the 2021-11-01 WSDL: each operation keeps the version that introduced it.
        public var soapAction: String {
            switch self {
            case .serviceDetails: "http://thalesgroup.com/RTTI/2012-01-13/ldb/\(rawValue)"
            default: "http://thalesgroup.com/RTTI/2015-05-14/ldb/\(rawValue)"
            }
        }
    }

    /// Which end of the journey `filterCRS` names.
    public enum FilterType: String, Sendable, Hashable {
        /// Services that call at `filterCRS` after this station (a departures board "to Leeds").
        case to
        /// Services that called at `filterCRS` before this station (an arrivals board "from York").
        case from
    }

    /// SOAP 1.1 (`text/xml` with a `SOAPAction` header, the default) or 1.2 (the action in the content type); Darwin takes both.
    public enum SOAPVersion: Sendable, Hashable {
        case soap11, soap12
    }

    /// The live service's schema version; answers may use any older namespaces too.
    public static let ldbNamespace = "http://thalesgroup.com/RTTI/2021-11-01/ldb/"
    /// The namespace of the `AccessToken` header, unchanged since 2013.
    public static let tokenNamespace = "http://thalesgroup.com/RTTI/2013-11-28/Token/types"

    /// Darwin's limits (see the type's comment).
    public static let maxRowsWithDetails = 10
    /// Minutes from Darwin's now a board may start at.
    public static let timeOffsetRange = -120...119
    /// Minutes a board may span.
    public static let timeWindowRange = 1...120
    /// Destinations one next/fastest departures request may name.
    public static let maxDestinations = 10

    public var operation: Operation
    /// The station asked about (boards, next/fastest departures).
    public var crs: String?
    public var numRows: Int?
    public var filterCRS: String?
    public var filterType: FilterType?
    /// Minutes from Darwin's now.
    public var timeOffset: Int?
    public var timeWindow: Int?
    public var serviceID: String?
    /// Destinations for next/fastest departures.
    public var destinations: [String]

    public init(operation: Operation, crs: String? = nil, numRows: Int? = nil, filterCRS: String? = nil,
                filterType: FilterType? = nil, timeOffset: Int? = nil, timeWindow: Int? = nil, serviceID: String? = nil,
                destinations: [String] = []) {
        self.operation = operation; self.crs = crs; self.numRows = numRows; self.filterCRS = filterCRS
        self.filterType = filterType; self.timeOffset = timeOffset; self.timeWindow = timeWindow
        self.serviceID = serviceID; self.destinations = destinations
    }

    /// A departures, arrivals or combined board with calling points.
    public static func board(_ operation: Operation, crs: String, numRows: Int = 10, filterCRS: String? = nil,
                             filterType: FilterType? = nil, timeOffset: Int = 0, timeWindow: Int = 120) -> DarwinRequest {
        DarwinRequest(operation: operation, crs: crs, numRows: numRows, filterCRS: filterCRS,
                      filterType: filterCRS == nil ? nil : (filterType ?? (operation == .arrivalBoard ? .from : .to)),
                      timeOffset: timeOffset, timeWindow: timeWindow)
    }

    /// One service's calling points, by Darwin's serviceID (valid while the service runs).
    public static func serviceDetails(_ serviceID: String) -> DarwinRequest {
        DarwinRequest(operation: .serviceDetails, serviceID: serviceID)
    }

    /// The next (or, with `fastest`, the first-arriving) departure to each destination.
    public static func departures(fastest: Bool, crs: String, to destinations: [String], timeOffset: Int = 0,
                                  timeWindow: Int = 120) -> DarwinRequest {
        DarwinRequest(operation: fastest ? .fastestDepartures : .nextDepartures, crs: crs, timeOffset: timeOffset,
                      timeWindow: timeWindow, destinations: destinations)
    }

    /// The SOAP envelope, with the token in the header (`AccessToken/TokenValue`).
    public func envelope(token: String, version: SOAPVersion = .soap11) -> String {
        let soapNamespace = version == .soap11 ? "http://schemas.xmlsoap.org/soap/envelope/" : "http://www.w3.org/2003/05/soap-envelope"
        var body = ""
        func element(_ name: String, _ value: String) { body += "<ldb:\(name)>\(DarwinRequest.escape(value))</ldb:\(name)>" }
        switch operation {
        case .departureBoard, .arrivalBoard, .arrivalDepartureBoard:
            element("numRows", String(Self.clamp(numRows ?? Self.maxRowsWithDetails, 1...Self.maxRowsWithDetails)))
            element("crs", crs ?? "")
            if let filterCRS {
                element("filterCrs", filterCRS)
                element("filterType", (filterType ?? .to).rawValue)
            }
            element("timeOffset", String(Self.clamp(timeOffset ?? 0, Self.timeOffsetRange)))
            element("timeWindow", String(Self.clamp(timeWindow ?? 120, Self.timeWindowRange)))
        case .serviceDetails:
            element("serviceID", serviceID ?? "")
        case .nextDepartures, .fastestDepartures:
            element("crs", crs ?? "")
            body += "<ldb:filterList>"
            for destination in destinations.prefix(Self.maxDestinations) { element("crs", destination) }
            body += "</ldb:filterList>"
            element("timeOffset", String(Self.clamp(timeOffset ?? 0, Self.timeOffsetRange)))
            element("timeWindow", String(Self.clamp(timeWindow ?? 120, Self.timeWindowRange)))
        }
        let request = operation.rawValue + "Request"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:soap="\(soapNamespace)" xmlns:typ="\(Self.tokenNamespace)" xmlns:ldb="\(Self.ldbNamespace)">\
            <soap:Header><typ:AccessToken><typ:TokenValue>\(Self.escape(token))</typ:TokenValue></typ:AccessToken></soap:Header>\
            <soap:Body><ldb:\(request)>\(body)</ldb:\(request)></soap:Body></soap:Envelope>
            """
    }

    /// The HTTP request: a POST marked as an idempotent read (a SOAP query changes
    /// nothing, so it may be retried and cached like a GET).
    public func httpRequest(token: String, endpoint: URL, version: SOAPVersion = .soap11,
                            timeout: Duration = .seconds(10)) -> HTTPRequest {
        var headers: [String: String]
        switch version {
        case .soap11:
            headers = ["Content-Type": "text/xml; charset=utf-8", "SOAPAction": "\"\(operation.soapAction)\""]
        case .soap12:
            headers = ["Content-Type": "application/soap+xml; charset=utf-8; action=\"\(operation.soapAction)\""]
        }
        headers["Accept"] = "text/xml, application/soap+xml"
        return HTTPRequest(method: .post, url: endpoint, headers: headers, body: Data(envelope(token: token, version: version).utf8),
                           timeout: timeout, isIdempotentRead: true)
    }

    static func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int { min(max(value, range.lowerBound), range.upperBound) }

    /// Escapes text for XML content.
    static func escape(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}

extension DarwinRequest {
    /// How long Darwin's answer to this question may be reused: boards change every few
    /// seconds at most, so 15 s fresh, then served while refreshing for 30 s more. The key
    /// names the question, never the token.
    var cachePolicy: CachePolicy {
        var parts: [String] = [operation.rawValue, crs ?? "", filterCRS ?? "", serviceID ?? ""]
        parts.append(numRows.map { String($0) } ?? "")
        parts.append(filterType.map { "\($0)" } ?? "")
        parts.append(timeOffset.map { String($0) } ?? "")
        parts.append(timeWindow.map { String($0) } ?? "")
        parts.append(destinations.joined(separator: ","))
        let key = parts.joined(separator: "|")
        return CachePolicy(key: key, ttl: .seconds(15), staleWhileRevalidate: .seconds(30))
    }
}
