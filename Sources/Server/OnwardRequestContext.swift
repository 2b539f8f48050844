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
