import DataSources
import Foundation
import GTFS
import OnwardCore
import Timetable

/// `onward import`: GTFS feeds (`PATH` or `NAME=PATH`) checked and compiled into a snapshot file,
/// with what was read and what was noticed, in plain values for the CLI to print.
public enum FeedImporting {
    /// How far the reading has come: a file of a feed, in bytes.
    public struct Progress: Sendable {
        public var feed: String
        public var file: String
        public var bytesRead: Int
        public var totalBytes: Int?
    }

    /// Notices of one kind: how many, and the first few (where, and what).
    public struct NoticeGroup: Sendable {
        public var kind: String
        public var count: Int
        public var examples: [(location: String, message: String)]
    }

    public struct Summary: Sendable {
        public var feeds: [String]
        /// Seconds the reading took (writing the snapshot not included).
        public var seconds: Double
        /// Rows read per GTFS file, in the files' usual order.
        public var rowCounts: [(file: String, rows: Int)]
        public var trips: Int
        public var patterns: Int
        public var stopTimes: Int
        /// The first and last service dates, YYYY-MM-DD.
        public var serviceDates: (first: String, last: String)?
        public var notices: [NoticeGroup]
        /// The snapshot's size on disk.
        public var snapshotBytes: Int
    }

    /// Why nothing was written, in words for the person who asked.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private static let fileOrder = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
                                    "calendar_dates.txt", "frequencies.txt", "transfers.txt", "shapes.txt"]

    /// The feeds as `importFeeds` reads them: each `NAME=URL` fetched into `folder` first (with
    /// the server's limits: five minutes, `maxBytes`), as `NAME=FILE`; paths as given.
    public static func downloaded(_ feeds: [String], into folder: URL, maxBytes: Int = 1 << 30,
                                  fetcher: any HTTPFetching = Fetchers.live()) async throws(Failure) -> [String] {
        var local: [String] = []
        for text in feeds {
            let feed: KeptFeed
            do { feed = try KeptFeed(Network.FeedArgument(text)) } catch { throw Failure(description: error.description) }
            guard case .url(let url) = feed.location else { local.append(text); continue }
            let response: HTTPResponse
            do {
                response = try await fetcher.fetch(HTTPRequest(url: url, timeout: .seconds(300), maxBodyBytes: maxBytes))
            } catch {
                throw Failure(description: "cannot fetch \(feed.name): \(error.message)")
            }
            guard response.status == 200 else { throw Failure(description: "cannot fetch \(feed.name): \(url.safeDescription) answered HTTP \(response.status)") }
            let file = folder.appendingPathComponent("\(feed.name).zip")
            do { try response.body.write(to: file) } catch {
                throw Failure(description: "cannot keep \(feed.name) in \(folder.path): \(error.localizedDescription)")
            }
            local.append("\(feed.name)=\(file.path)")
        }
        return local
    }

    public static func importFeeds(_ feeds: [String], to output: String, progress: @escaping (Progress) -> Void) throws(Failure) -> Summary {
        let started = Date()
        let result: GTFSImporter.Result
        do throws(FeedError) {
            let arguments = feeds.map(Network.FeedArgument.init)
            result = try GTFSImporter.load(paths: arguments.map { URL(fileURLWithPath: $0.path) }, names: arguments.map(\.name)) {
                progress(Progress(feed: $0.feed, file: $0.file, bytesRead: $0.bytesRead, totalBytes: $0.totalBytes))
            }
        } catch {
            throw Failure(description: "the feed was refused: \(error.location): \(error.message)")
        }
        let seconds = Date().timeIntervalSince(started)
        let tt = result.timetable
        do { try tt.writeSnapshot(to: URL(fileURLWithPath: output), shapes: result.shapes) } catch {
            throw Failure(description: "cannot write the snapshot to \(output): \(error.localizedDescription)")
        }
        let notices = NoticeSummary(result.notices).groups.map { g in
            NoticeGroup(kind: g.kind, count: g.count, examples: g.examples.map { ("\($0.location)", $0.message) })
        }
        return Summary(feeds: tt.feeds.map(\.name), seconds: seconds,
                       rowCounts: fileOrder.compactMap { file in result.rowCounts[file].map { (file, $0) } },
                       trips: tt.tripCount, patterns: tt.patternCount, stopTimes: tt.stopTimeCount,
                       serviceDates: tt.calendarRange.map { ($0.lowerBound.isoString, $0.upperBound.isoString) }, notices: notices,
                       snapshotBytes: (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0)
    }
}
