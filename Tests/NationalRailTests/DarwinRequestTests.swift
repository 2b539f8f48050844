import DataSources
import Foundation
import NationalRail
import Testing

/// The SOAP requests: token in the header, the right operation, filters and clamped limits.
@Suite struct DarwinRequestTests {
    let endpoint = URL(string: "https://example.invalid/OpenLDBWS/ldb12.asmx")!

    func body(_ request: HTTPRequest) -> String { String(decoding: request.body ?? Data(), as: UTF8.self) }

    @Test func departureBoardWithFilter() throws {
        let request = DarwinRequest.board(.departureBoard, crs: "YRK", numRows: 5, filterCRS: "LDS", timeOffset: 30, timeWindow: 60)
            .httpRequest(token: "secret-token-123", endpoint: endpoint)
        #expect(request.method == .post)
        #expect(request.isIdempotentRead && request.isRetrySafe)
        #expect(request.url == endpoint)
        #expect(request.headers["Content-Type"] == "text/xml; charset=utf-8")
        #expect(request.headers["SOAPAction"] == "\"http://thalesgroup.com/RTTI/2015-05-14/ldb/GetDepBoardWithDetails\"")
        let xml = body(request)
        #expect(xml.contains("<soap:Header><typ:AccessToken><typ:TokenValue>secret-token-123</typ:TokenValue></typ:AccessToken></soap:Header>"))
        #expect(xml.contains("xmlns:typ=\"http://thalesgroup.com/RTTI/2013-11-28/Token/types\""))
        #expect(xml.contains("xmlns:ldb=\"http://thalesgroup.com/RTTI/2021-11-01/ldb/\""))
        #expect(xml.contains("xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\""))
        #expect(xml.contains("<ldb:GetDepBoardWithDetailsRequest><ldb:numRows>5</ldb:numRows><ldb:crs>YRK</ldb:crs>"
                             + "<ldb:filterCrs>LDS</ldb:filterCrs><ldb:filterType>to</ldb:filterType>"
                             + "<ldb:timeOffset>30</ldb:timeOffset><ldb:timeWindow>60</ldb:timeWindow></ldb:GetDepBoardWithDetailsRequest>"))
        // The envelope is XML our own reader accepts, with the token where Darwin looks for it.
        let root = try XMLReader.parse(request.body ?? Data())
        #expect(root.child("Header")?.child("AccessToken")?.childText("TokenValue") == "secret-token-123")
        #expect(root.child("Body")?.child("GetDepBoardWithDetailsRequest")?.childText("filterType") == "to")
    }

    @Test func arrivalBoardFiltersFrom() {
        let xml = DarwinRequest.board(.arrivalBoard, crs: "LDS", filterCRS: "YRK").envelope(token: "t")
        #expect(xml.contains("<ldb:GetArrBoardWithDetailsRequest>"))
        #expect(xml.contains("<ldb:filterCrs>YRK</ldb:filterCrs><ldb:filterType>from</ldb:filterType>"))
        let unfiltered = DarwinRequest.board(.arrivalDepartureBoard, crs: "ECR").envelope(token: "t")
        #expect(unfiltered.contains("<ldb:GetArrDepBoardWithDetailsRequest>") && !unfiltered.contains("filterCrs"))
    }

    @Test func limitsAreClamped() {
        let xml = DarwinRequest.board(.departureBoard, crs: "ECR", numRows: 500, timeOffset: -500, timeWindow: 1000).envelope(token: "t")
        #expect(xml.contains("<ldb:numRows>10</ldb:numRows>"))
        #expect(xml.contains("<ldb:timeOffset>-120</ldb:timeOffset>"))
        #expect(xml.contains("<ldb:timeWindow>120</ldb:timeWindow>"))
        let low = DarwinRequest.board(.departureBoard, crs: "ECR", numRows: 0, timeOffset: 200, timeWindow: 0).envelope(token: "t")
        #expect(low.contains("<ldb:numRows>1</ldb:numRows>"))
        #expect(low.contains("<ldb:timeOffset>119</ldb:timeOffset>"))
        #expect(low.contains("<ldb:timeWindow>1</ldb:timeWindow>"))
    }

    @Test func serviceDetailsKeepsTheIDAndEscapes() {
        let request = DarwinRequest.serviceDetails("ooJ6RtyQfT7XCu7oA+0t6A==").httpRequest(token: "a&b<c>", endpoint: endpoint)
        #expect(request.headers["SOAPAction"] == "\"http://thalesgroup.com/RTTI/2012-01-13/ldb/GetServiceDetails\"")
        let xml = body(request)
        #expect(xml.contains("<ldb:GetServiceDetailsRequest><ldb:serviceID>ooJ6RtyQfT7XCu7oA+0t6A==</ldb:serviceID></ldb:GetServiceDetailsRequest>"))
        #expect(xml.contains("<typ:TokenValue>a&amp;b&lt;c&gt;</typ:TokenValue>"))
    }

    @Test func nextAndFastestDepartures() {
        let next = DarwinRequest.departures(fastest: false, crs: "ECR", to: ["CLJ", "LBG"]).envelope(token: "t")
        #expect(next.contains("<ldb:GetNextDeparturesWithDetailsRequest><ldb:crs>ECR</ldb:crs>"
                              + "<ldb:filterList><ldb:crs>CLJ</ldb:crs><ldb:crs>LBG</ldb:crs></ldb:filterList>"
                              + "<ldb:timeOffset>0</ldb:timeOffset><ldb:timeWindow>120</ldb:timeWindow>"))
        let many = (0..<15).map { String(format: "A%02d", $0) }
        let fastest = DarwinRequest.departures(fastest: true, crs: "ECR", to: many).httpRequest(token: "t", endpoint: endpoint)
        #expect(fastest.headers["SOAPAction"] == "\"http://thalesgroup.com/RTTI/2015-05-14/ldb/GetFastestDeparturesWithDetails\"")
        #expect(body(fastest).components(separatedBy: "<ldb:crs>").count - 1 == 1 + DarwinRequest.maxDestinations)
    }

    @Test func soap12() {
        let request = DarwinRequest.board(.departureBoard, crs: "ECR").httpRequest(token: "t", endpoint: endpoint, version: .soap12)
        #expect(request.headers["SOAPAction"] == nil)
        #expect(request.headers["Content-Type"]
                == "application/soap+xml; charset=utf-8; action=\"http://thalesgroup.com/RTTI/2015-05-14/ldb/GetDepBoardWithDetails\"")
        #expect(body(request).contains("xmlns:soap=\"http://www.w3.org/2003/05/soap-envelope\""))
    }
}
