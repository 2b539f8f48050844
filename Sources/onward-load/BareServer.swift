import Foundation
import Hummingbird
import Logging
import NIOCore

/// The floor the server's routes are measured against (`Benchmarks/server-load.sh`): a bare
/// Hummingbird application, with no middleware, whose one route answers every GET with the same
/// static body (a file's bytes, so it can be exactly the size of the route it stands beside).
///
///     onward-load bare --port 8183 --body FILE [--content-type TYPE]
enum BareServer {
    static func main(_ arguments: [String]) async throws {
        var port = 8183, bodyPath: String?, contentType = "application/json"
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < arguments.count else { throw LoadError("\(arguments[i - 1]) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--port":
                let text = try value()
                guard let p = Int(text), (1...65_535).contains(p) else { throw LoadError("--port must be 1-65535, not '\(text)'") }
                port = p
            case "--body": bodyPath = try value()
            case "--content-type": contentType = try value()
            default: throw LoadError("unknown argument '\(arguments[i])' (usage: onward-load bare --port P --body FILE [--content-type TYPE])")
            }
            i += 1
        }
        guard let bodyPath else { throw LoadError("bare needs --body FILE") }
        guard let bytes = FileManager.default.contents(atPath: bodyPath) else { throw LoadError("cannot read \(bodyPath)") }
        let body = ByteBuffer(bytes: bytes)
        let type = contentType
        let router = Router()
        let answer: @Sendable (Request, BasicRequestContext) async throws -> Response = { _, _ in
            Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: body))
        }
        router.get("/", use: answer)
        router.get("**", use: answer)
        var logger = Logger(label: "onward-bare")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await app.runService()
    }
}
