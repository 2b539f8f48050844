import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OnwardCore
import Synchronization

/// A download that stops as soon as it passes a size limit (a static feed of a few hundred
/// megabytes is normal; a misconfigured URL serving gigabytes must not fill memory). Linux's
/// URLSession has no `bytes(for:)`, so the body is gathered by a delegate that counts it and
/// cancels the task the moment it is too long, or when the announced length already is.
enum LimitedDownload {
    static func send(_ request: URLRequest, limit: Int) async throws -> HTTPResponse {
        let gatherer = Gatherer(limit: limit)
        let session = URLSession(configuration: .ephemeral, delegate: gatherer, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                gatherer.start(session.dataTask(with: request), url: request.url, continuation: continuation)
            }
        } onCancel: {
            gatherer.cancel()
        }
    }

    final class Gatherer: NSObject, URLSessionDataDelegate, Sendable {
        let limit: Int
        private struct State {
            var data = Data()
            var response: URLResponse?
            var task: URLSessionTask?
            var url: URL?
            var continuation: CheckedContinuation<HTTPResponse, any Error>?
            var tooLarge = false
        }
        private let state = Mutex(State())

        init(limit: Int) { self.limit = limit }

        func start(_ task: URLSessionDataTask, url: URL?, continuation: CheckedContinuation<HTTPResponse, any Error>) {
            state.withLock { $0.task = task; $0.url = url; $0.continuation = continuation }
            task.resume()
        }

        func cancel() { state.withLock { $0.task }?.cancel() }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            let tooLarge = response.expectedContentLength > Int64(limit)
            state.withLock { $0.response = response; $0.tooLarge = tooLarge }
            completionHandler(tooLarge ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let over = state.withLock { s in
                s.data.append(data)
                if s.data.count > limit { s.tooLarge = true; s.data = Data() }
                return s.tooLarge
            }
            if over { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (continuation, result) = state.withLock { s -> (CheckedContinuation<HTTPResponse, any Error>?, Result<HTTPResponse, any Error>) in
                let c = s.continuation
                s.continuation = nil
                if s.tooLarge {
                    return (c, .failure(SourceError(.rejected, "\(s.url?.safeDescription ?? "the upstream") sent more than \(limit) bytes, the limit")))
                }
                if let error { return (c, .failure(error)) }
                guard let response = s.response else { return (c, .failure(URLError(.badServerResponse))) }
                return (c, Result { try URLSessionFetcher.answer(response, s.data, url: s.url) })
            }
            continuation?.resume(with: result)
        }
    }
}
