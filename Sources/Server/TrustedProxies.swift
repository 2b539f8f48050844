import Foundation
import HTTPTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The proxies (nginx, a load balancer) whose word the server takes for who the client is. A request
/// from one of them names the client in `Forwarded` (RFC 7239) or `X-Forwarded-For`, and the scheme in
/// `proto=` or `X-Forwarded-Proto`; from anyone else those headers are ignored, or a client could
/// claim any address (and any rate limit) and claim TLS it does not have.
public struct TrustedProxies: Sendable, Hashable {
    /// One address or network, as bytes (4 for IPv4, 16 for IPv6) and a prefix length.
    struct Network: Sendable, Hashable {
        var bytes: [UInt8]
        var prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) {
                guard left > 0 else { return true }
                let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
                if a & mask != b & mask { return false }
                left -= 8
            }
            return true
        }
    }

    let networks: [Network]

    public static let none = TrustedProxies(networks: [])

    init(networks: [Network]) { self.networks = networks }

    /// Reads addresses and networks such as `127.0.0.1`, `10.0.0.0/8` or `fd00::/8`; the error names the one that is not.
    public init(_ entries: [String]) throws(ParseError) {
        networks = try entries.map { entry throws(ParseError) in
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.address(parts[0]) else { throw ParseError(entry: entry) }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else { throw ParseError(entry: entry) }
            return Network(bytes: bytes, prefix: prefix)
        }
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var entry: String
        public var description: String { "'\(entry)' is not an IP address or network (such as 10.0.0.0/8 or fd00::/8)" }
    }

    public var isEmpty: Bool { networks.isEmpty }

    func trusts(_ address: String) -> Bool {
        guard let bytes = Self.address(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// Who sent the request: the peer, or, when the peer is a trusted proxy, the nearest address before
    /// the trusted proxies in the forwarding chain (read from the right: the left part is the client's to write).
    public func client(peer: String?, headers: HTTPFields) -> String {
        guard let peer else { return "unknown" }
        guard trusts(peer) else { return peer }
        let chain = Self.forwardedFor(headers)
        for hop in chain.reversed() where !trusts(hop) {
            // An address this server cannot read (`unknown`, an obfuscated name) stops the walk: the proxy vouches for no more.
            return Self.address(hop) == nil ? peer : hop
        }
        return chain.first ?? peer
    }

    /// Whether a trusted proxy says the client came over TLS.
    static func forwardedProto(_ headers: HTTPFields) -> String? {
        if let forwarded = headers[.forwarded] {
            // The nearest proxy's element (the last) says how the request reached it.
            let last = forwarded.split(separator: ",").last.map(String.init) ?? ""
            if let proto = parameters(last)["proto"] { return proto.lowercased() }
        }
        return headers[.xForwardedProto]?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The addresses a request passed through, client first: `Forwarded`'s `for=` values, else `X-Forwarded-For`.
    static func forwardedFor(_ headers: HTTPFields) -> [String] {
        if let forwarded = headers[.forwarded] {
            return forwarded.split(separator: ",").compactMap { parameters(String($0))["for"].map(hostOnly) }
        }
        guard let xff = headers[.xForwardedFor] else { return [] }
        return xff.split(separator: ",").map { hostOnly($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// One `Forwarded` element's parameters (`for=…;proto=…`), names in lower case, quotes removed.
    private static func parameters(_ element: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in element.split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2 else { continue }
            out[kv[0].lowercased()] = kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return out
    }

    /// `192.0.2.1:4711` → `192.0.2.1`, `[2001:db8::1]:4711` → `2001:db8::1`.
    private static func hostOnly(_ value: String) -> String {
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[value.index(after: value.startIndex)..<end]) }
        if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") { return String(value[..<colon]) }
        return value
    }

    /// An IP address as bytes (an IPv4-mapped IPv6 address as its IPv4 bytes), or nil.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}

extension HTTPField.Name {
    static let forwarded = HTTPField.Name("Forwarded")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
