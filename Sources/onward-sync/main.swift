import App
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Hummingbird
import HummingbirdWSClient
import Logging
import OnwardCore
import Server
import Services
import Storage
import StorageSQLite
import Synchronization

/// onward-sync: how fast a change to a person's saved routes reaches their other devices, and
/// how long an SQLite write of the routes takes (synchronous = FULL). Release build:
///
///   swift build -c release --scratch-path /work/bench-build --product onward-sync
///   /work/bench-build/release/onward-sync [--people 100] [--devices 3] [--rounds 10] [--writes 2000] [--port 8183]
///
/// Starts the server as `onward serve` builds it (SQLite in a fresh data folder) on 127.0.0.1:PORT,
/// makes PEOPLE accounts each with one saved route, connects DEVICES live connections per person
/// (`/live?me`, bearer token), then ROUNDS times has every person rename their route at once
/// (PATCH updateSavedRoute, from device 0) and times, for each of the other devices, the moment the
/// request was sent to the moment that device read the new version.
///
/// `onward-sync trips …` measures a trip's live map and chat instead (see `TripFanout`).

struct Options {
    var people = 100, devices = 3, rounds = 10, writes = 2_000, port = 8183
    init(_ args: [String]) {
        let given = intOptions(args, ["people", "devices", "rounds", "writes", "port"], tool: "onward-sync")
        people = given["people"] ?? people; devices = max(2, given["devices"] ?? devices); rounds = given["rounds"] ?? rounds
        writes = given["writes"] ?? writes; port = given["port"] ?? port
    }
}

/// `--name N` pairs, each name one of `names`; anything else stops the tool with a message.
func intOptions(_ args: [String], _ names: Set<String>, tool: String) -> [String: Int] {
    var found: [String: Int] = [:], i = 0
    while i < args.count {
        let name = args[i].hasPrefix("--") ? String(args[i].dropFirst(2)) : ""
        guard names.contains(name), i + 1 < args.count, let value = Int(args[i + 1]) else {
            FileHandle.standardError.write(Data("\(tool): unknown option \(args[i])\n".utf8)); exit(2)
        }
        found[name] = value
        i += 2
    }
    return found
}

func nanos() -> Int64 { Int64(DispatchTime.now().uptimeNanoseconds) }
func percentile(_ xs: [Int64], _ p: Double) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return .nan }
    return Double(s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]) / 1e6
}
func log(_ text: String) { FileHandle.standardError.write(Data("[onward-sync] \(text)\n".utf8)) }

@discardableResult
func send(_ method: String, _ url: String, _ body: String?, token: String? = nil) async throws -> [String: Any] {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    request.httpBody = body.map { Data($0.utf8) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else { throw NSError(domain: "onward-sync", code: status, userInfo: [NSLocalizedDescriptionKey: "\(method) \(url): \(status) \(String(decoding: data, as: UTF8.self).prefix(200))"]) }
    return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
}

/// When each version arrived on one live connection (also used for when each person's write was sent).
final class Device: Sendable {
    let seen = Mutex<[Int: Int64]>([:])
    func version(_ v: Int) -> Int64? { seen.withLock { $0[v] } }
}

if CommandLine.arguments.dropFirst().first == "trips" {
    try await TripFanout.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
let options = Options(Array(CommandLine.arguments.dropFirst()))
let dataDir = NSTemporaryDirectory() + "onward-sync-\(getpid())"
try FileManager.default.createDirectory(atPath: dataDir + "/direct", withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: dataDir) }
var logger = Logger(label: "onward-sync")
logger.logLevel = .warning

// 1. SQLite write latency: compare-and-swap writes of one person's routes, one after another.
let store = try SQLiteStore(directory: dataDir + "/direct")
try await store.people.createAccount(Account(id: "bench", username: "bench", displayName: "Bench", createdAt: .now()))
var state = try SavedRoutes().applying(.create(SavedRoute(id: "r1", name: "Blok M", kind: .board, stopId: "mrt-jakarta:SBKM")))
_ = try await store.people.saveRoutes(state, accountId: "bench")
var writeNanos: [Int64] = []
for i in 0..<options.writes {
    state = try state.applying(.update(routeId: "r1", name: "Blok M \(i)", position: nil))
    let t = nanos()
    guard try await store.people.saveRoutes(state, accountId: "bench") else { fatalError("a write was refused") }
    writeNanos.append(nanos() - t)
}

// 2. The server.
let (built, server, base) = try await startServer(port: options.port, dataDir: dataDir + "/server", logger: logger, logLevel: "warning")

// 3. People, each with one route. Accounts are made through the server's own service (bcrypt at cost 12,
// two at a time, one per core), each as its own client: over HTTP, one address may sign up only so often.
log("creating \(options.people) accounts")
var tokens: [String] = Array(repeating: "", count: options.people), routeIDs = tokens
for first in stride(from: 0, to: options.people, by: 2) {
    try await withThrowingTaskGroup(of: (Int, String, String).self) { group in
        for p in first..<min(first + 2, options.people) {
            group.addTask {
                let (_, token) = try await built.people.createAccount(username: "person\(p)", password: "a long benchmark password", displayName: nil,
                                                                      client: "onward-sync-\(p)", kind: .token)
                let routes = try await send("POST", base + "/api/v1/me/routes", #"{"version": 0, "route": {"kind": "board", "stopId": "SBKM"}}"#, token: token)
                return (p, token, routes["currentRouteId"] as! String)
            }
        }
        for try await (p, token, id) in group { tokens[p] = token; routeIDs[p] = id }
    }
}

// 4. Their devices.
log("connecting \(options.people * options.devices) live connections")
let devices = (0..<options.people).map { _ in (0..<options.devices).map { _ in Device() } }
var connections: [Task<Void, Never>] = []
for p in 0..<options.people {
    var configuration = WebSocketClientConfiguration()
    configuration.additionalHeaders = [.authorization: "Bearer \(tokens[p])"]
    let fixed = configuration
    for d in 0..<options.devices {
        let device = devices[p][d], url = "ws://127.0.0.1:\(options.port)/live?me"
        connections.append(Task {
            _ = try? await WebSocketClient.connect(url: url, configuration: fixed, logger: logger) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    let at = nanos()
                    guard case .text(let text) = message, let range = text.range(of: #""version":"#) else { continue }
                    let digits = text[range.upperBound...].prefix { $0.isNumber }
                    if let v = Int(digits) { device.seen.withLock { $0[v] = at } }
                }
            }
        })
    }
}
let connectDeadline = nanos() + 60_000_000_000
while nanos() < connectDeadline, !devices.allSatisfy({ $0.allSatisfy { $0.version(1) != nil } }) { try await Task.sleep(for: .milliseconds(20)) }

// 5. Rounds: everyone renames their route at once; the other devices' latencies are kept.
var latencies: [Int64] = [], missing = 0
let people = options.people, ids = routeIDs, keys = tokens
for round in 1...options.rounds {
    let version = round + 1
    let sent = Device()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for p in 0..<people {
            group.addTask {
                sent.seen.withLock { $0[p] = nanos() }
                try await send("PATCH", base + "/api/v1/me/routes/\(ids[p])", #"{"version": \#(round), "name": "Round \#(round)"}"#, token: keys[p])
            }
        }
        try await group.waitForAll()
    }
    let deadline = nanos() + 10_000_000_000
    while nanos() < deadline, !devices.allSatisfy({ $0.dropFirst().allSatisfy { $0.version(version) != nil } }) {
        try await Task.sleep(for: .milliseconds(5))
    }
    let starts = sent.seen.withLock { $0 }
    for p in 0..<options.people {
        for d in devices[p].dropFirst() {
            if let at = d.version(version), let t = starts[p] { latencies.append(at - t) } else { missing += 1 }
        }
    }
}

let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print("""
onward-sync (release build), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load) at the end
SQLite write of a person's routes (compare-and-swap, synchronous=FULL, WAL), \(options.writes) writes one after another:
  p50 \(String(format: "%.2f", percentile(writeNanos, 0.5))) ms  p99 \(String(format: "%.2f", percentile(writeNanos, 0.99))) ms  max \(String(format: "%.2f", percentile(writeNanos, 1)))  ms
sync latency, \(options.people) people × \(options.devices) devices, \(options.rounds) rounds of every person renaming a route at once
(PATCH sent on device 0 → /live?me message read on each other device; client, server and SQLite share the machine):
  \(latencies.count) samples, \(missing) missing: p50 \(String(format: "%.1f", percentile(latencies, 0.5))) ms  p99 \(String(format: "%.1f", percentile(latencies, 0.99))) ms  max \(String(format: "%.1f", percentile(latencies, 1))) ms
""")
for c in connections { c.cancel() }
server.cancel()
exit(missing == 0 ? 0 : 1)
