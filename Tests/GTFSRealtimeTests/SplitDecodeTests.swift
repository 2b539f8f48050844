import Foundation
@testable import GTFSRealtime
import OnwardTesting
import Testing

/// A large message is decoded in two halves at once (`RealtimeWireDecoder.decodeMessage`): it must read
/// exactly what one front-to-back read gives, and fail with the same error, wherever the bytes end.
@Suite("GTFS-Realtime decoded in halves")
struct SplitDecodeTests {
    static func bytes(_ path: String) throws -> Data {
        let url = Fixtures.sharedData.appendingPathComponent("gtfs-rt").appendingPathComponent(path)
        try #require(FileManager.default.fileExists(atPath: url.path), "needs ../shared/data")
        return try Data(contentsOf: url)
    }

    /// What a decode gave: the message, or the failure's words and place.
    static func outcome(_ data: Data, parts: Int) -> Result<RealtimeMessage, WireReader.Failure> {
        Result { () throws(WireReader.Failure) in try RealtimeWireDecoder.decode(data, parts: parts) }
    }

    static func expectSame(_ a: Result<RealtimeMessage, WireReader.Failure>, _ b: Result<RealtimeMessage, WireReader.Failure>,
                           _ what: String) {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            #expect(x.tripUpdates == y.tripUpdates && x.others == y.others && x.entityCount == y.entityCount
                    && x.version == y.version && x.timestamp == y.timestamp && x.isFullDataset == y.isFullDataset, "\(what)")
        case (.failure(let x), .failure(let y)):
            #expect(x.reason == y.reason && x.offset == y.offset, "\(what): \(x.reason) at \(x.offset), against \(y.reason) at \(y.offset)")
        default:
            Issue.record("\(what): one way decoded and the other did not")
        }
    }

    @Test("Halifax's capture, large enough to be split, reads the same in halves as front to back")
    func whole() throws {
        let data = try Self.bytes("halifax/TripUpdates-2025-11-06T2104Z.pb")
        #expect(data.count >= RealtimeWireDecoder.splitBytes)
        let halves = try RealtimeWireDecoder.decode(data)
        #expect(halves.tripUpdates.count == 511 && halves.entityCount == 511)
        Self.expectSame(.success(halves), Self.outcome(data, parts: 1), "whole")
    }

    @Test("cut anywhere, or with a byte spoiled in either half, it gives the same message or the same error")
    func cutsAndDamage() throws {
        let data = try Self.bytes("halifax/TripUpdates-2025-11-06T2104Z.pb")
        var failures = 0
        for cut in stride(from: RealtimeWireDecoder.splitBytes, to: data.count, by: 9_973) {
            let part = data.prefix(cut)
            let split = Self.outcome(part, parts: 2)
            if case .failure = split { failures += 1 }
            Self.expectSame(split, Self.outcome(part, parts: 1), "cut at \(cut)")
        }
        #expect(failures > 0)
        // A length that runs past the end, early and late: the first half's fault is the one reported.
        for at in [data.count / 5, data.count * 4 / 5] {
            var spoiled = data
            for i in at..<at + 64 { spoiled[i] = 0xFF }
            let split = Self.outcome(spoiled, parts: 2)
            guard case .failure = split else { Issue.record("spoiled at \(at) decoded"); continue }
            Self.expectSame(split, Self.outcome(spoiled, parts: 1), "spoiled at \(at)")
        }
    }
}
