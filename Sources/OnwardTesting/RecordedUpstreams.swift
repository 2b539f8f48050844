import DataSources
import Foundation

/// National Rail's Darwin and the CTA Bus Tracker, replayed from the recordings in
/// `../shared/data` by a real HTTP server on 127.0.0.1: the same answers
/// `Scripts/replay-upstreams.py` gives a newcomer, for tests of the whole path
/// (configuration → adapter → HTTP → query layer → API, pages, CLI).
public enum RecordedUpstreams {
    /// Darwin operations (as named in the SOAP body) and their recorded answers.
    public static let darwin: [(operation: String, file: String)] = [
        ("GetDepBoardWithDetailsRequest", "soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml"),
        ("GetArrBoardWithDetailsRequest", "arrival-board-with-details.xml"),
        ("GetArrDepBoardWithDetailsRequest", "soap_arrdepboardwithdetails_ECR_2019.xml"),
        ("GetServiceDetailsRequest", "soap_servicedetails_ECR_2020.xml"),
    ]

    /// Bus tracker operations and their recorded answers.
    public static let cta: [(operation: String, file: String)] = [
        ("getpredictions", "v2xml_getpredictions_rt22_stpid15895.xml"),
        ("getservicebulletins", "v2xml_getservicebulletins_rt8.xml"),
        ("getroutes", "v2xml_getroutes.xml"),
        ("getdirections", "v2xml_getdirections_rt22.xml"),
        ("getstops", "v2xml_getstops_rt22_northbound.xml"),
        ("getvehicles", "v2xml_getvehicles_rt22.xml"),
        ("gettime", "v2xml_gettime.xml"),
    ]

    static let darwinFault = """
        <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
        <soap:Fault><faultcode>soap:Client</faultcode><faultstring>Unauthorized</faultstring></soap:Fault></soap:Body></soap:Envelope>
        """

    /// Darwin is at `/darwin`, the bus tracker at `/cta/v2`.
    public static func routes(on server: RecordedResponseServer) throws {
        let data = Fixtures.sharedData
        for (operation, file) in darwin {
            server.route(.post, "/darwin", bodyContains: operation,
                         reply: try .file(data.appendingPathComponent("darwin-ldbws/" + file), contentType: "text/xml; charset=utf-8"))
        }
        // A token of "invalid" is refused as Darwin refuses one (registered last, so it wins).
        server.route(.post, "/darwin", bodyContains: ">invalid</", reply: .text(darwinFault, status: 500, contentType: "text/xml; charset=utf-8"))
        for (operation, file) in cta {
            server.route(.get, "/cta/v2/" + operation,
                         reply: try .file(data.appendingPathComponent("cta-bustracker/" + file), contentType: "text/xml; charset=utf-8"))
        }
    }

    /// The environment `onward` reads to use them (as `serve` would from `ONWARD_*`).
    public static func environment(_ server: RecordedResponseServer, token: String, key: String) -> [String: String] {
        ["ONWARD_NATIONAL_RAIL_TOKEN": token, "ONWARD_NATIONAL_RAIL_URL": server.url("/darwin").absoluteString,
         "ONWARD_CTA_KEY": key, "ONWARD_CTA_URL": server.url("/cta/v2").absoluteString]
    }

    public static var available: Bool {
        FileManager.default.fileExists(atPath: Fixtures.sharedData.appendingPathComponent("darwin-ldbws").path)
    }
}
