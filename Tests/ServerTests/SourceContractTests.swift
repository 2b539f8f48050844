import App
import DataSources
import Foundation
import GTFSSource
import OnwardCore
import OnwardTesting
import Testing
import Transit
import TransitSources

/// One contract, every source: the GTFS network (the bundled timetable with the simulation),
/// National Rail and the CTA bus tracker (recorded answers over real HTTP).
@Suite("Every source keeps the source contract")
struct SourceContractTests {
    @Test func gtfsNetwork() async throws {
        let source = GTFSNetworkSource(store: try TestServer.store(), displayName: "MRT Jakarta")
        try await SourceContract(stopID: "mrt-jakarta:SLBB", localStopID: "SLBB", searchText: "blok",
                                 unknownStopID: "mrt-jakarta:NOWHERE", now: TestServer.now).check(source)
    }

    @Test(.enabled(if: RecordedUpstreams.available, "../shared/data is missing"))
    func upstreams() async throws {
        try await RecordedResponseServer.run { upstream in
            try RecordedUpstreams.routes(on: upstream)
            let env = RecordedUpstreams.environment(upstream, token: "TOKEN-SECRET", key: "KEY-SECRET")
            var config = ServeConfiguration()
            config.nationalRailToken = env["ONWARD_NATIONAL_RAIL_TOKEN"]
            config.nationalRailURL = env["ONWARD_NATIONAL_RAIL_URL"]!
            config.ctaKey = env["ONWARD_CTA_KEY"]
            config.ctaURL = env["ONWARD_CTA_URL"]!
            let registry = ProtocolSources.registry(config, fetcher: URLSessionFetcher())
            let rail = try #require(registry.source(named: "national-rail"))
            try await SourceContract(stopID: "national-rail:ECR", localStopID: "ECR", searchText: "Croydon",
                                     unknownStopID: "national-rail:XQX", now: .now()).check(rail)
            let cta = try #require(registry.source(named: "cta"))
            try await SourceContract(stopID: "cta:15895", localStopID: "15895", unknownStopID: nil, now: .now()).check(cta)
        }
    }
}
