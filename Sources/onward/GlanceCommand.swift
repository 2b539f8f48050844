import API
import ArgumentParser
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import OnwardCore
import Synchronization

struct GlanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glance",
        abstract: "The top of your current saved route's stack, from the server `onward login` signed in to.",
        discussion: """
            With --follow, stays connected and redraws in place whenever your routes change on any device
            or live data changes what the route shows. Stop with Ctrl-C.
            """
    )

    @Flag(help: "Keep following: redraw on every change.")
    var follow = false

    @Flag(help: "Print the result as JSON (one line per update with --follow).")
    var json = false

    func run() async throws {
        try await runReporting {
            let account = try ServerAccount.load()
            if follow { return try await followLive(account) }
            let (status, data) = try await ServerAccount.send("GET", account.server + "/api/v1/me/glance", token: account.token)
            guard status == 200, let result = try? JSONDecoder().decode(RouteResultDTO.self, from: data) else {
                throw CLIError(status == 401 ? "the server no longer accepts your token: run `onward login` again" : ServerAccount.detail(data))
            }
            print(json ? String(decoding: data, as: UTF8.self) : GlanceText.render(result, server: account.server, terminal: .stdout))
        }
    }

    /// `/live?me&view=glance` with the token, reconnecting after a dropped connection.
    func followLive(_ account: ServerAccount) async throws {
        let terminal = Terminal.stdout
        let url = account.server.replacingOccurrences(of: "http://", with: "ws://").replacingOccurrences(of: "https://", with: "wss://")
            + "/live?me&view=glance"
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders = [.authorization: "Bearer \(account.token)"]
        var logger = Logger(label: "onward-glance")
        logger.logLevel = .critical
        var wait = 1
        while !Task.isCancelled {
            let heard = Mutex(false)
            do {
                try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, _, _ in
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        guard case .text(let text) = message, let m = try? JSONDecoder().decode(RoutesMessage.self, from: Data(text.utf8)) else { continue }
                        heard.withLock { $0 = true }
                        if json {
                            try printJSONLine(m.glance ?? RouteResultDTO(state: .noRoutes))
                        } else {
                            // Redrawn in place on a terminal; piped, one screen after another.
                            // Written straight to the descriptor: a pipe sees each screen at once.
                            let screen = (terminal.isTTY ? "\u{1B}[H\u{1B}[2J" : "—\n")
                                + GlanceText.render(m.glance ?? RouteResultDTO(state: .noRoutes), server: account.server, terminal: terminal) + "\n"
                            FileHandle.standardOutput.write(Data(screen.utf8))
                        }
                    }
                }
            } catch {
                FileHandle.standardError.write(Data("connection to \(account.server) lost; trying again in \(wait) s\n".utf8))
            }
            // A connection that worked starts the backoff again.
            if heard.withLock({ $0 }) { wait = 1 }
            try await Task.sleep(for: .seconds(wait))
            wait = min(wait * 2, 30)
        }
    }
}

/// The glance as terminal text: the route's name, then what comes next.
enum GlanceText {
    static func render(_ r: RouteResultDTO, server: String, terminal: Terminal) -> String {
        guard let route = r.route else { return "No saved routes yet: save one at \(server)/me" }
        var lines = [terminal.bold(route.name)]
        func hhmm(_ iso: String?) -> String { iso.flatMap { Instant(iso8601: $0) != nil ? String($0.dropFirst(11).prefix(5)) : nil } ?? "--:--" }
        switch r.state {
        case .loaded:
            if let board = r.board {
                let rows = board.departures ?? board.arrivals ?? []
                if rows.isEmpty { lines.append(board.emptyReason ?? "Nothing coming up.") }
                for e in rows.prefix(5) {
                    let late = e.delaySeconds.map { $0 >= 60 ? terminal.yellow(" +\($0 / 60) min") : "" } ?? ""
                    lines.append("\(hhmm(e.expectedDeparture ?? e.scheduledDeparture ?? e.expectedArrival ?? e.scheduledArrival))  \(e.routeShortName)  \(e.headsign)\(late)"
                                 + (e.status == "cancelled" ? terminal.red("  cancelled") : ""))
                }
            } else if let service = r.service {
                for c in service.calls.filter({ $0.status != "departed" }).prefix(5) {
                    lines.append("\(hhmm(c.expectedArrival ?? c.scheduledArrival))  \(c.stopName)")
                }
            } else if let journeys = r.journeys {
                if journeys.journeys.isEmpty { lines.append(journeys.emptyReason ?? "No journey found.") }
                for j in journeys.journeys.prefix(3) {
                    lines.append("\(hhmm(j.departure)) → \(hhmm(j.arrival))  \(j.transfers == 0 ? "direct" : "\(j.transfers) change\(j.transfers == 1 ? "" : "s")")")
                }
            }
        case .failed, .loading, .noRoutes:
            lines.append(terminal.red("Cannot show it now: \(r.reason ?? "no answer")"))
        }
        return lines.joined(separator: "\n")
    }
}
