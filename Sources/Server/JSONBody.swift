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

/// A request's JSON body as `T`, refusing (400) any field the operation does not take, so a
/// misspelt field is reported instead of silently ignored. A `route` object is checked against
/// the fields a saved route has.
func strictJSONBody<T: Decodable>(_ request: Request, limit: Int, fields: Set<String>) async throws -> T {
    let buffer = try await request.body.collect(upTo: limit)
    let data = Data(buffer.readableBytesView)
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
    do { return try JSONDecoder().decode(T.self, from: data) } catch {
        throw Problem(status: .badRequest, code: "invalid-body", title: "Invalid body", detail: describeBodyError(error))
    }
}

private let savedRouteFields: Set<String> = ["kind", "name", "stopId", "from", "to", "arrivals", "tripId", "serviceDate", "departure"]
