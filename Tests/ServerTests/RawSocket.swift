import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP exchange byte for byte, for what an HTTP client library will not send
/// (raw non-ASCII bytes, a 100 KB request line, nothing at all). It runs on its
/// own thread, so its blocking reads never hold up the server's tasks.
enum RawSocket {
    struct Answer {
        var text: String
        /// The server closed the connection (rather than the wait running out).
        var closed: Bool
    }

    struct Failure: Error { var what: String }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, then reads until the server closes,
    /// `until` is true of what has arrived, or `seconds` pass without a byte.
    static func exchange(port: Int, send bytes: [UInt8], waitUpTo seconds: Int = 10,
                         until done: @escaping @Sendable (String) -> Bool = { _ in false }) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingExchange(port: port, bytes: bytes, seconds: seconds, until: done) })
            }.start()
        }
    }

    static func request(_ text: String) -> [UInt8] { Array(text.utf8) }

    private static func blockingExchange(port: Int, bytes: [UInt8], seconds: Int, until done: (String) -> Bool) throws -> Answer {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(what: "socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(what: "connect") }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            // The server may answer and close before it has read everything: what it answered is what counts.
            if n <= 0 { break }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received += buffer[0..<n]
                if done(String(decoding: received, as: UTF8.self)) { return Answer(text: String(decoding: received, as: UTF8.self), closed: false) }
            } else if n == 0 || errno == ECONNRESET {
                return Answer(text: String(decoding: received, as: UTF8.self), closed: true)
            } else {
                return Answer(text: String(decoding: received, as: UTF8.self), closed: false)
            }
        }
    }
}
