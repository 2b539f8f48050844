import Foundation
import Server
import Storage
import StoragePostgres

/// Settings of `onward serve`. Each comes from, in order of precedence: a
/// command-line flag, an environment variable (`ONWARD_` + the key in capitals,
/// e.g. `ONWARD_PORT`), the JSON config file (`--config`, or `onward.json` in
/// the data folder), then the default.
public struct ServeConfiguration: Sendable, Hashable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// GTFS zips or folders, or one snapshot; none: the bundled network.
    public var feeds: [String] = []
    /// GTFS-Realtime URLs or files, polled.
    public var realtime: [String] = []
    public var simulate = false
    /// Seconds between simulated updates (the browser tests make it short).
    public var simulateInterval = 15
    public var dataDir = "onward-data"
    /// A PostgreSQL database (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`) shared by several servers; without it,
    /// SQLite in the data folder. Set it in the environment or the config file, not on a command line others can read.
    public var databaseURL: String?
    /// Seconds between polls of each realtime source.
    public var pollInterval = 30
    /// Live data older than this many seconds past its timestamp is shown as last known.
    public var maxAge = 120
    /// Sustained API requests per second per client, and the burst allowed.
    public var rateLimit = 50.0
    public var rateBurst = 100.0
    /// Proxies (addresses or networks) whose `Forwarded` / `X-Forwarded-For` name the client; none by default.
    public var trustedProxies: [String] = []
    public var logLevel = "info"
    /// National Rail Darwin (OpenLDBWS): the access token, and the endpoint (the public one by default).
    public var nationalRailToken: String?
    public var nationalRailURL = "https://lite.realtime.nationalrail.co.uk/OpenLDBWS/ldb12.asmx"
    /// The CTA Bus Tracker: the API key, and the base URL up to and including the version.
    public var ctaKey: String?
    public var ctaURL = "https://www.ctabustracker.com/bustime/api/v3"
    /// Web Push: the VAPID `sub` claim, how push services reach the operator (`mailto:` or `https:`).
    public var pushSubject = "mailto:operator@onward.invalid"
    /// Whether push subscriptions may name a plain-HTTP endpoint: only for a push service on this
    /// machine in tests, never on a public server (it would let anyone make the server post anywhere).
    public var pushAllowHTTP = false
    /// How many times faster than real time a simulated commute runs unless the request says (1–600).
    public var commuteSimulationSpeed = 30
    /// The ski area: an OpenStreetMap extract (OSM XML) and its SRTM tile (.hgt or a zip); by default the bundled Vallnord.
    public var skiArea: String?
    public var skiElevation: String?
    /// Sign-in with Telegram: the bot's token (from @BotFather). Without it, Telegram sign-in is off.
    public var telegramBotToken: String?
    /// The bot's username, for the login widget on the sign-in page (with the token; Telegram must know the site's domain: /setdomain).
    public var telegramBotUsername: String?
    /// What Telegram sends in `X-Telegram-Bot-Api-Secret-Token` (given to `setWebhook`); without it the webhook is off.
    public var telegramWebhookSecret: String?
    /// The Bot API's address (a test points it at a recorded server).
    public var telegramAPIURL = "https://api.telegram.org"
    /// Base tiles for the trip map, as a template (`https://tile.example/{z}/{x}/{y}.png`); without it the map draws Onward's own layers only.
    public var mapTileURL: String?
    /// The credit the tiles' licence asks for, shown on the map.
    public var mapTileAttribution: String?

    public init() {}

    /// The keys, as written in the config file and (in capitals, after `ONWARD_`) in the environment.
    public enum Key: String, CaseIterable, Sendable {
        case host, port, feeds, realtime, simulate, simulateInterval = "simulate_interval", dataDir = "data_dir", pollInterval = "poll_interval", maxAge = "max_age"
        case databaseURL = "database_url"
        case rateLimit = "rate_limit", rateBurst = "rate_burst", logLevel = "log_level", trustedProxies = "trusted_proxies"
        case nationalRailToken = "national_rail_token", nationalRailURL = "national_rail_url", ctaKey = "cta_key", ctaURL = "cta_url"
        case pushSubject = "push_subject", pushAllowHTTP = "push_allow_http", commuteSimulationSpeed = "commute_simulation_speed"
        case telegramBotToken = "telegram_bot_token", telegramBotUsername = "telegram_bot_username"
        case telegramWebhookSecret = "telegram_webhook_secret", telegramAPIURL = "telegram_api_url"
        case mapTileURL = "map_tile_url", mapTileAttribution = "map_tile_attribution"
        case skiArea = "ski_area", skiElevation = "ski_elevation"

        var environmentName: String { "ONWARD_" + rawValue.uppercased() }
    }

    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Resolves every setting from flags (already parsed: only those given), the environment and the file.
    public static func resolve(flags: [Key: String], environment: [String: String], configFile: URL?) throws(Problem) -> ServeConfiguration {
        var file: [String: Any] = [:]
        var fileName = ""
        let dataDir = flags[.dataDir] ?? environment[Key.dataDir.environmentName]
        let candidate = configFile ?? URL(fileURLWithPath: dataDir ?? ServeConfiguration().dataDir).appendingPathComponent("onward.json")
        if FileManager.default.fileExists(atPath: candidate.path) {
            fileName = candidate.path
            var bytes = Data()
            do {
                bytes = try Data(contentsOf: candidate)
                guard let object = try JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
                    throw Problem(description: "\(candidate.path): the config file must hold one JSON object")
                }
                file = object
                if let unknown = object.keys.first(where: { Key(rawValue: $0) == nil }) {
                    throw Problem(description: "\(candidate.path): unknown setting '\(unknown)'; known: \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            } catch let p as Problem {
                throw p
            } catch {
                throw Problem(description: "\(candidate.path): not valid JSON at \(jsonErrorPlace(error, in: bytes))")
            }
        } else if configFile != nil {
            throw Problem(description: "\(candidate.path): no such config file")
        }
        /// The value of a key and where it came from, for error messages.
        func raw(_ key: Key) -> (value: Any, source: String)? {
            if let v = flags[key] { return (v, "--\(key.rawValue.replacingOccurrences(of: "_", with: "-"))") }
            if let v = environment[key.environmentName] { return (v, key.environmentName) }
            if let v = file[key.rawValue] { return (v, "\(fileName): \(key.rawValue)") }
            return nil
        }
        func string(_ key: Key) throws(Problem) -> String? {
            guard let (v, source) = raw(key) else { return nil }
            guard let s = v as? String else { throw Problem(description: "\(source) must be a string") }
            return s
        }
        func number(_ key: Key, _ range: ClosedRange<Double>) throws(Problem) -> Double? {
            guard let (v, source) = raw(key) else { return nil }
            let n = (v as? NSNumber)?.doubleValue ?? (v as? String).flatMap(Double.init)
            guard let n, range.contains(n) else {
                throw Problem(description: "\(source) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(v)'")
            }
            return n
        }
        func list(_ key: Key) throws(Problem) -> [String]? {
            guard let (v, source) = raw(key) else { return nil }
            if let s = v as? String { return s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
            guard let a = v as? [String] else { throw Problem(description: "\(source) must be a list of strings") }
            return a
        }
        func bool(_ key: Key) throws(Problem) -> Bool? {
            guard let (v, source) = raw(key) else { return nil }
            if let b = v as? Bool { return b }
            switch (v as? String)?.lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw Problem(description: "\(source) must be true or false, not '\(v)'")
            }
        }
        var c = ServeConfiguration()
        if let v = try string(.host) { c.host = v }
        if let (v, source) = raw(.port) {
            // A port is a whole number; say so in words, not as "0.0 to 65535.0".
            guard let n = (v as? NSNumber).map({ $0.doubleValue }) ?? (v as? String).flatMap(Double.init),
                  n.rounded() == n, (0...65_535).contains(n) else {
                throw Problem(description: "\(source) must be a port number from 0 to 65535, not '\(v)'")
            }
            c.port = Int(n)
        }
        if let v = try list(.feeds) { c.feeds = v }
        if let v = try list(.realtime) { c.realtime = v }
        if let v = try bool(.simulate) { c.simulate = v }
        if let v = try number(.simulateInterval, 1...3600) { c.simulateInterval = Int(v) }
        if let v = try string(.dataDir) { c.dataDir = v }
        if let v = try string(.databaseURL), !v.isEmpty {
            // Checked now, so a wrong URL stops the start with what is wrong (the password is never repeated).
            do { _ = try PostgresLocation(url: v) } catch { throw Problem(description: "\(raw(.databaseURL)!.source): \(error.message)") }
            c.databaseURL = v
        }
        if let v = try number(.pollInterval, 1...3600) { c.pollInterval = Int(v) }
        if let v = try number(.maxAge, 1...86_400) { c.maxAge = Int(v) }
        if let v = try number(.rateLimit, 0.1...100_000) { c.rateLimit = v }
        if let v = try number(.rateBurst, 1...1_000_000) { c.rateBurst = v }
        if let v = try list(.trustedProxies) {
            do { _ = try TrustedProxies(v) } catch { throw Problem(description: "\(raw(.trustedProxies)!.source): \(error.description)") }
            c.trustedProxies = v
        }
        func url(_ key: Key) throws(Problem) -> String? {
            guard let v = try string(key) else { return nil }
            guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil else {
                // The value is not repeated: a URL may hold a key.
                throw Problem(description: "\(raw(key)!.source) must be an http(s) URL")
            }
            return v
        }
        if let v = try string(.nationalRailToken), !v.isEmpty { c.nationalRailToken = v }
        if let v = try url(.nationalRailURL) { c.nationalRailURL = v }
        if let v = try string(.ctaKey), !v.isEmpty { c.ctaKey = v }
        if let v = try url(.ctaURL) { c.ctaURL = v }
        if let v = try string(.pushSubject) {
            guard v.hasPrefix("mailto:") || v.hasPrefix("https://") else { throw Problem(description: "push_subject must be a mailto: or https: URL") }
            c.pushSubject = v
        }
        if let v = try bool(.pushAllowHTTP) { c.pushAllowHTTP = v }
        if let v = try number(.commuteSimulationSpeed, 1...600) { c.commuteSimulationSpeed = Int(v) }
        if let v = try string(.telegramBotToken), !v.isEmpty { c.telegramBotToken = v }
        if let v = try string(.telegramWebhookSecret), !v.isEmpty {
            // Telegram allows 1 to 256 of A-Z, a-z, 0-9, _ and -.
            guard v.count <= 256, v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
                throw Problem(description: "telegram_webhook_secret must be 1 to 256 letters, digits, '_' or '-' (as Telegram's setWebhook takes)")
            }
            c.telegramWebhookSecret = v
        }
        if let v = try url(.telegramAPIURL) { c.telegramAPIURL = v }
        if let v = try string(.mapTileURL), !v.isEmpty {
            guard v.hasPrefix("https://") || v.hasPrefix("http://"), v.contains("{z}"), v.contains("{x}"), v.contains("{y}") else {
                throw Problem(description: "map_tile_url must be an http(s) URL template with {z}, {x} and {y}")
            }
            c.mapTileURL = v
        }
        if let v = try string(.mapTileAttribution), !v.isEmpty { c.mapTileAttribution = v }
        if let v = try string(.skiArea), !v.isEmpty { c.skiArea = v }
        if let v = try string(.skiElevation), !v.isEmpty { c.skiElevation = v }
        if let v = try string(.telegramBotUsername), !v.isEmpty {
            guard (5...32).contains(v.count), v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw Problem(description: "telegram_bot_username must be a bot's username: 5 to 32 letters, digits or '_'")
            }
            c.telegramBotUsername = v
        }
        if let v = try string(.logLevel) {
            guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(v) else {
                throw Problem(description: "log_level must be one of trace, debug, info, notice, warning, error, critical")
            }
            c.logLevel = v
        }
        return c
    }
}
