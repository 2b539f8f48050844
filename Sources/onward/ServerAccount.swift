import App
import Foundation

/// The server and bearer token `onward login` keeps for the commands that talk to a person's
/// account, in `onward/credentials.json` in the user's config folder ($XDG_CONFIG_HOME, else
/// ~/.config), readable by its owner only. The token is never printed.
struct ServerAccount: Codable {
    var server: String
    var token: String

    static var file: URL {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return base.appendingPathComponent("onward").appendingPathComponent("credentials.json")
    }

    static func load() throws -> ServerAccount {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CLIError("not signed in: run `onward login --server URL` first")
        }
        guard let account = try? JSONDecoder().decode(ServerAccount.self, from: data) else {
            throw CLIError("\(file.path) is not what `onward login` writes: run `onward login --server URL` again")
        }
        return account
    }

    /// Writes the file with mode 0600 from the start (never readable by others, not even for a moment).
    func save() throws {
        let folder = Self.file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder().encode(self)
        let temporary = folder.appendingPathComponent(".credentials-\(getpid()).json")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CLIError("cannot write \(Self.file.path)")
        }
        // rename(2) replaces an older file in one step.
        guard rename(temporary.path, Self.file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError("cannot write \(Self.file.path): \(String(cString: strerror(errno)))")
        }
    }

    /// The server's base URL as given: http(s), without a trailing slash.
    static func base(_ text: String) throws -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw CLIError("--server must be an http(s) URL, e.g. http://127.0.0.1:8080")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// A request to the server's API, with the token when there is one; the answer's status and body.
    static func send(_ method: String, _ url: String, body: Data? = nil, token: String? = nil) async throws -> (status: Int, body: Data) {
        do throws(ServerRequests.Failure) {
            return try await ServerRequests.send(method, url, body: body, token: token)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The problem document's detail, for an error message.
    static func detail(_ body: Data) -> String {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["detail"] as? String ?? "the server refused the request"
    }
}
