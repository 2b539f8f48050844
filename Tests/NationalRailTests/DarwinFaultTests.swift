import Foundation
import NationalRail
import OnwardCore
import Testing

/// SOAP faults, HTTP errors and broken XML: an invalid token is the operator's
/// configuration error; anything else says what went wrong, and where.
@Suite struct DarwinFaultTests {
    static func soap11Fault(_ faultstring: String, code: String = "soap:Client") -> Data {
        Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
              <soap:Body>
                <soap:Fault>
                  <faultcode>\(code)</faultcode>
                  <faultstring>\(faultstring)</faultstring>
                  <detail />
                </soap:Fault>
              </soap:Body>
            </soap:Envelope>
            """.utf8)
    }

    func error(_ body: Data, status: Int) -> SourceError? {
        do {
            _ = try DarwinParser.parse(body, status: status)
            return nil
        } catch {
            return error
        }
    }

    @Test func unauthorizedFaultIsConfiguration() throws {
        let e = try #require(error(Self.soap11Fault("Unauthorized"), status: 401))
        #expect(e.code == .configuration && !e.isTransient)
        // Also when the server says so with a 500, as ASMX services do.
        #expect(error(Self.soap11Fault("Unauthorized"), status: 500)?.code == .configuration)
        #expect(error(Self.soap11Fault("Invalid Access Token"), status: 500)?.code == .configuration)
    }

    @Test func soap12TokenFault() {
        let body = Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault>
            <soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code>
            <soap:Reason><soap:Text xml:lang="en">Invalid token provided</soap:Text></soap:Reason>
            </soap:Fault></soap:Body></soap:Envelope>
            """.utf8)
        #expect(error(body, status: 500)?.code == .configuration)
    }

    @Test func anyStatusOf401IsTheToken() {
        #expect(error(Data("<html><body>Unauthorised</body></html>".utf8), status: 401)?.code == .configuration)
        #expect(error(Data("Forbidden".utf8), status: 403)?.code == .configuration)
    }

    @Test func genericFault() throws {
        let e = try #require(error(Self.soap11Fault("Server was unable to process request. ---&gt; Unexpected error", code: "soap:Server"),
                                   status: 500))
        #expect(e.code == .httpStatus && e.status == 500 && e.isTransient)
        #expect(e.message == "National Rail answered with a SOAP fault: Server was unable to process request. ---> Unexpected error")
    }

    @Test func httpErrorWithoutXML() throws {
        let e = try #require(error(Data("<html><body><h1>503 Service Unavailable".utf8), status: 503))
        #expect(e.code == .httpStatus && e.status == 503)
    }

    @Test func malformedXMLSaysWhere() throws {
        let body = Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
              <soap:Body><GetDepBoardWithDetailsResponse></GetDepartureBoardResponse>
            </soap:Envelope>
            """.utf8)
        let e = try #require(error(body, status: 200))
        #expect(e.code == .undecodable)
        #expect(e.message.contains("line 3"))
        #expect(error(Data(), status: 200)?.code == .undecodable)
        #expect(error(Data("On time".utf8), status: 200)?.code == .undecodable)
    }

    @Test(.enabled(if: DarwinFixtures.available, DarwinFixtures.skipMessage))
    func truncatedRecording() throws {
        let whole = try DarwinFixtures.darwin("departure-board-with-details.xml")
        let e = try #require(error(whole.prefix(whole.count / 2), status: 200))
        #expect(e.code == .undecodable && e.message.contains("line "))
    }

    @Test func answersThatAreNotDarwin() {
        #expect(error(Data("<soap:Envelope><soap:Header/></soap:Envelope>".utf8), status: 200)?.code == .undecodable)
        #expect(error(Data("<soap:Envelope><soap:Body><Something/></soap:Body></soap:Envelope>".utf8), status: 200)?.code == .undecodable)
        // A board without generatedAt is unreadable, not an empty board.
        let noTime = "<soap:Envelope><soap:Body><GetDepBoardWithDetailsResponse><GetStationBoardResult><crs>ECR</crs>"
            + "</GetStationBoardResult></GetDepBoardWithDetailsResponse></soap:Body></soap:Envelope>"
        #expect(error(Data(noTime.utf8), status: 200)?.code == .undecodable)
        // No details for a service: not found.
        let none = "<soap:Envelope><soap:Body><GetServiceDetailsResponse/></soap:Body></soap:Envelope>"
        #expect(error(Data(none.utf8), status: 200)?.code == .notFound)
    }

    @Test func emptyBoardIsABoard() throws {
        let xml = """
            <soap:Envelope><soap:Body><GetDepBoardWithDetailsResponse xmlns="http://thalesgroup.com/RTTI/2021-11-01/ldb/">
            <GetStationBoardResult><lt4:generatedAt>2025-02-14T23:52:27.1+00:00</lt4:generatedAt>
            <lt4:locationName>Kingswood</lt4:locationName><lt4:crs>KND</lt4:crs></GetStationBoardResult>
            </GetDepBoardWithDetailsResponse></soap:Body></soap:Envelope>
            """
        guard case .board(let b) = try DarwinParser.parse(Data(xml.utf8)) else { Issue.record("not a board"); return }
        #expect(b.services.isEmpty && b.crs == "KND" && b.generatedAt == DarwinFixtures.utc("2025-02-14T23:52:27Z"))
    }
}
