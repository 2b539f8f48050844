import Hummingbird

/// Works out who sent a request before anything else reads it: the client's address (the peer's, or
/// the one a trusted proxy names), and whether it came over TLS. `X-Forwarded-Proto` is then the one
/// word on the scheme the rest of the server reads: set from a trusted proxy's `Forwarded` or
/// `X-Forwarded-Proto`, and removed from anyone else's request.
enum ClientOrigin {
    static func apply(_ request: Request, _ context: inout OnwardRequestContext, proxies: TrustedProxies) -> Request {
        // With no proxy trusted (the default), the client is the peer the context already named: no address is formatted
        // or parsed again (each was a tenth of a microsecond on every request).
        var proto: String?
        if !proxies.isEmpty {
            let peer = context.remoteAddress?.ipAddress
            context.clientAddress = proxies.client(peer: peer, headers: request.headers)
            if peer.map(proxies.trusts) ?? false { proto = TrustedProxies.forwardedProto(request.headers) }
        }
        guard proto != request.headers[.xForwardedProto] else { return request }
        var head = request.head
        head.headerFields[.xForwardedProto] = proto
        return Request(head: head, body: request.body)
    }
}
