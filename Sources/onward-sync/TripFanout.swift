import App
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Hummingbird
import HummingbirdWSClient
import Logging
import Server
import Services
import Storage
import Synchronization

/// `onward-sync trips`: how fast a trip's live map and chat reach its members. Release build:
///
///   /work/bench-build/release/onward-sync trips [--travellers 200] [--every 5] [--seconds 60] [--port 8184]
///
/// Starts the server as `onward serve` builds it (SQLite in a fresh data folder), makes a trip with a
/// host and TRAVELLERS travellers, each with the trip's live channel open (`/live?trip=ID`, a radius of
/// 100 km so that everyone sees everyone: the largest fan-out), and has each traveller share a position
/// every EVERY seconds (spread evenly) for SECONDS seconds, while one traveller a second writes in the
/// trip's chat. Times, per update and per member that receives it, the moment the PUT (or POST) was sent
/// to the moment that member's connection read it. Client and server share the machine.
enum TripFanout {
    struct Options {
        var travellers = 200, every = 5, seconds = 60, port = 8184
        init(_ args: [String]) {
            let given = intOptions(args, ["travellers", "every", "seconds", "port"], tool: "onward-sync trips")
            travellers = given["travellers"] ?? travellers; every = max(1, given["every"] ?? every)
            seconds = given["seconds"] ?? seconds; port = given["port"] ?? port
        }
    }

    /// What one member's connection read, by (person, update number) and by chat sequence.
    final class Member: Sendable {
        let positions = Mutex<[String: Int64]>([:])
        let chats = Mutex<[Int: Int64]>([:])
        let ready = Atomic<Bool>(false)
    }

    static func run(_ args: [String]) async throws {
        let options = Options(args)
        let dataDir = NSTemporaryDirectory() + "onward-trips-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        var logger = Logger(label: "onward-sync")
        logger.logLevel = .warning
        let level = ProcessInfo.processInfo.environment["ONWARD_LOG_LEVEL"] ?? "warning"
        if let l = Logger.Level(rawValue: level) { logger.logLevel = l }
        let (built, server, base) = try await startServer(port: options.port, dataDir: dataDir, logger: logger, logLevel: level)
        log("creating \(options.travellers + 1) accounts")
        let count = options.travellers + 1
        var tokens = Array(repeating: "", count: count), ids = tokens
        for first in stride(from: 0, to: count, by: 2) {
            try await withThrowingTaskGroup(of: (Int, String, String).self) { group in
                for p in first..<min(first + 2, count) {
                    group.addTask {
                        let (signed, token) = try await built.people.createAccount(username: "skier\(p)", password: "a long benchmark password", displayName: nil,
                                                                                   client: "onward-trips-\(p)", kind: .token)
                        return (p, token, signed.account.id)
                    }
                }
                for try await (p, token, id) in group { tokens[p] = token; ids[p] = id }
            }
        }
        let ends = Date().addingTimeInterval(86_400)
        let trip = try await send("POST", base + "/api/v1/trips", #"{"name": "Fan-out", "endsAt": "\#(ISO8601DateFormatter().string(from: ends))"}"#, token: tokens[0])
        let tripID = trip["id"] as! String, code = trip["inviteCode"] as! String
        let until = ISO8601DateFormatter().string(from: ends)
        for p in 1..<count { try await send("POST", base + "/api/v1/trips/join", #"{"code": "\#(code)"}"#, token: tokens[p]) }
        // Everyone shares once first: a traveller sees others only from a position of their own.
        for p in 1..<count {
            try await send("PUT", base + "/api/v1/trips/\(tripID)/position", position(p, 0, until), token: tokens[p])
        }
        log("connecting \(options.travellers) live connections")
        let members = (0..<count).map { _ in Member() }
        var connections: [Task<Void, Never>] = []
        for p in 1..<count {
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders = [.authorization: "Bearer \(tokens[p])"]
            // The first message holds everyone's position: larger than the client's default frame (16 KB).
            configuration.maxFrameSize = 1 << 22
            let fixed = configuration, member = members[p], url = "ws://127.0.0.1:\(options.port)/live?trip=\(tripID)&radius=100000"
            let personOf = Dictionary(uniqueKeysWithValues: (1..<count).map { (ids[$0], $0) })
            connections.append(Task {
                do { _ = try await WebSocketClient.connect(url: url, configuration: fixed, logger: logger) { inbound, _, _ in
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        let at = nanos()
                        guard case .text(let text) = message else { continue }
                        if text.hasPrefix(#"{"position""#) || text.contains(#""type":"position""#) {
                            // The update's number is in the longitude's last digits (see `position`).
                            guard let who = field(text, "person"), let p = personOf[who], let lon = Double(field(text, "longitude", quoted: false) ?? "") else { continue }
                            let n = Int(((lon - 1.45) * 1e7).rounded()) - p * 10_000
                            member.positions.withLock { $0["\(p):\(n)"] = at }
                        } else if text.contains(#""type":"chat""#), let seq = Int(field(text, "sequence", quoted: false) ?? "") {
                            member.chats.withLock { $0[seq] = at }
                        } else if text.contains(#""type":"state""#) {
                            member.ready.store(true, ordering: .relaxed)
                        }
                    }
                } } catch { log("traveller \(p)'s live connection failed: \(error)") }
            })
        }
        let connectDeadline = nanos() + 120_000_000_000
        while nanos() < connectDeadline, !members.dropFirst().allSatisfy({ $0.ready.load(ordering: .relaxed) }) { try await Task.sleep(for: .milliseconds(20)) }
        log("\(members.dropFirst().filter { $0.ready.load(ordering: .relaxed) }.count) of \(options.travellers) live connections ready")
        log("sharing for \(options.seconds) s")
        // Each traveller every `every` seconds, spread evenly; one chat message a second.
        let sent = Member()
        let interval = Double(options.every) / Double(options.travellers)
        let start = nanos()
        var updates = 0, messages = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            var k = 0
            while Double(nanos() - start) / 1e9 < Double(options.seconds) {
                let p = 1 + k % options.travellers, n = 1 + k / options.travellers
                let due = start + Int64(Double(k) * interval * 1e9)
                let wait = due - nanos()
                if wait > 0 { try await Task.sleep(for: .nanoseconds(wait)) }
                let token = tokens[p], body = position(p, n, until)
                group.addTask {
                    sent.positions.withLock { $0["\(p):\(n)"] = nanos() }
                    try await send("PUT", base + "/api/v1/trips/\(tripID)/position", body, token: token)
                }
                updates += 1
                if k % max(1, Int((1 / interval).rounded())) == 0 {
                    messages += 1
                    let author = tokens[1 + (k / 7) % options.travellers], number = messages
                    group.addTask {
                        let t = nanos()
                        let m = try await send("POST", base + "/api/v1/chat/trip:\(tripID)", #"{"text": "message \#(number)"}"#, token: author)
                        if let seq = m["sequence"] as? Int { sent.chats.withLock { $0[seq] = t } }
                    }
                }
                k += 1
            }
            try await group.waitForAll()
        }
        try await Task.sleep(for: .seconds(3))
        var fanout: [Int64] = [], chat: [Int64] = [], missingPositions = 0, missingChats = 0
        let sentPositions = sent.positions.withLock { $0 }, sentChats = sent.chats.withLock { $0 }
        for p in 1..<count {
            let seen = members[p].positions.withLock { $0 }, read = members[p].chats.withLock { $0 }
            for (key, t) in sentPositions where !key.hasPrefix("\(p):") {
                if let at = seen[key] { fanout.append(at - t) } else { missingPositions += 1 }
            }
            for (seq, t) in sentChats { if let at = read[seq] { chat.append(at - t) } else { missingChats += 1 } }
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        func ms(_ xs: [Int64], _ p: Double) -> String { String(format: "%.1f", percentile(xs, p)) }
        print("""
        onward-sync trips (release build), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load) at the end
        \(options.travellers) travellers on one trip, each sharing a position every \(options.every) s for \(options.seconds) s (\(updates) updates), everyone in everyone's radius:
        position fan-out (PUT sent → position message read by each other member): \(fanout.count) deliveries, \(missingPositions) missing
          p50 \(ms(fanout, 0.5)) ms  p99 \(ms(fanout, 0.99)) ms  max \(ms(fanout, 1)) ms
        trip chat, \(messages) messages (POST sent → chat message read by each member): \(chat.count) deliveries, \(missingChats) missing
          p50 \(ms(chat, 0.5)) ms  p99 \(ms(chat, 0.99)) ms  max \(ms(chat, 1)) ms
        """)
        for c in connections { c.cancel() }
        server.cancel()
        exit(missingPositions == 0 && missingChats == 0 ? 0 : 1)
    }

    /// Traveller `p`'s `n`th position: near Arinsal, the update's number in the longitude's 7th decimal places.
    static func position(_ p: Int, _ n: Int, _ until: String) -> String {
        let lon = 1.45 + Double(p * 10_000 + n) / 1e7
        return #"{"latitude": 42.57, "longitude": \#(String(format: "%.7f", lon)), "accuracy": 5, "sharingUntil": "\#(until)"}"#
    }

    /// A field's value in a flat JSON text, without parsing all of it (the client shares the machine with the server).
    static func field(_ text: String, _ name: String, quoted: Bool = true) -> String? {
        guard let r = text.range(of: "\"\(name)\":") else { return nil }
        var rest = text[r.upperBound...]
        if quoted {
            guard rest.first == "\"" else { return nil }
            rest = rest.dropFirst()
            return String(rest.prefix { $0 != "\"" })
        }
        return String(rest.prefix { $0 != "," && $0 != "}" })
    }
}
