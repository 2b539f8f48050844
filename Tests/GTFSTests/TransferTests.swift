import Foundation
import GTFS
import OnwardTesting
import Testing
import Timetable

@Suite("Transfers")
struct TransferTests {
    @Test func transfersAreKeptWithTheirRules() throws {
        let result = try InlineFeed.load(BaseFeed.with([
            "transfers.txt": """
                from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id,to_trip_id
                S1,S2,2,180,,
                S2,S3,4,,T1,T2
                S3,S1,0,,,
                """,
        ]))
        let tt = result.timetable
        #expect(tt.transferCount == 3)
        #expect(result.rowCounts["transfers.txt"] == 3)
        let fromS1 = tt.transfers(from: try #require(tt.stop(id: "S1")))
        #expect(fromS1 == [Transfer(type: 2, fromStopID: "test:S1", toStopID: "test:S2", fromTripID: nil, toTripID: nil, minimumSeconds: 180)])
        let fromS2 = tt.transfers(from: try #require(tt.stop(id: "S2")))
        #expect(fromS2 == [Transfer(type: 4, fromStopID: "test:S2", toStopID: "test:S3", fromTripID: "test:T1", toTripID: "test:T2", minimumSeconds: nil)])
        // And they survive a snapshot.
        let reloaded = try Timetable(snapshot: tt.snapshotData())
        #expect(reloaded.transfers(from: try #require(reloaded.stop(id: "S2"))) == fromS2)
    }

    @Test func unknownTripInTransfersIsRefused() throws {
        let error = try refusal(BaseFeed.with([
            "transfers.txt": "from_stop_id,to_stop_id,transfer_type,from_trip_id\nS1,S2,4,T9\n",
        ]))
        #expect(error.code == "unknownReference")
        #expect(error.location == FeedLocation(file: "transfers.txt", line: 2, field: "from_trip_id"))
    }

    @Test func badTransferTypeIsRefused() throws {
        let error = try refusal(BaseFeed.with(["transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S2,7\n"]))
        #expect(error.code == "invalidValue" && error.location.field == "transfer_type" && error.location.line == 2)
    }

    @Test func caltrainTransfers() throws {
        try #require(Fixtures.hasSharedData, "needs ../shared/data")
        let tt = try GTFSImporter.load(paths: [Fixtures.gtfs("caltrain-2023-09")]).timetable
        // transfers.txt has 10 rows, all transfer_type 1 (timed); 70121 → BM is one of them.
        #expect(tt.transferCount == 10)
        let rules = tt.transfers(from: try #require(tt.stop(id: "70121")))
        #expect(rules == [Transfer(type: 1, fromStopID: "caltrain-2023-09:70121", toStopID: "caltrain-2023-09:BM", fromTripID: nil, toTripID: nil, minimumSeconds: nil)])
    }
}
