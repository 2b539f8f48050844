import Foundation
@testable import GTFS
import Testing
import Timetable

/// The stop_id index the import's hot loop reads by bytes.
@Suite("IDs by their bytes")
struct ByteKeyIndexTests {
    func lookup(_ index: ByteKeyIndex, _ key: String) -> UInt32? {
        var key = key
        return key.withUTF8 { index.value($0) }
    }

    @Test("every key is found with its value among thousands (so slots collide), and nothing else is")
    func findsEveryKey() {
        var dictionary: [String: UInt32] = [:]
        for i in 0..<5_000 { dictionary["stop-\(i)"] = UInt32(i * 3) }
        dictionary[""] = 99_999
        dictionary["Gare de l’Est ☃"] = 7
        let index = ByteKeyIndex(dictionary)
        for (key, value) in dictionary { #expect(lookup(index, key) == value, "\(key)") }
        for missing in ["stop-5000", "stop-", "stop-1 ", "STOP-1", "x"] { #expect(lookup(index, missing) == nil, "\(missing)") }
        #expect(lookup(ByteKeyIndex([:]), "anything") == nil)
    }

    @Test("a stop_id written in another Unicode normal form than in stops.txt still matches, as a string would")
    func otherNormalForm() throws {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        let files = BaseFeed.with([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n\(composed),Café,40,-74\nB,B,40.1,-74.1\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,\(decomposed),1\nT1,08:05:00,08:05:00,B,2\n",
        ])
        var withAgency = files
        withAgency["agency.txt"] = defaultAgency
        let result = try GTFSImporter.load([InMemoryGTFSSource(name: "nf", files: withAgency)])
        #expect(result.timetable.tripCount == 1)
        #expect(result.timetable.stopTimeCount == 2)
    }
}
