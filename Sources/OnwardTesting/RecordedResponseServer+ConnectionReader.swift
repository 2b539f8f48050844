import DataSources
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one HTTP/1.1 request from a socket: the head, then a body by
/// `Content-Length` or chunked transfer coding.
struct ConnectionReader {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// Reads more bytes into the buffer; false at end of input, on error or on the read time limit.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// Takes bytes up to and including `delimiter`, reading as needed; nil if the
    /// input ends first or no delimiter comes within `limit` bytes.
    private mutating func take(through delimiter: [UInt8], limit: Int) -> [UInt8]? {
        var searchFrom = 0
        while true {
            if buffer.count >= delimiter.count {
                for start in searchFrom...(buffer.count - delimiter.count)
                where buffer[start..<start + delimiter.count].elementsEqual(delimiter) {
                    let taken = Array(buffer[..<(start + delimiter.count)])
                    buffer.removeFirst(start + delimiter.count)
                    return taken
                }
                searchFrom = buffer.count - delimiter.count + 1
            }
            guard buffer.count <= limit, fill() else { return nil }
        }
    }

    private mutating func take(count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        let taken = Array(buffer[..<count])
        buffer.removeFirst(count)
        return taken
    }

    mutating func readRequest(sendContinue: () -> Void) -> RecordedResponseServer.ReceivedRequest? {
        let crlf = Array("\r\n".utf8)
        guard let head = take(through: Array("\r\n\r\n".utf8), limit: 65_536) else { return nil }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // libcurl (URLSession on Linux) asks before sending a larger POST body.
        if headers["expect"]?.lowercased() == "100-continue" { sendContinue() }

        var body: [UInt8] = []
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            while true {
                guard let sizeLine = take(through: crlf, limit: 1024) else { return nil }
                let sizeText = String(decoding: sizeLine.dropLast(2), as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
                if size == 0 {
                    // Trailers, if any, end with an empty line.
                    while let trailer = take(through: crlf, limit: 65_536), trailer.count > 2 {}
                    break
                }
                guard let chunk = take(count: size), take(count: 2) != nil else { return nil }
                body += chunk
            }
        } else if let length = headers["content-length"].flatMap({ Int($0) }), length > 0 {
            guard let content = take(count: length) else { return nil }
            body = content
        }

        let target = String(requestLine[1])
        let components = URLComponents(string: target)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let path = components?.path ?? target
        return RecordedResponseServer.ReceivedRequest(method: String(requestLine[0]), path: path.isEmpty ? "/" : path,
                                                      query: query, headers: headers, body: Data(body))
    }
}
