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
    /// The client's address, for rate limiting.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}

extension OnwardRequestContext {
    /// A path parameter as the client meant it: percent-decoded once, here at the edge,
    /// so `/stops/national-rail%3AYRK` and `/stops/national-rail:YRK` are the same stop.
    func pathID(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        guard raw.contains("%") else { return raw }
        guard let decoded = raw.removingPercentEncoding else {
            throw Problem(status: .badRequest, code: "invalid-parameter", title: "Invalid parameter",
                          detail: "The \(name) in the address is not valid percent-encoded UTF-8.", parameter: name)
        }
        return decoded
    }
}
