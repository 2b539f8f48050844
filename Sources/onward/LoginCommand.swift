import API
import ArgumentParser
import Foundation

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to an Onward server and keep its token for `onward glance`.",
        discussion: """
            Asks for the password (not echoed), or reads it from ONWARD_PASSWORD, or from standard input when \
            that is not a terminal. The token is kept in $XDG_CONFIG_HOME/onward/credentials.json (else \
            ~/.config/onward/credentials.json), readable by you only, and is never printed.
            """
    )

    @Option(help: ArgumentHelp("The server, e.g. http://127.0.0.1:8080.", valueName: "URL"))
    var server: String

    @Option(help: ArgumentHelp("Your username (asked for when not given).", valueName: "NAME"))
    var username: String?

    func run() async throws {
        try await runReporting {
            let base = try ServerAccount.base(server)
            let name = try username ?? Self.ask("Username: ")
            let password = try Self.password()
            let body = try JSONEncoder().encode(SignInDTO(username: name, password: password))
            let (status, data) = try await ServerAccount.send("POST", base + "/api/v1/sessions", body: body)
            guard status == 201, let signed = try? JSONDecoder().decode(SignedInDTO.self, from: data) else {
                throw CLIError("sign-in refused: \(ServerAccount.detail(data))")
            }
            try ServerAccount(server: base, token: signed.token).save()
            print("Signed in to \(base) as \(signed.me.displayName); the token is kept in \(ServerAccount.file.path).")
        }
    }

    static func ask(_ prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = readLine(), !line.isEmpty else { throw CLIError("no username given") }
        return line
    }

    static func password() throws -> String {
        if let p = ProcessInfo.processInfo.environment["ONWARD_PASSWORD"], !p.isEmpty { return p }
        if isatty(STDIN_FILENO) == 1, let p = getpass("Password: ") { return String(cString: p) }
        guard let line = readLine(), !line.isEmpty else { throw CLIError("no password given") }
        return line
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of the server `onward login` signed in to, and forget the token.")

    func run() async throws {
        try await runReporting {
            let account = try ServerAccount.load()
            _ = try? await ServerAccount.send("DELETE", account.server + "/api/v1/sessions/current", token: account.token)
            try FileManager.default.removeItem(at: ServerAccount.file)
            print("Signed out of \(account.server).")
        }
    }
}
