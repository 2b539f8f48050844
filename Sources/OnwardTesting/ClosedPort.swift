import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 where nothing listens, held for as long as this lives: bound but not listening, so a connection
/// to it is refused, and no other server (another test's, started meanwhile) can take it. A server's port after it
/// stopped was not safe: under the whole suite, another test's server sometimes took it and answered.
public final class ClosedPort: Sendable {
    public let port: Int
    private let fd: Int32

    public init() throws {
        let fd = RecordedResponseServer.makeSocket()
        guard fd >= 0 else { throw RecordedResponseServer.StartFailure("socket failed: errno \(errno)") }
        guard let port = bindLoopback(fd) else {
            let failure = RecordedResponseServer.StartFailure("bind on 127.0.0.1 failed: errno \(errno)")
            close(fd)
            throw failure
        }
        self.fd = fd
        self.port = port
    }

    deinit { close(fd) }
}

/// Binds `fd` to 127.0.0.1 on a port the kernel chooses; returns the port, or nil (then `errno` says why).
func bindLoopback(_ fd: Int32) -> Int? {
    var address = sockaddr_in()
    #if canImport(Darwin)
    address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}
