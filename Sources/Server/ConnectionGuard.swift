import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// How long a connection may take and sit idle.
public struct ConnectionLimits: Sendable {
    /// The first request's line and headers must arrive within this, or the connection is closed.
    public var firstRequestTimeout: TimeAmount
    /// A connection with no request under way is closed after this (WebSocket connections excepted).
    public var idleTimeout: TimeAmount

    public init(firstRequestTimeout: TimeAmount = .seconds(30), idleTimeout: TimeAmount = .seconds(60)) {
        self.firstRequestTimeout = firstRequestTimeout
        self.idleTimeout = idleTimeout
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the live WebSocket, as Hummingbird builds it, plus a guard on each
    /// connection's first request, which Hummingbird's upgrade code reads before its own
    /// HTTP handling does (see `FirstRequestGuard`), and an idle timeout.
    public static func onward(_ router: Router<OnwardRequestContext>, deps: ServerDependencies,
                              limits: ConnectionLimits = .init()) -> HTTPServerBuilder {
        let webSocketResponder = router.buildResponder()
        let live = LiveRoutes(deps: deps, fragment: { _, _, _ in nil }, commuteFragment: { _, _ in "" })
        let refusesUpgrade: @Sendable (HTTPRequestHead) -> Bool = { head in
            var fields = HTTPFields()
            for (name, value) in head.headers { if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) } }
            let request = Request(head: HTTPRequest(method: .get, scheme: nil, authority: head.headers["Host"].first, path: head.uri,
                                                    headerFields: fields),
                                  body: .init(buffer: ByteBuffer()))
            return live.refusesUpgrade(request)
        }
        return .init { responder in
            GuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                   configuration: .init(http1: .init(idleTimeout: limits.idleTimeout))),
                timeout: limits.firstRequestTimeout, refusesUpgrade: refusesUpgrade)
        }
    }
}

/// Hummingbird's WebSocket channel with `FirstRequestGuard` placed right after the HTTP decoder.
struct GuardedChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let base: HTTP1WebSocketUpgradeChannel
    let timeout: TimeAmount
    let refusesUpgrade: @Sendable (HTTPRequestHead) -> Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { [timeout, refusesUpgrade] value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(FirstRequestGuard(timeout: timeout, refusesUpgrade: refusesUpgrade), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        // Hummingbird's upgrade code waits for the first request outside any graceful-shutdown handler, so a
        // connection opened and left silent (a browser's preconnect) held a stopping server until the guard's timeout.
        await withGracefulShutdownHandler {
            await base.handle(value: value, logger: logger)
        } onGracefulShutdown: {
            FirstRequestGuard.endIfWaiting(value.channel)
        }
    }
}

/// Watches a connection until its first request head has arrived. Until then
/// Hummingbird's WebSocket upgrade handler owns the connection, and it neither answers
/// a request it cannot parse (raw non-ASCII bytes in the target, a 100 KB request line)
/// nor times out: the connection stayed open with no answer. Here such a request gets
/// `400` and the connection is closed, and one that does not arrive in time is closed.
/// A WebSocket upgrade that `/live` would refuse (a foreign Origin, a bad parameter) is
/// passed on as a plain request, so the router answers it with its status and problem
/// document (403, 400) instead of the upgrade code's empty 400.
/// After the first head, later requests go through Hummingbird's HTTP handling, which
/// answers parse errors and applies the idle timeout itself, so the guard removes itself.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    private let refusesUpgrade: (HTTPRequestHead) -> Bool
    private var deadline: Scheduled<Void>?
    private var answered = false

    init(timeout: TimeAmount, refusesUpgrade: @escaping (HTTPRequestHead) -> Bool) {
        self.timeout = timeout
        self.refusesUpgrade = refusesUpgrade
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startClock(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startClock(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        deadline?.cancel()
        deadline = nil
        guard head.uri.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            // HTTPTypes cannot hold such a target, and the request would go unanswered.
            return refuse(context)
        }
        if head.headers["Upgrade"].contains(where: { $0.lowercased() == "websocket" }), refusesUpgrade(head) {
            head.headers.remove(name: "Upgrade")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        refuse(context)
    }

    private func startClock(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) { Self.end(bound.value) }
    }

    /// On shutdown: closes `channel` if its first request has not come yet (the guard is still in its pipeline).
    /// Once it has, Hummingbird's HTTP handling ends the connection after the request under way.
    static func endIfWaiting(_ channel: any Channel) {
        channel.eventLoop.execute {
            guard let context = try? channel.pipeline.syncOperations.context(handlerType: FirstRequestGuard.self) else { return }
            end(context)
        }
    }

    /// `400` with a problem document, then the connection is closed.
    private func refuse(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        deadline?.cancel()
        deadline = nil
        let problem = Problem(status: .badRequest, code: "bad-request", title: "Bad Request",
                              detail: "The request could not be read: the request line and headers must be valid HTTP/1.1, in ASCII, under 80 KB.")
        let body = ByteBuffer(bytes: (try? JSONEncoder.api.encode(problem)) ?? Data())
        let headers = HTTPHeaders([("Content-Type", "application/problem+json"), ("Content-Length", String(body.readableBytes)),
                                   ("Connection", "close"), ("Cache-Control", "no-store")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in Self.end(bound.value) }
    }

    /// Closes the connection. Told first that the input has ended, the upgrade handler (which
    /// has seen no request) closes it and ends its wait quietly; closed under it, it would end
    /// with an error Hummingbird logs as "Error handling upgrade result".
    private static func end(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }
}

/// Whether `error` is the listening socket's "address already in use" (another
/// process has the port), so the command can say so in words.
public func isAddressInUseError(_ error: any Error) -> Bool {
    (error as? IOError)?.errnoCode == EADDRINUSE
}
