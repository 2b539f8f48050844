import Foundation
import Hummingbird

/// A request's JSON body as `T`, or 400 with a sentence naming the field at fault. With `fields`,
/// any other field is refused (400) too, so a misspelt field is reported instead of silently
/// ignored; a `route` object is then checked against the fields a saved route has.
func jsonBody<T: Decodable>(_ request: Request, limit: Int, fields: Set<String>? = nil) async throws -> T {
    let buffer = try await request.body.collect(upTo: limit)
    let data = Data(buffer.readableBytesView)
    if let fields { try refuseUnknownFields(data, fields: fields) }
    do { return try JSONDecoder().decode(T.self, from: data) } catch {
        throw Problem(status: .badRequest, code: "invalid-body", title: "Invalid body", detail: describeBodyError(error))
    }
}

private func refuseUnknownFields(_ data: Data, fields: Set<String>) throws {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw Problem(status: .badRequest, code: "invalid-body", title: "Invalid body", detail: "the body must be one JSON object")
    }
    func refuse(_ unknown: String, in path: String) -> Problem {
        Problem(status: .badRequest, code: "invalid-body", title: "Invalid body", detail: "\(path)\(unknown) is not a field this request takes",
                parameter: path + unknown)
    }
    if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) { throw refuse(unknown, in: "") }
    if let route = object["route"] as? [String: Any], let unknown = route.keys.sorted().first(where: { !savedRouteFields.contains($0) }) {
        throw refuse(unknown, in: "route.")
    }
}

private let savedRouteFields: Set<String> = ["kind", "name", "stopId", "from", "to", "arrivals", "tripId", "serviceDate", "departure"]

/// What is wrong with a body, in a sentence naming the field.
func describeBodyError(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, let c)?: "\((c.codingPath + [key]).map(\.stringValue).joined(separator: ".")) is required"
    case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?: "\(c.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
    case .dataCorrupted(let c)? where !c.codingPath.isEmpty: "\(c.codingPath.map(\.stringValue).joined(separator: ".")) has a value that is not allowed"
    default: "the body is not the JSON object this request takes"
    }
}
