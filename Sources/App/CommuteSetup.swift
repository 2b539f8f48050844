import Commute
import DataSources
import Foundation
import Logging
import OnwardCore
import Server
import Storage
import Transit
import TransitSources
import WebPush

/// Commuting mode's parts that live in the data folder: the server's VAPID key (made on first
/// start, kept private) and the operator's beacons (`beacons.csv`, optional).
enum CommuteSetup {
    static let vapidFile = "vapid-private-key.txt"
    static let beaconsFile = "beacons.csv"

    static func service(_ config: ServeConfiguration, repository: any CommuteRepository, sources: SourceRegistry, fetcher: any HTTPFetching,
                        now: @escaping @Sendable () -> Instant, logger: Logger) throws -> CommuteService {
        let key = try vapidKey(in: config.dataDir)
        let push = PushSender(key: key, subject: config.pushSubject, fetcher: fetcher, allowHTTP: config.pushAllowHTTP, logger: logger)
        return CommuteService(repository: repository, sources: sources, push: push, beacons: try beacons(in: config.dataDir, sources: sources),
                              defaultSpeed: config.commuteSimulationSpeed, now: now, logger: logger)
    }

    /// The key in the data folder, or a new one written there readable by its owner only.
    static func vapidKey(in folder: String) throws -> VAPIDKey {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(vapidFile).path
        if FileManager.default.fileExists(atPath: path) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), let key = VAPIDKey(stored: text) else {
                throw SetupError("\(path) is not a VAPID private key (32 bytes, base64url). Move it away to make a new one; push subscriptions made with the old key will then stop working.")
            }
            return key
        }
        let key = VAPIDKey()
        guard FileManager.default.createFile(atPath: path, contents: Data((key.stored + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw SetupError("cannot write the VAPID key to \(path)")
        }
        return key
    }

    /// `beacons.csv` in the data folder, with each stop ID resolved to its full `SOURCE:LOCAL` ID.
    static func beacons(in folder: String, sources: SourceRegistry) throws -> BeaconMap {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(beaconsFile).path
        guard FileManager.default.fileExists(atPath: path) else { return BeaconMap() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw SetupError("cannot read \(path)") }
        let map: BeaconMap
        do { map = try BeaconMap(csv: text) } catch { throw SetupError("\(path): \(error.description)") }
        return try map.resolvingStops { id in
            guard let (_, canonical) = sources.resolve(id, as: .stop) else { throw SetupError("\(path): no stop or station has the ID '\(id)'") }
            return canonical
        }
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}
