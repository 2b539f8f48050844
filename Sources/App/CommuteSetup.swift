import Commute
import DataSources
import Foundation
import Logging
import OnwardCore
import Server
import Services
import Storage
import Transit
import TransitSources
import WebPush

/// Commuting mode's set-up: the server's VAPID key, kept in the database so that every server on
/// one database signs pushes with the key its pages' subscriptions were made with, and the
/// operator's beacons (`beacons.csv` in the data folder, optional).
enum CommuteSetup {
    static let vapidFile = "vapid-private-key.txt"
    static let beaconsFile = "beacons.csv"

    static func service(_ config: ServeConfiguration, repository: any CommuteRepository, sources: SourceRegistry, fetcher: any HTTPFetching,
                        now: @escaping @Sendable () -> Instant, logger: Logger) async throws -> CommuteService {
        let key = try await vapidKey(in: repository, legacyFolder: config.dataDir, logger: logger)
        let push = PushSender(key: key, subject: config.pushSubject, fetcher: fetcher, allowHTTP: config.pushAllowHTTP, logger: logger)
        return CommuteService(repository: repository, sources: sources, push: push, beacons: try beacons(in: config.dataDir, sources: sources),
                              defaultSpeed: config.commuteSimulationSpeed, now: now, logger: logger)
    }

    /// The key stored in the database. The first server to start stores its candidate: the key file
    /// an earlier Onward kept in the data folder when there is one (so subscriptions made with it
    /// keep working), else a new key.
    static func vapidKey(in repository: any CommuteRepository, legacyFolder folder: String, logger: Logger) async throws -> VAPIDKey {
        let legacy = try legacyVAPIDKey(in: folder)
        let stored = try await repository.pushKey(orStore: (legacy ?? VAPIDKey()).stored)
        guard let key = VAPIDKey(stored: stored) else {
            throw SetupError("the database's push key is not a VAPID private key (32 bytes, base64url)")
        }
        if let legacy, legacy.stored != key.stored {
            logger.warning("\(vapidFile) in the data folder is not the database's push key; the database's is used, and subscriptions made with the file's key will not get pushes")
        }
        return key
    }

    /// The key file an earlier Onward made in the data folder, if there is one.
    static func legacyVAPIDKey(in folder: String) throws -> VAPIDKey? {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(vapidFile).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let key = VAPIDKey(stored: text) else {
            throw SetupError("\(path) is not a VAPID private key (32 bytes, base64url). Move it away: the database's key (or a new one) is then used, and push subscriptions made with the file's key stop working.")
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
