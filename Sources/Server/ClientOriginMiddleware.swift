import Hummingbird

/// Works out who sent a request before anything else reads it: the client's address (the peer's, or
/// the one a trusted proxy names), and whether it came over TLS. `X-Forwarded-Proto` is then the one
/// word on the scheme the rest of the server reads: set from a trusted proxy's `Forwarded` or
/// `X-Forwarded-Proto`, and removed from anyone else's request.
struct ClientOriginMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let peer = context.remoteAddress?.ipAddress
        context.clientAddress = proxies.client(peer: peer, headers: request.headers)
        let trusted = peer.map(proxies.trusts) ?? false
        let proto = trusted ? TrustedProxies.forwardedProto(request.headers) : nil
        guard proto != request.headers[.xForwardedProto] else { return try await next(request, context) }
        var head = request.head
        head.headerFields[.xForwardedProto] = proto
        return try await next(Request(head: head, body: request.body), context)
    }
}
