import App
import GTFSSource
import Foundation
import Hummingbird
import HummingbirdWSClient
import Logging
import NIOCore
import OnwardCore
import Timetable
import Transit

/// onward-load: how fast one realtime update reaches many live subscribers.
///
/// In one process: the server as `onward serve` builds it, N WebSocket clients
/// on one board, then K updates; for each, the time from just before the state
/// is swapped to each client having read the new message. See `Options.usage`.

if CommandLine.arguments.dropFirst().first == "bare" {
    do {
        try await BareServer.main(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("onward-load bare: \(error)\n".utf8))
        exit(2)
    }
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch let error as LoadError {
    if error.description == LoadError.help.description {
        print(Options.usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("onward-load: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
}

/// One realtime update as applied by this tool.
struct Round {
    var number: Int
    /// The simulated moment this update shows.
    var at: Instant
    /// The `updatedAt` its messages must carry.
    var expected: String
    /// Just before the state was swapped (`Clock.nanos`), and just after `update` returned (every subscriber told).
    var applied: Int64
    var notified: Int64
    /// Applying the simulation to a copy of the state, before the swap (off the lock, as RealtimeWriter does).
    var computeNanos: Int64
}

func log(_ text: String) {
    FileHandle.standardError.write(Data("[onward-load] \(text)\n".utf8))
}

func sleep(seconds: Double) async {
    try? await Task.sleep(for: .nanoseconds(Int64(seconds * 1e9)))
}

/// Waits until `done()` or `seconds` pass; says which.
@MainActor func waitUntil(seconds: Double, every: Double = 0.01, _ done: () -> Bool) async -> Bool {
    let deadline = Clock.nanos() + Int64(seconds * 1e9)
    while Clock.nanos() < deadline {
        if done() { return true }
        await sleep(seconds: every)
    }
    return done()
}

let command = CommandLine.arguments.joined(separator: " ")
let loadAtStart = Machine.loadAverage
let fileLimit = Machine.raiseFileLimit(to: options.clients * 2 + 512)
var logger = Logger(label: "onward-load")
logger.logLevel = .warning

// The server, with the simulation at the start applied before anyone subscribes.
let simulatedClock = SimulatedNow(LoadServer.start)
let built = try await LoadServer.build(port: options.port, clock: simulatedClock, logger: logger)
let store = built.store
store.update { $0.applySimulation(at: LoadServer.start) }
let serverTask = Task { try await built.application.runService(gracefulShutdownSignals: []) }

// Wait until it answers on /live: a probe client, retried until it reads the first message.
let probeSample: String = try await {
    let deadline = Clock.nanos() + 30_000_000_000
    while Clock.nanos() < deadline {
        let p = Subscriber(index: -1, keepTexts: true)
        let stop = Signal()
        let task = Task { await p.run(url: options.url, stop: stop, logger: logger) }
        _ = await waitUntil(seconds: 2) {
            if p.count > 0 { return true }
            if case .failed = p.phase { return true }
            return false
        }
        stop.fire()
        await task.value
        if let text = p.texts.first { return text }
        await sleep(seconds: 0.2)
    }
    throw LoadError("the server did not answer on \(options.url) within 30 s")
}()
guard probeSample.contains(#""type":"board""#) else {
    throw LoadError("the live endpoint did not send a board: \(probeSample.prefix(300))")
}
_ = await waitUntil(seconds: 5) { store.subscriberCount == 0 }

// Connect the subscribers, a batch at a time, each batch waiting for its first messages.
let stop = Signal()
let subscribers = (0..<options.clients).map { Subscriber(index: $0, keepTexts: $0 == 0) }
var clientTasks: [Task<Void, Never>] = []
let connectStart = Clock.nanos()
for first in stride(from: 0, to: options.clients, by: options.batch) {
    let batch = subscribers[first..<min(first + options.batch, options.clients)]
    for s in batch { clientTasks.append(Task { await s.run(url: options.url, stop: stop, logger: logger) }) }
    let settled = await waitUntil(seconds: options.timeout) {
        batch.allSatisfy { s in
            if s.count > 0 { return true }
            if case .failed = s.phase { return true }
            return false
        }
    }
    if !settled { log("batch at \(first): not every client had its first message after \(options.timeout) s") }
}
let connectSeconds = Double(Clock.nanos() - connectStart) / 1e9
let open = subscribers.filter { $0.count > 0 }
let failures = subscribers.compactMap { s -> String? in if case .failed(let why) = s.phase { return why }; return nil }
let firstHashes = Set(open.compactMap { $0.log.first?.hash })
let subscriptionsBefore = store.subscriberCount
let socketsBefore = Machine.openSockets()
log("\(open.count)/\(options.clients) subscribers open in \(String(format: "%.1f", connectSeconds)) s; applying \(options.rounds) updates")

// The updates: each the simulation `step` seconds later, `interval` seconds apart.
var rounds: [Round] = []
let cpuStart = Machine.cpuSeconds()
let roundsStart = Clock.nanos()
for r in 1...options.rounds {
    let at = LoadServer.start.adding(seconds: Int64(r) * options.step)
    let computeStart = Clock.nanos()
    var next = store.current
    next.applySimulation(at: at)
    let computeNanos = Clock.nanos() - computeStart
    // What the messages of this round must say in `updatedAt` (LiveDTO: the trip updates' timestamp, ISO 8601 UTC).
    let expected = LocalTime(next.realtime.overlay.tripUpdatesTimestamp ?? at, in: .gmt).iso8601
    simulatedClock.set(at)
    let applied = Clock.nanos()
    store.update { s in
        s.realtime = next.realtime
        s.sources = next.sources
        s.simulated = true
    }
    let notified = Clock.nanos()
    rounds.append(Round(number: r, at: at, expected: expected, applied: applied, notified: notified, computeNanos: computeNanos))
    if r < options.rounds {
        await sleep(seconds: Double(applied + Int64(options.interval * 1e9) - Clock.nanos()) / 1e9)
    }
}
// The last round: wait until every open client has it (or the timeout).
let lastExpected = rounds.last!.expected
let allLast = await waitUntil(seconds: options.timeout) {
    open.allSatisfy { $0.lastUpdatedAt == lastExpected }
}
let cpuSeconds = Machine.cpuSeconds() - cpuStart
let roundsSeconds = Double(Clock.nanos() - roundsStart) / 1e9
let subscriptionsDuring = store.subscriberCount
let loadAtEnd = Machine.loadAverage

// Close every client, then check the server forgot their subscriptions.
stop.fire()
let closed = await waitUntil(seconds: 15) { store.subscriberCount == 0 }
for task in clientTasks { task.cancel() }
let subscriptionsAfter = store.subscriberCount
// The server is left running: the process exits after the report (cancelling it only logs shutdown noise).
_ = serverTask

// ---- The report ----
let message = probeSample.utf8.count
print("""
onward-load: live-update fan-out of `onward serve` to WebSocket subscribers (release build)
command:   \(command)
machine:   \(Machine.cores) cores (nproc), load average \(loadAtStart) at start, \(loadAtEnd) at end
           open-file limit \(fileLimit.map { "\($0.soft) (hard \($0.hard))" } ?? "unknown"); server and clients share this process and its event loops
server:    127.0.0.1:\(options.port), \(built.summary); updates applied by this tool (simulation off), clock = simulated time
subject:   \(options.url)  (message \(message) bytes)
connect:   \(open.count)/\(options.clients) subscribers received their first message in \(String(format: "%.2f", connectSeconds)) s \
(batches of \(options.batch)); \(failures.count) failed\(failures.first.map { " (first: \($0.prefix(160)))" } ?? "")
           first messages identical across clients: \(firstHashes.count == 1 ? "yes" : "NO (\(firstHashes.count) distinct)")
connections: \(subscriptionsBefore) live subscriptions on the server (LiveStore.subscriberCount) before the updates, \
\(subscriptionsDuring) after them; \(socketsBefore.map { "\($0) sockets open in the process (client + server ends)" } ?? "")

""")

print("round  sim time (UTC)        apply   update()  received    p50 ms   p99 ms   max ms  distinct texts")
var all: [Int64] = []
var receivedAll = Set(open.map(\.index))
var wrongContent = 0
var roundChanged = 0
for round in rounds {
    var latencies: [Int64] = []
    var hashes = Set<Int>()
    for s in open {
        let log = s.log
        if let m = log.first(where: { $0.updatedAt == round.expected }) {
            latencies.append(m.at - round.applied)
            hashes.insert(m.hash)
        } else {
            receivedAll.remove(s.index)
        }
    }
    if hashes.count > 1 { wrongContent += 1 }
    all += latencies
    let l = Latencies(latencies)
    print(pad("\(round.number)", 5) + "  " + pad(LocalTime(round.at, in: .gmt).iso8601, 20, right: false) + pad(ms(round.computeNanos), 8)
          + pad(ms(round.notified - round.applied), 10) + pad("\(l.count)/\(open.count)", 10) + pad(l.p50, 10) + pad(l.p99, 9)
          + pad(l.max, 9) + pad("\(hashes.count)", 16))
}
let overall = Latencies(all)
let totalMessages = open.reduce(0) { $0 + $1.count }

// What the messages hold: client 0 keeps its texts; each round's must be a board showing that update.
var contentNotes: [String] = []
let texts = subscribers[0].texts
var previousDepartures: Data?
var departuresChanged = 0
for (i, text) in texts.enumerated() {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
          object["type"] as? String == "board", let board = object["board"] as? [String: Any],
          let departures = board["departures"] as? [Any] else {
        contentNotes.append("message \(i) of client 0 is not a board: \(text.prefix(200))")
        continue
    }
    let encoded = try? JSONSerialization.data(withJSONObject: departures, options: [.sortedKeys])
    if i > 0, encoded != previousDepartures { departuresChanged += 1 }
    previousDepartures = encoded
    if i == 0 || i == texts.count - 1 {
        let rows = departures.compactMap { $0 as? [String: Any] }
        let summary = rows.prefix(3).map { r in
            "\(r["headsign"] as? String ?? "?") \(r["expectedDeparture"] as? String ?? r["scheduledDeparture"] as? String ?? "?") \(r["status"] as? String ?? "?")"
        }.joined(separator: "; ")
        contentNotes.append("client 0 message \(i): \(rows.count) departures, updatedAt \(object["updatedAt"] as? String ?? "-"): \(summary)")
    }
}

print("""

overall:   \(overall.count) deliveries (of \(rounds.count * open.count) expected); latency p50 \(overall.p50) ms, \
p99 \(overall.p99) ms, max \(overall.max) ms (from just before the swap to the client having read the message)
clients that received every update: \(receivedAll.count)/\(options.clients)\(allLast ? "" : " (timed out waiting for the last round)")
messages:  \(totalMessages) received in all (\(open.count) first + \(rounds.count)×\(open.count) updates = \(open.count * (rounds.count + 1)) expected); \
rounds whose clients got differing texts: \(wrongContent)
content:   \(texts.count) messages kept by client 0, all boards with the round's updatedAt; departures changed in \(departuresChanged) of \(max(0, texts.count - 1)) updates
\(contentNotes.map { "           " + $0 }.joined(separator: "\n"))
cpu:       \(String(format: "%.2f", cpuSeconds)) CPU s in \(String(format: "%.1f", roundsSeconds)) s of updates \
= \(String(format: "%.1f", cpuSeconds / Double(rounds.count) * 1000)) CPU ms per update (whole process: server, \(open.count) clients, this tool) \
= \(String(format: "%.1f", cpuSeconds / Double(max(1, rounds.count * open.count)) * 1e6)) CPU µs per delivered message
close:     \(closed ? "every subscription removed after the clients closed" : "\(subscriptionsAfter) subscriptions still registered 15 s after the clients closed")
target:    p99 ≤ 100 ms with every subscriber receiving every update: \
\((overall.percentile(99) ?? .max) <= 100_000_000 && receivedAll.count == options.clients ? "MET" : "NOT MET")
""")
exit(0)
