import DataSources
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP server on 127.0.0.1 that replays recorded upstream answers, so
/// adapters are tested through the real `URLSessionFetcher` without leaving the
/// machine.
///
/// A test registers routes (method, path, optionally query items or a piece of
/// the body, as a SOAP operation name) and what each answers: a recorded file, an
/// error status, a delay longer than the client's timeout, a malformed or cut-off
/// body. Every request received is recorded, so a test can count what reached
/// "upstream". In process, on plain sockets: one thread accepts, one thread per
/// connection answers, so a delayed answer never holds up another request.
/// `stop()` wakes every waiting thread and returns once all have ended; call it
/// when done (a `defer` right after starting), or use `run(_:)`: the accept
/// thread keeps the server alive until then.
public final class RecordedResponseServer: @unchecked Sendable {
    private struct Route {
        var method: String
        var path: String
        var query: [String: String]
        var bodyContains: String?
        var replies: [Reply]
        var served = 0

        func matches(_ request: ReceivedRequest) -> Bool {
            guard request.method == method, request.path == path else { return false }
            for (name, value) in query where request.query[name] != value { return false }
            if let bodyContains, !request.bodyText.contains(bodyContains) { return false }
            return true
        }
    }

    /// The port the kernel chose.
    public let port: Int

    private let listener: Int32
    /// Written to once by `stop()`; every thread polls its read end, so one byte wakes them all.
    private let stopPipe: (read: Int32, write: Int32)
    // One condition guards all mutable state and lets `stop()` wait for the threads.
    private let state = NSCondition()
    private var routes: [Route] = []
    private var received: [ReceivedRequest] = []
    private var unmatchedRequests: [ReceivedRequest] = []
    private var openConnections: Set<Int32> = []
    private var runningThreads = 0
    private var stopped = false

    /// Binds 127.0.0.1 on a port the kernel chooses and starts accepting.
    public init() throws {
        let fd = try Self.check(Self.makeSocket(), "socket")
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard let port = bindLoopback(fd), listen(fd, 128) == 0 else {
            let failure = StartFailure("bind/listen on 127.0.0.1 failed: errno \(errno)")
            close(fd)
            throw failure
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(fd)
            throw StartFailure("pipe failed: errno \(errno)")
        }
        for pipeEnd in fds { Self.closeOnExec(pipeEnd) }
        // Non-blocking, so an accept after poll() cannot hang when the client has already gone.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        listener = fd
        stopPipe = (fds[0], fds[1])
        self.port = port
        startThread { $0.acceptLoop() }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Starts a server, runs `body` with it and stops it, however `body` ends.
    public static func run<T>(_ body: (RecordedResponseServer) async throws -> T) async throws -> T {
        let server = try RecordedResponseServer()
        do {
            let result = try await body(server)
            await server.stopInBackground()
            return result
        } catch {
            await server.stopInBackground()
            throw error
        }
    }

    /// `stop()` on a thread of its own: waiting for the connection threads must not
    /// hold one of the few threads Swift concurrency runs every test on (two, here).
    public func stopInBackground() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread { [self] in
                stop()
                done.resume()
            }.start()
        }
    }

    // MARK: Test-facing API

    /// `http://127.0.0.1:PORT` plus `pathAndQuery` (which starts with `/`).
    public func url(_ pathAndQuery: String) -> URL {
        let suffix = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        return URL(string: "http://127.0.0.1:\(port)\(suffix)")!
    }

    /// Registers a route answering with `replies` in turn, the last one repeated
    /// (so `[.status(503), .status(503), ok]` fails twice, then succeeds). The last
    /// registered route that matches a request answers it, so a test can override one.
    ///
    /// - Parameters:
    ///   - query: items the request's query must contain (others are allowed).
    ///   - bodyContains: text the body must contain, e.g. a SOAP operation name.
    public func route(_ method: HTTPRequest.Method = .get, _ path: String, query: [String: String] = [:],
                      bodyContains: String? = nil, replies: [Reply]) {
        precondition(!replies.isEmpty, "a route needs at least one reply")
        state.withLock {
            routes.append(Route(method: method.rawValue, path: path, query: query, bodyContains: bodyContains, replies: replies))
        }
    }

    /// Registers a route that always answers `reply`.
    public func route(_ method: HTTPRequest.Method = .get, _ path: String, query: [String: String] = [:],
                      bodyContains: String? = nil, reply: Reply) {
        route(method, path, query: query, bodyContains: bodyContains, replies: [reply])
    }

    /// Every request received so far, matched or not, in arrival order.
    public var requests: [ReceivedRequest] { state.withLock { received } }

    /// How many requests arrived for `path` (with `method`, when given).
    public func requestCount(_ path: String, method: HTTPRequest.Method? = nil) -> Int {
        state.withLock { received.count(where: { $0.path == path && (method == nil || $0.method == method?.rawValue) }) }
    }

    /// Requests no route matched; each was answered 404.
    public var unmatched: [ReceivedRequest] { state.withLock { unmatchedRequests } }

    /// Records a test issue for each request no route matched: a test should
    /// know every request its code makes.
    public func expectEveryRequestMatched(sourceLocation: SourceLocation = #_sourceLocation) {
        for request in unmatched {
            Issue.record("RecordedResponseServer: no route for \(request.method) \(request.path)", sourceLocation: sourceLocation)
        }
    }

    /// Stops accepting, wakes every waiting answer, and returns once every thread
    /// has ended and every socket is closed. Safe to call more than once.
    public func stop() {
        let first = state.withLock { () -> Bool in
            guard !stopped else { return false }
            stopped = true
            // Under the lock: a connection thread removes its socket here before
            // closing it, so every number in the set is still ours (not one the
            // system has since handed to another test).
            for fd in openConnections { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        if first {
            var byte: UInt8 = 1
            _ = write(stopPipe.write, &byte, 1)
        }
        state.lock()
        while runningThreads > 0 { state.wait() }
        state.unlock()
        guard first else { return }
        close(listener)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    // MARK: Threads

    /// Runs `body` on a thread of its own, counted so `stop()` can wait for it.
    private func startThread(_ body: @escaping @Sendable (RecordedResponseServer) -> Void) {
        state.withLock { runningThreads += 1 }
        let thread = Thread { [self] in
            body(self)
            state.withLock {
                runningThreads -= 1
                state.broadcast()
            }
        }
        thread.name = "RecordedResponseServer:\(port)"
        thread.start()
    }

    private func acceptLoop() {
        while true {
            guard waitReadable(listener, timeout: nil) else { return }  // stop() was called
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED { continue }
                return
            }
            Self.closeOnExec(fd)
            // BSD sockets inherit the listener's non-blocking mode; this thread wants blocking reads.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            Self.configureConnection(fd)
            let accepted = state.withLock { () -> Bool in
                guard !stopped else { return false }
                openConnections.insert(fd)
                return true
            }
            guard accepted else {
                close(fd)
                return
            }
            startThread { $0.serve(fd) }
        }
    }

    /// Answers one request on `fd`, then closes it (`Connection: close`: one
    /// request per connection keeps the server simple and each request visible).
    private func serve(_ fd: Int32) {
        defer {
            state.withLock { _ = openConnections.remove(fd) }
            close(fd)
        }
        var reader = ConnectionReader(fd: fd)
        guard let request = reader.readRequest(sendContinue: { Self.send(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) })
        else { return }
        let reply: Reply? = state.withLock {
            received.append(request)
            guard let index = routes.lastIndex(where: { $0.matches(request) }) else {
                unmatchedRequests.append(request)
                return nil
            }
            let route = routes[index]
            routes[index].served += 1
            return route.replies[min(route.served, route.replies.count - 1)]
        }
        let answer = reply ?? .text("no route for \(request.method) \(request.path)", status: 404)
        if answer.delay > .zero {
            // Waits on the stop pipe, not a plain sleep, so stop() cuts the delay short.
            let milliseconds = Int(answer.delay.components.seconds * 1000 + answer.delay.components.attoseconds / 1_000_000_000_000_000)
            if waitReadable(stopPipe.read, timeout: milliseconds) { return }
        }
        let body = answer.truncatedAfter.map { answer.body.prefix($0) } ?? answer.body
        var head = "HTTP/1.1 \(answer.status) \(Self.reason(answer.status))\r\n"
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        guard Self.send(fd, Data(head.utf8)), Self.send(fd, Data(body)) else { return }
        // Half-close and let the client finish reading before the socket goes:
        // closing with unread input would reset the connection and could lose the answer.
        shutdown(fd, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 1024)
        while waitReadable(fd, timeout: 2000), recv(fd, &scratch, scratch.count, 0) > 0 {}
    }

    /// Waits until `fd` is readable (true) or the server stops or `timeout` (ms) passes (false).
    /// For the stop pipe itself, readable means stopped.
    private func waitReadable(_ fd: Int32, timeout: Int?) -> Bool {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        if fd != stopPipe.read { fds.append(pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)) }
        while true {
            let ready = poll(&fds, nfds_t(fds.count), Int32(clamping: timeout ?? -1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            if fds.count > 1 && fds[1].revents != 0 { return false }
            return fds[0].revents != 0
        }
    }

    // MARK: Sockets

    static func makeSocket() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    private static func check(_ fd: Int32, _ call: String) throws -> Int32 {
        guard fd >= 0 else { throw StartFailure("\(call) failed: errno \(errno)") }
        closeOnExec(fd)
        return fd
    }

    /// A child process (another test's python3 server) must not inherit our
    /// sockets: a connection it held open would never close for the client.
    private static func closeOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    /// Time limits on reads and writes, so a client that stops mid-request cannot hold a thread for ever.
    private static func configureConnection(_ fd: Int32) {
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Writes all of `data`; false when the client has gone (a timed-out client
    /// closes first; that must not raise SIGPIPE and end the test process).
    @discardableResult
    fileprivate static func send(_ fd: Int32, _ data: Data) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let sent = systemSend(fd, buffer.baseAddress! + offset, buffer.count - offset, flags)
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}

/// The system `send`, named apart from `RecordedResponseServer.send`.
private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, pointer, count, flags)
}
