import Foundation
import NationalRail
import Testing
import TransitSources

/// Parsing is safe under concurrent requests (Foundation's XMLParser on Linux is not
/// reentrant; our reader keeps no shared state): many tasks parse the largest
/// recording at once and every result equals the one parsed alone.
@Suite(.enabled(if: DarwinFixtures.available, DarwinFixtures.skipMessage))
struct ParallelParsingTests {
    static let largest = "arrival-departure-board-with-details.xml"

    @Test(arguments: [2, 8])
    func parallelParsesAgree(tasks: Int) async throws {
        let data = try DarwinFixtures.darwin(Self.largest)
        let expected = try DarwinParser.parse(data)
        let expectedRows: Int
        if case .board(let b) = expected { expectedRows = b.entries(kind: .departures).count } else { expectedRows = -1 }
        #expect(expectedRows == 10)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var bad = 0
                    for _ in 0..<50 {
                        guard let parsed = try? DarwinParser.parse(data), parsed == expected,
                              case .board(let b) = parsed, b.entries(kind: .departures).count == expectedRows else {
                            bad += 1; continue
                        }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
