import Foundation
import Timetable

/// Loading a compiled snapshot, and what a loaded timetable costs in memory.
enum SnapshotBenchmark {
    /// Times `Timetable.loadSnapshot(from:)` (reading the file included), `runs` times after one warm-up.
    static func loadTimes(_ file: URL, runs: Int) throws -> [Double] {
        _ = try Timetable.loadSnapshot(from: file)
        var times: [Double] = []
        for _ in 0..<runs {
            let (tt, seconds) = try Stopwatch.measure { () throws(SnapshotError) -> Timetable in try Timetable.loadSnapshot(from: file) }
            precondition(tt.stopTimeCount > 0)
            times.append(seconds)
        }
        return times
    }

    /// The `snapshot-rss` subcommand: in a fresh process, VmRSS before and after loading a snapshot.
    /// "cold" is the first load, which also pays one-off process costs (time-zone data, JSON, libraries);
    /// "warm" loads it a second time after the first copy is dropped, so the delta is what the timetable holds.
    static func childMain(path: String) throws {
        let url = URL(fileURLWithPath: path)
        MemoryProbe.trimHeap()
        let rss0 = MemoryProbe.resident ?? 0
        var coldAfter = 0
        var stopTimes = 0
        var approximate = 0
        var seconds = 0.0
        do {
            let (tt, s) = try Stopwatch.measure { () throws(SnapshotError) -> Timetable in try Timetable.loadSnapshot(from: url) }
            coldAfter = MemoryProbe.resident ?? 0
            stopTimes = tt.stopTimeCount
            approximate = tt.approximateByteSize
            seconds = s
        }
        let coldPeak = MemoryProbe.peakResident ?? 0
        MemoryProbe.trimHeap()
        let rss2 = MemoryProbe.resident ?? 0
        let tt = try Timetable.loadSnapshot(from: url)
        let warmAfter = MemoryProbe.resident ?? 0
        MemoryProbe.trimHeap()
        let warmAfterTrim = MemoryProbe.resident ?? 0
        print("seconds=\(seconds)")
        print("stop_time_count=\(stopTimes)")
        print("approximate_bytes=\(approximate)")
        print("cold_before=\(rss0)")
        print("cold_after=\(coldAfter)")
        print("cold_vmhwm=\(coldPeak)")
        print("warm_before=\(rss2)")
        print("warm_after=\(warmAfter)")
        print("warm_after_trim=\(warmAfterTrim)")
        // Keep the timetable alive until after the readings.
        withExtendedLifetime(tt) {}
    }
}
