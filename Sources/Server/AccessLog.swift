import HTTPTypes
import Hummingbird
import Logging

/// One line per request at info: method, path (never the query string, nor a commute's ID), status,
/// duration in milliseconds and the request ID. Written last, so it has the status an error was turned into.
enum AccessLog {
    static func log(_ request: Request, logger: Logger, status: Int, id: String, since start: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - start).components
        // Tenths of a millisecond, rounded, in whole numbers: printing a Double was most of the line's own cost.
        let tenths = (elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000 + 50_000) / 100_000
        logger.info("\(request.method.rawValue) \(AccessLogMiddlewarePath.logged(request.uri.path)) \(status) \(tenths / 10).\(tenths % 10) ms", metadata: [
            "request.id": .string(id),
        ])
    }
}

/// What the access log prints of a path: secrets left out (a commute's ID is the key to it).
public enum AccessLogMiddlewarePath {
    public static func logged(_ path: String) -> String {
        let prefix = "/api/v1/commutes/"
        guard path.hasPrefix(prefix) else { return path }
        let rest = path.dropFirst(prefix.count).drop { $0 != "/" }
        return prefix + "{commuteId}" + rest
    }
}
