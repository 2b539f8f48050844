import CTABusTracker
import DataSources
import Foundation
import OnwardCore
import Testing

/// The bus tracker as the tests see it: each expected request (an endpoint and its exact
/// parameters, key and format aside) is answered with a recording or a body built in the
/// test; anything else is a test failure, recorded and thrown, so no test passes while
/// asking for something it did not mean to.
actor FakeBusTracker: HTTPFetching {
    enum Reply: Sendable {
        case body(Data, status: Int)
        case failure(SourceError)
    }

    struct Stub: Sendable {
        var endpoint: CTARequest.Endpoint
        var parameters: [String: String]
        var reply: Reply
    }

    /// One request received, decoded.
    struct Received: Sendable, Hashable {
        var url: URL
        var endpoint: String
        var parameters: [String: String]
    }

    let key: String
    private var stubs: [Stub] = []
    private(set) var received: [Received] = []

    init(key: String) { self.key = key }

    func stub(_ endpoint: CTARequest.Endpoint, _ parameters: [String: String] = [:], file: String) throws {
        stubs.append(Stub(endpoint: endpoint, parameters: parameters, reply: .body(try CTAFixtures.data(file), status: 200)))
    }

    func stub(_ endpoint: CTARequest.Endpoint, _ parameters: [String: String] = [:], body: Data, status: Int = 200) {
        stubs.append(Stub(endpoint: endpoint, parameters: parameters, reply: .body(body, status: status)))
    }

    func stub(_ endpoint: CTARequest.Endpoint, _ parameters: [String: String] = [:], error: SourceError) {
        stubs.append(Stub(endpoint: endpoint, parameters: parameters, reply: .failure(error)))
    }

    /// The requests to one endpoint, in order.
    func requests(to endpoint: CTARequest.Endpoint) -> [Received] { received.filter { $0.endpoint == endpoint.rawValue } }

    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let endpoint = request.url.lastPathComponent
        #expect(query.removeValue(forKey: "key") == key, "every request carries the key")
        #expect(query.removeValue(forKey: "format") == "json", "every request asks for JSON")
        received.append(Received(url: request.url, endpoint: endpoint, parameters: query))
        guard let stub = stubs.last(where: { $0.endpoint.rawValue == endpoint && $0.parameters == query }) else {
            Issue.record("FakeBusTracker: unexpected request \(endpoint) \(query)")
            // Quotes the whole URL, key included, as a careless fetcher might: the adapter must not pass it on.
            throw SourceError(.rejected, "FakeBusTracker has no reply for \(request.url.absoluteString)")
        }
        switch stub.reply {
        case .body(let data, let status): return HTTPResponse(status: status, body: data)
        case .failure(let error): throw error
        }
    }
}
