import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OnwardCore

/// The real `HTTPFetching`, over URLSession (Foundation only, so an iOS app can use it too).
///
/// Any status is returned as a response (the caller decides what a 404 means);
/// only transport failures throw: `.timeout` when the request's timeout passes,
/// `.network` for everything else. No caching: conditional requests are the
/// caller's (see `ConditionalRequest`), so a 304 reaches the caller as a 304.
public final class URLSessionFetcher: HTTPFetching {
    private let session: URLSession

    /// - Parameter configuration: its cache is switched off whatever it says.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw SourceError(.network, "\(request.url.safeDescription) is not an http(s) URL")
        }
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: max(request.timeout.inSeconds, 0.001))
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let session = session, prepared = urlRequest
        do {
            // URLRequest's timeout is an idle timeout and, on Linux, is not enforced
            // against a server that accepts the connection and never answers; racing
            // a sleep makes the request's timeout a hard deadline on every platform.
            return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
                group.addTask {
                    if let limit = request.maxBodyBytes { return try await LimitedDownload.send(prepared, limit: limit) }
                    return try await Self.send(prepared, on: session)
                }
                group.addTask {
                    try await Task.sleep(for: request.timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw URLError(.timedOut)
                }
                return response
            }
        } catch let error as SourceError {
            throw error
        } catch {
            throw Self.sourceError(error, url: request.url, timeout: request.timeout)
        }
    }

    private static func send(_ request: URLRequest, on session: URLSession) async throws -> HTTPResponse {
        let (data, response) = try await session.data(for: request)
        return try answer(response, data, url: request.url)
    }

    static func answer(_ response: URLResponse, _ data: Data, url: URL?) throws -> HTTPResponse {
        guard let http = response as? HTTPURLResponse else {
            throw SourceError(.network, "\(url?.safeDescription ?? "the upstream") did not answer with HTTP")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String { headers[name] = "\(value)" }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// Maps a transport failure to a `SourceError` whose message names the
    /// upstream by `scheme://host[:port]` only: the query and path may hold a key
    /// or a token, and a platform's error description may quote the whole URL.
    static func sourceError(_ error: any Error, url: URL, timeout: Duration) -> SourceError {
        let upstream = url.safeDescription
        let secrets = url.secretBearingParts
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut:
                return SourceError(.timeout, "\(upstream) did not answer within \(timeout)")
            case .cancelled:
                return SourceError(.network, "fetching from \(upstream) was cancelled")
            default:
                let reason = urlError.localizedDescription.redacting(secrets)
                return SourceError(.network, "fetching from \(upstream) failed: \(reason) (URLError \(urlError.code.rawValue))")
            }
        }
        if error is CancellationError { return SourceError(.network, "fetching from \(upstream) was cancelled") }
        return SourceError(.network, "fetching from \(upstream) failed: \(error.localizedDescription.redacting(secrets))")
    }
}
