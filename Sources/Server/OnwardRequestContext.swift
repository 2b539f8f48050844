import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The request context of every route: Hummingbird's, with WebSocket upgrades
/// and the request's ID (also in every log line and the `X-Request-Id` header).
public struct OnwardRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<OnwardRequestContext>
    public var requestID = ""
    /// The peer's address: the client's, or a proxy's.
    public let remoteAddress: SocketAddress?
    /// The client's address (what rate limits and sign-in attempts are counted by): the peer's, or the one a
    /// trusted proxy names (`ClientOrigin`).
    public var clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        clientAddress = remoteAddress?.ipAddress ?? "unknown"
    }
}

extension OnwardRequestContext {
    /// A path parameter as the client meant it: percent-decoded once, here at the edge,
    /// so `/stops/national-rail%3AYRK` and `/stops/national-rail:YRK` are the same stop.
    func pathID(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        // Bytes, not `contains("%")`: that is Foundation's substring search, a tenth of a cached board.
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        guard let decoded = raw.removingPercentEncoding else {
            throw Problem(status: .badRequest, code: "invalid-parameter", title: "Invalid parameter",
                          detail: "The \(name) in the address is not valid percent-encoded UTF-8.", parameter: name)
        }
        return decoded
    }
}
