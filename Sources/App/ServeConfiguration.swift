import Configuration
import Foundation
import Services
import Server
import Storage
import StoragePostgres
import Synchronization
import SystemPackage

/// Settings of `onward serve`. Each comes from, in order of precedence: a
/// command-line flag, an environment variable (`ONWARD_` + the key in capitals,
/// e.g. `ONWARD_PORT`), the JSON config file (`--config`, or `onward.json` in
/// the data folder), then the default. swift-configuration's providers hold the
/// three sources and its reader decides which answers; this type checks the values.
public struct ServeConfiguration: Sendable, Hashable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// GTFS zips or folders, or one snapshot; none: the bundled network.
    public var feeds: [String] = []
    /// Seconds between checks of each static feed for a new version (`0`: never); a file is
    /// looked at every `min(feed_refresh, 10)` seconds, which costs one `stat`.
    public var feedRefresh = 21_600
    /// The largest share of its stops or trips a new feed version may lose and still be accepted.
    public var feedMaxShrink = 0.5
    /// The largest static feed accepted from a URL, in bytes.
    public var feedMaxBytes = 1 << 30
    /// What an operator sends (`Authorization: Bearer …`) to ask for a feed check now; without it, that route is off.
    public var operatorToken: String?
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
    /// Seconds between checks of the watched journeys (the browser tests make it short).
    public var watchCheckInterval = 30
    /// Delay history: days of raw observations kept after their service date, days read into the boards' book, days of
    /// per-day aggregates kept at all.
    public var historyRawDays = 7
    public var historyWindowDays = 56
    public var historyKeepDays = 400

    /// The delay history's keeping, as configured.
    public var historySettings: DelayHistoryKeeper.Settings {
        DelayHistoryKeeper.Settings(rawDays: historyRawDays, windowDays: historyWindowDays, keepDays: max(historyKeepDays, historyWindowDays))
    }
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
    /// An OpenTelemetry collector's OTLP/HTTP address (`http://collector:4318`): spans of each request, source
    /// fetch, feed swap and database call go there. Without it, no span is exported (and the request path makes none).
    /// The standard `OTEL_*` variables (service name, batch delay, headers) apply on top.
    public var traceEndpoint: String?

    /// What was set and where, one line for the start-up log: `port=[string: 9003] (--port), database_url=[string: <REDACTED>]
    /// (ONWARD_DATABASE_URL)`. Each value is swift-configuration's description of it, which redacts the secret keys.
    public internal(set) var summary = "every setting at its default"

    public init() {}

    /// The keys, as written in the config file and (in capitals, after `ONWARD_`) in the environment.
    public enum Key: String, CaseIterable, Sendable {
        case host, port, feeds, realtime, feedRefresh = "feed_refresh", feedMaxShrink = "feed_max_shrink", feedMaxBytes = "feed_max_bytes"
        case operatorToken = "operator_token"
        case simulate, simulateInterval = "simulate_interval", dataDir = "data_dir", pollInterval = "poll_interval", maxAge = "max_age"
        case databaseURL = "database_url"
        case rateLimit = "rate_limit", rateBurst = "rate_burst", logLevel = "log_level", trustedProxies = "trusted_proxies"
        case nationalRailToken = "national_rail_token", nationalRailURL = "national_rail_url", ctaKey = "cta_key", ctaURL = "cta_url"
        case pushSubject = "push_subject", pushAllowHTTP = "push_allow_http", commuteSimulationSpeed = "commute_simulation_speed"
        case watchCheckInterval = "watch_check_interval"
        case historyRawDays = "history_raw_days", historyWindowDays = "history_window_days", historyKeepDays = "history_keep_days"
        case telegramBotToken = "telegram_bot_token", telegramBotUsername = "telegram_bot_username"
        case telegramWebhookSecret = "telegram_webhook_secret", telegramAPIURL = "telegram_api_url"
        case mapTileURL = "map_tile_url", mapTileAttribution = "map_tile_attribution"
        case traceEndpoint = "trace_endpoint"
        case skiArea = "ski_area", skiElevation = "ski_elevation"

        var environmentName: String { "ONWARD_" + rawValue.uppercased() }
        var flagName: String { "--" + rawValue.replacingOccurrences(of: "_", with: "-") }
        /// Given as a JSON list in the file, or as text separated by commas.
        var isList: Bool { self == .feeds || self == .realtime || self == .trustedProxies }

        /// Never printed or logged: every provider marks these secret, so swift-configuration's descriptions
        /// show `<REDACTED>`. The database URL holds a password; the upstream endpoints may carry a key in
        /// their query (which is why their errors never repeated them).
        public var isSecret: Bool {
            switch self {
            case .databaseURL, .operatorToken, .nationalRailToken, .ctaKey, .telegramBotToken, .telegramWebhookSecret,
                 .nationalRailURL, .ctaURL, .telegramAPIURL, .traceEndpoint: true
            default: false
            }
        }
    }

    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Resolves every setting from flags (already parsed: only those given), the environment and the file.
    public static func resolve(flags: [Key: String], environment: [String: String], configFile: URL?) async throws(Problem) -> ServeConfiguration {
        // The flags come already parsed by swift-argument-parser (which checks their types, repeats and help), so
        // they reach the reader as an in-memory provider; swift-configuration's CommandLineArgumentsProvider would
        // parse CommandLine.arguments a second time, subcommand and all.
        let flagProvider = InMemoryProvider(name: "flags", values: Dictionary(uniqueKeysWithValues: flags.map { key, value in
            (AbsoluteConfigKey([key.rawValue]), ConfigValue(.string(value), isSecret: key.isSecret))
        }))
        // `port` is read as ONWARD_PORT.
        let environmentProvider = EnvironmentVariablesProvider(
            environmentVariables: environment, secretsSpecifier: .specific(Set(Key.allCases.filter(\.isSecret).map(\.environmentName)))
        ).prefixKeys(with: "onward")
        let dataDir = ConfigReader(providers: [flagProvider, environmentProvider]).string(forKey: ConfigKey(Key.dataDir.rawValue))
        let path = (configFile ?? URL(fileURLWithPath: dataDir ?? ServeConfiguration().dataDir).appendingPathComponent("onward.json")).path
        if configFile != nil, !FileManager.default.fileExists(atPath: path) {
            throw Problem(description: "\(path): no such config file")
        }
        let fileProvider: FileProvider<ConfigFile>
        do {
            fileProvider = try await FileProvider(parsingOptions: .init(path: path), filePath: FilePath(path), allowMissing: configFile == nil)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(description: "\(path): \(error)")
        }
        let accesses = LastAccess()
        var settings = Settings(
            reader: ConfigReader(providers: [flagProvider, environmentProvider, fileProvider], accessReporter: accesses),
            accesses: accesses,
            providers: [flagProvider.providerName: .flag, environmentProvider.providerName: .environment,
                      fileProvider.providerName: .file(path)],
            written: (fileProvider.snapshot() as? ConfigFile)?.written ?? [:]
        )
        var c = try settings.read()
        c.summary = settings.given.isEmpty ? c.summary : settings.given.joined(separator: ", ")
        return c
    }
}

/// Where a value came from, named as a person would look for it: `--port`, `ONWARD_PORT`, `/etc/onward.json: port`.
private enum Origin {
    case flag, environment, file(String)

    func name(_ key: ServeConfiguration.Key) -> String {
        switch self {
        case .flag: key.flagName
        case .environment: key.environmentName
        case .file(let path): "\(path): \(key.rawValue)"
        }
    }
}

/// The reader's last lookup: which provider answered (or refused the type asked for), and its value as
/// swift-configuration describes it. The reader is used from one task, one key at a time.
private final class LastAccess: AccessReporter {
    let event = Mutex<AccessEvent?>(nil)
    func report(_ event: AccessEvent) { self.event.withLock { $0 = event } }
}

/// A value as given: text (a flag, the environment, a string in the file) or the file's JSON number, boolean or list.
private enum Given {
    case text(String), number(Double), bool(Bool), list([String])
}

private struct Settings {
    typealias Key = ServeConfiguration.Key
    typealias Problem = ServeConfiguration.Problem

    let reader: ConfigReader
    let accesses: LastAccess
    let providers: [String: Origin]
    /// The file's values as written, to repeat a bad one.
    let written: [String: String]
    /// `key=value (origin)` for each setting given, secrets redacted by the library.
    var given: [String] = []
    /// Where each setting read so far came from.
    var origins: [Key: Origin] = [:]

    /// Where the last lookup found its value, or which provider refused it (`found` false); nil when no provider has the key.
    private func lastOrigin() -> (origin: Origin, found: Bool, value: ConfigValue?)? {
        guard let event = accesses.event.withLock({ $0 }) else { return nil }
        for result in event.providerResults {
            switch result.result {
            case .failure: return providers[result.providerName].map { ($0, false, nil) }
            case .success(let lookup) where lookup.value != nil:
                return providers[result.providerName].map { ($0, true, try? event.result.get()) }
            case .success: continue
            }
        }
        return nil
    }

    /// The value of a key, and where it came from. Text comes first (flags and the environment are text, and a
    /// file may quote a number); a file's JSON value of another type is read as `native`. `given` nil: the value is
    /// there but is not of that type.
    private mutating func raw(_ key: Key, native: ConfigType? = nil) -> (given: Given?, origin: Origin, shown: String)? {
        let configKey = ConfigKey(key.rawValue)
        var value: Given?
        if let text = reader.string(forKey: configKey, isSecret: key.isSecret) {
            value = .text(text)
        } else if lastOrigin() == nil {
            return nil
        } else {
            switch native {
            case .double?: value = reader.double(forKey: configKey, isSecret: key.isSecret).map(Given.number)
            case .bool?: value = reader.bool(forKey: configKey, isSecret: key.isSecret).map(Given.bool)
            case .stringArray?: value = reader.stringArray(forKey: configKey, isSecret: key.isSecret).map(Given.list)
            default: value = nil
            }
        }
        guard let (origin, found, described) = lastOrigin() else { return nil }
        origins[key] = origin
        if found, let described { given.append("\(key.rawValue)=\(described) (\(origin.name(key)))") }
        let shown: String
        if case .text(let text)? = value { shown = text } else { shown = written[key.rawValue] ?? "" }
        return (found ? value : nil, origin, shown)
    }

    mutating func string(_ key: Key) throws(Problem) -> String? {
        guard let (value, origin, _) = raw(key) else { return nil }
        guard case .text(let s)? = value else { throw Problem(description: "\(origin.name(key)) must be a string") }
        return s
    }

    /// A number from `range` (given as a number, or as text), or an error naming where it came from; a port in its own words.
    mutating func number(_ key: Key, _ range: ClosedRange<Double>) throws(Problem) -> Double? {
        guard let (value, origin, shown) = raw(key, native: .double) else { return nil }
        let n: Double? = switch value {
        case .text(let s)?: Double(s)
        case .number(let n)?: n
        default: nil
        }
        // A port is a whole number; say so in words, not as "0.0 to 65535.0".
        if key == .port, n.map({ $0.rounded() != $0 || !range.contains($0) }) ?? true {
            throw Problem(description: "\(origin.name(key)) must be a port number from 0 to 65535, not '\(shown)'")
        }
        guard let n, range.contains(n) else {
            throw Problem(description: "\(origin.name(key)) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(shown)'")
        }
        return n
    }

    mutating func list(_ key: Key) throws(Problem) -> [String]? {
        guard let (value, origin, _) = raw(key, native: .stringArray) else { return nil }
        switch value {
        case .text(let s)?: return s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .list(let a)?: return a
        default: throw Problem(description: "\(origin.name(key)) must be a list of strings")
        }
    }

    mutating func bool(_ key: Key) throws(Problem) -> Bool? {
        guard let (value, origin, shown) = raw(key, native: .bool) else { return nil }
        switch value {
        case .bool(let b)?: return b
        case .text(let s)?:
            switch s.lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: break
            }
        default: break
        }
        throw Problem(description: "\(origin.name(key)) must be true or false, not '\(shown)'")
    }

    /// An http(s) URL; the value is not repeated: a URL may hold a key.
    mutating func url(_ key: Key) throws(Problem) -> String? {
        guard let v = try string(key) else { return nil }
        guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil else {
            throw Problem(description: "\(source(key)) must be an http(s) URL")
        }
        return v
    }

    /// Where the key's value came from, once it has been read.
    private func source(_ key: Key) -> String { origins[key]?.name(key) ?? key.rawValue }

    mutating func read() throws(Problem) -> ServeConfiguration {
        var c = ServeConfiguration()
        if let v = try string(.host) { c.host = v }
        if let v = try number(.port, 0...65_535) { c.port = Int(v) }
        if let v = try list(.feeds) { c.feeds = v }
        if let v = try list(.realtime) { c.realtime = v }
        if let v = try number(.feedRefresh, 0...2_592_000) { c.feedRefresh = Int(v) }
        if let v = try number(.feedMaxShrink, 0...1) { c.feedMaxShrink = v }
        if let v = try number(.feedMaxBytes, 1_000...1e12) { c.feedMaxBytes = Int(v) }
        if let v = try string(.operatorToken), !v.isEmpty {
            guard v.count >= 16 else { throw Problem(description: "\(source(.operatorToken)) must be at least 16 characters (it guards feed refreshes)") }
            c.operatorToken = v
        }
        if let v = try bool(.simulate) { c.simulate = v }
        if let v = try number(.simulateInterval, 1...3600) { c.simulateInterval = Int(v) }
        if let v = try string(.dataDir) { c.dataDir = v }
        if let v = try string(.databaseURL), !v.isEmpty {
            // Checked now, so a wrong URL stops the start with what is wrong (the password is never repeated).
            do { _ = try PostgresLocation(url: v) } catch { throw Problem(description: "\(source(.databaseURL)): \(error.message)") }
            c.databaseURL = v
        }
        if let v = try number(.pollInterval, 1...3600) { c.pollInterval = Int(v) }
        if let v = try number(.maxAge, 1...86_400) { c.maxAge = Int(v) }
        if let v = try number(.rateLimit, 0.1...100_000) { c.rateLimit = v }
        if let v = try number(.rateBurst, 1...1_000_000) { c.rateBurst = v }
        if let v = try list(.trustedProxies) {
            do { _ = try TrustedProxies(v) } catch { throw Problem(description: "\(source(.trustedProxies)): \(error.description)") }
            c.trustedProxies = v
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
        if let v = try number(.watchCheckInterval, 1...3600) { c.watchCheckInterval = Int(v) }
        if let v = try number(.historyRawDays, 1...90) { c.historyRawDays = Int(v) }
        if let v = try number(.historyWindowDays, 7...400) { c.historyWindowDays = Int(v) }
        if let v = try number(.historyKeepDays, 7...3660) { c.historyKeepDays = Int(v) }
        if let v = try string(.telegramBotToken), !v.isEmpty { c.telegramBotToken = v }
        if let v = try string(.telegramWebhookSecret), !v.isEmpty {
            // Telegram allows 1 to 256 of A-Z, a-z, 0-9, _ and -.
            guard v.count <= 256, v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
                throw Problem(description: "telegram_webhook_secret must be 1 to 256 letters, digits, '_' or '-' (as Telegram's setWebhook takes)")
            }
            c.telegramWebhookSecret = v
        }
        if let v = try url(.telegramAPIURL) { c.telegramAPIURL = v }
        if let v = try url(.traceEndpoint) { c.traceEndpoint = v }
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
