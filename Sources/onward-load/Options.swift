import Foundation

/// Command-line options of `onward-load`.
struct Options {
    /// Live subscribers (WebSocket clients) on one board.
    var clients = 1_000
    /// Realtime updates applied once every client has its first message.
    var rounds = 20
    /// Seconds between updates (wall clock).
    var interval = 1.0
    /// Simulated seconds between updates: each round shows the network this much later.
    var step: Int64 = 30
    var port = 8182
    var board = "SLBB"
    var limit = 10
    /// Ask for the web app's HTML fragment too (`format=html`), as the board page does.
    var html = false
    /// Clients connected at once; the next batch starts when this one has its first messages.
    var batch = 100
    /// Seconds to wait for a batch's first messages, and for the last round's messages.
    var timeout = 20.0

    static let usage = """
    onward-load: live-update fan-out of `onward serve` to many WebSocket subscribers (release build).

    Usage: onward-load [--clients 1000] [--rounds 20] [--interval 1] [--step 30] [--port 8182]
                       [--board SLBB] [--limit 10] [--html] [--batch 100] [--timeout 20]

    Starts the server in this process on 127.0.0.1:PORT (bundled network, simulation applied by
    this tool, not by a timer), connects CLIENTS subscribers to /live?board=BOARD&limit=LIMIT,
    then applies ROUNDS realtime updates INTERVAL seconds apart, each the simulation STEP
    seconds later than the one before, and reports how long each subscriber took to receive it.

    Also: onward-load bare --port 8183 --body FILE [--content-type application/json]
    A bare Hummingbird server, no middleware, answering every GET with FILE's bytes: the floor
    `Benchmarks/server-load.sh` compares the server's routes with, body for body.
    """

    init(_ arguments: [String]) throws {
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw LoadError("\(name) needs a value") }
            return arguments[i]
        }
        func int(_ name: String, _ range: ClosedRange<Int>) throws -> Int {
            let text = try value(name)
            guard let n = Int(text), range.contains(n) else { throw LoadError("\(name) must be a whole number in \(range), not '\(text)'") }
            return n
        }
        func double(_ name: String, _ range: ClosedRange<Double>) throws -> Double {
            let text = try value(name)
            guard let n = Double(text), range.contains(n) else { throw LoadError("\(name) must be a number in \(range), not '\(text)'") }
            return n
        }
        while i < arguments.count {
            let arg = arguments[i]
            switch arg {
            case "--clients": clients = try int(arg, 1...100_000)
            case "--rounds": rounds = try int(arg, 1...10_000)
            case "--interval": interval = try double(arg, 0.01...3_600)
            case "--step": step = Int64(try int(arg, 1...86_400))
            case "--port": port = try int(arg, 1...65_535)
            case "--board": board = try value(arg)
            case "--limit": limit = try int(arg, 1...100)
            case "--html": html = true
            case "--batch": batch = try int(arg, 1...100_000)
            case "--timeout": timeout = try double(arg, 0.1...3_600)
            case "-h", "--help", "help": throw LoadError.help
            default: throw LoadError("unknown argument '\(arg)'")
            }
            i += 1
        }
    }

    var url: String {
        "ws://127.0.0.1:\(port)/live?board=\(board)&limit=\(limit)" + (html ? "&format=html" : "")
    }
}

struct LoadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
    static let help = LoadError("help")
}
