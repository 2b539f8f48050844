import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// Lengths are counted as the OpenAPI document (JSON Schema) counts them: code points.
@Suite("Length limits")
struct LengthLimitTests {
    @Test("q of 60 letters with combining accents (120 code points) is over the documented 100")
    func codePoints() async throws {
        let decomposed = String(repeating: "e\u{301}", count: 60)  // 60 graphemes, 120 code points
        let encoded = decomposed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let precomposed = String(repeating: "\u{e9}", count: 60).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        try await TestServer.app(TestServer.deps(try TestServer.store())).test(.router) { client in
            try await client.execute(uri: "/api/v1/stops?q=\(encoded)", method: .get) { r in
                #expect(r.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/stops?q=\(precomposed)", method: .get) { r in
                #expect(r.status == .ok)
            }
        }
    }
}
