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
