import API
import App
import ArgumentParser
import Foundation
import OnwardCore

struct GlanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glance",
        abstract: "The top of your current saved route's stack, from the server `onward login` signed in to.",
        discussion: """
            With --follow, stays connected and redraws in place whenever your routes change on any device \
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
        let terminal = Terminal.stdout, json = json, server = account.server
        try await LiveFollowing.follow(server + "/live?me&view=glance", token: account.token, onText: { text in
            guard let m = try? JSONDecoder().decode(RoutesMessage.self, from: Data(text.utf8)) else { return }
            if json {
                try printJSONLine(m.glance ?? RouteResultDTO(state: .noRoutes))
            } else {
                // Redrawn in place on a terminal; piped, one screen after another.
                // Written straight to the descriptor: a pipe sees each screen at once.
                let screen = (terminal.isTTY ? "\u{1B}[H\u{1B}[2J" : "—\n")
                    + GlanceText.render(m.glance ?? RouteResultDTO(state: .noRoutes), server: server, terminal: terminal) + "\n"
                FileHandle.standardOutput.write(Data(screen.utf8))
            }
        }, onLost: { wait in
            let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
            FileHandle.standardError.write(Data("connection to \(server) lost; trying again in \(String(format: "%.1f", seconds)) s\n".utf8))
        })
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
