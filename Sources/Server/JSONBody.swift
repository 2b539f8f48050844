import Foundation
import Hummingbird

/// A request's JSON body as `T`, or 400 with a sentence naming the field at fault.
func jsonBody<T: Decodable>(_ request: Request, limit: Int) async throws -> T {
    let buffer = try await request.body.collect(upTo: limit)
    do { return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView)) } catch {
        throw Problem(status: .badRequest, code: "invalid-body", title: "Invalid body", detail: describeBodyError(error))
    }
}

/// What is wrong with a body, in a sentence naming the field.
func describeBodyError(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, let c)?: "\((c.codingPath + [key]).map(\.stringValue).joined(separator: ".")) is required"
    case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?: "\(c.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
    case .dataCorrupted(let c)? where !c.codingPath.isEmpty: "\(c.codingPath.map(\.stringValue).joined(separator: ".")) has a value that is not allowed"
    default: "the body is not the JSON object this request takes"
    }
}
