import API
import Foundation
import OnwardCore
import Services
import HTTPTypes
import Hummingbird
import Transit

/// An error answer as RFC 9457 `application/problem+json`: a stable `code`
/// clients can switch on, a title and a detail written for people. Never an
/// internal error's text or a stack.
public struct Problem: Codable, Sendable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var code: String
    public var instance: String?
    /// The query parameter at fault, if one is.
    public var parameter: String?
    public var requestId: String?
    /// A refused write's current state (409 `stale-version`), so the client can show it and try again.
    public var current: SavedRoutes?
    /// What a name in the request might have meant (`stop-not-found` or `route-not-found` naming `parameter`).
    public var candidates: [Candidate]?

    public struct Candidate: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var detail: String?
    }

    public init(status: HTTPResponse.Status, code: String, title: String, detail: String, parameter: String? = nil) {
        self.type = "https://onward.example/problems/\(code)"
        self.title = title; self.status = status.code; self.detail = detail; self.code = code; self.parameter = parameter
    }

    /// The problem for an error thrown while answering: ours are explained, anything else is a plain 500.
    static func from(_ error: any Error) -> Problem {
        switch error {
        case let e as QueryError:
            var p = from(e)
            if !e.candidates.isEmpty { p.candidates = e.candidates.map { Candidate(id: $0.id, name: $0.name, detail: $0.detail) } }
            return p
        case let e as ServiceError:
            return from(e)
        case let e as Problem:
            return e
        case let e as any HTTPResponseError:
            let status = e.status
            let code = switch status.code {
            case 404: "not-found"
            case 405: "method-not-allowed"
            case 413: "body-too-large"
            case 429: "rate-limited"
            case 400..<500: "bad-request"
            default: "internal"
            }
            return Problem(status: status, code: code, title: status.reasonPhrase,
                           detail: status.code == 404 ? "There is nothing at this address. The API is described at /api/v1/openapi.json."
                               : status.code >= 500 ? "Something went wrong on our side." : "The request could not be understood.")
        default:
            return Problem(status: .internalServerError, code: "internal", title: "Internal error", detail: "Something went wrong on our side.")
        }
    }
}

extension Problem {
    /// A query's refusal as an answer: the one place its codes get an HTTP status and a title.
    static func from(_ e: QueryError) -> Problem {
        switch e.code {
        case .stopNotFound:
            return Problem(status: .notFound, code: e.code.rawValue, title: "Stop not found", detail: e.message, parameter: e.parameter)
        case .tripNotFound:
            return Problem(status: .notFound, code: e.code.rawValue, title: "Trip not found", detail: e.message, parameter: e.parameter)
        case .notRunning:
            return Problem(status: .notFound, code: e.code.rawValue, title: "Trip not running that day", detail: e.message, parameter: e.parameter)
        case .noLongerScheduled:
            return Problem(status: .gone, code: e.code.rawValue, title: "No longer scheduled", detail: e.message, parameter: e.parameter)
        case .invalidParameter:
            return Problem(status: .badRequest, code: e.code.rawValue, title: "Invalid parameter", detail: e.message, parameter: e.parameter)
        case .routeNotFound: return Problem(status: .notFound, code: e.code.rawValue, title: "Route not found", detail: e.message, parameter: e.parameter)
        case .sourceNotFound: return Problem(status: .notFound, code: e.code.rawValue, title: "Source not found", detail: e.message)
        case .sourceUnavailable:
            return Problem(status: .serviceUnavailable, code: e.code.rawValue, title: "Source unavailable", detail: e.message)
        case .unsupported:
            return Problem(status: .badRequest, code: e.code.rawValue, title: "Not available from this source", detail: e.message,
                           parameter: e.parameter)
        case .busy:
            return Problem(status: .serviceUnavailable, code: e.code.rawValue, title: "Busy", detail: e.message)
        }
    }

    /// A use case's refusal as an answer: the one place its codes get an HTTP status and a title.
    static func from(_ e: ServiceError) -> Problem {
        let (status, title): (HTTPResponse.Status, String) = switch e.code {
        case .invalidParameter: (.badRequest, "Invalid parameter")
        case .wrongCredentials: (.unauthorized, "Wrong username or password")
        case .telegramRefused: (.unauthorized, "Telegram sign-in refused")
        case .hostsOnly: (.forbidden, "Hosts only")
        case .wrongSecret: (.forbidden, "Wrong secret")
        case .rateLimited: (.tooManyRequests, "Too many attempts")
        case .telegramOff: (.notFound, "Telegram sign-in is off")
        case .savedRouteNotFound: (.notFound, "Saved route not found")
        case .tripNotFound: (.notFound, "Trip not found")
        case .eventNotFound: (.notFound, "Event not found")
        case .personNotFound: (.notFound, "Person not found")
        case .requestNotFound: (.notFound, "No such request")
        case .conversationNotFound: (.notFound, "Conversation not found")
        case .journeyNotFound: (.notFound, "No such journey")
        case .watchNotFound: (.notFound, "No such watched journey")
        case .webhookOff: (.notFound, "Not found")
        case .usernameTaken: (.conflict, "Username taken")
        case .notPossible: (.conflict, "Not possible now")
        case .staleVersion: (.conflict, "Changed on another device")
        case .alreadyEnded: (.conflict, "Already ended")
        case .lastHost: (.conflict, "The last host")
        case .noSkiArea: (.conflict, "No ski area")
        case .unusableKeys: (.unprocessableContent, "Unusable keys")
        case .pushUnavailable: (.serviceUnavailable, "Push unavailable")
        case .tryAgain: (.serviceUnavailable, "Try again")
        }
        var p = Problem(status: status, code: e.code.rawValue, title: title, detail: e.message, parameter: e.parameter)
        p.current = e.current
        return p
    }
}

extension Problem: Error {}

extension Problem: ResponseGenerator {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = self
        body.instance = request.uri.path
        let data = try JSONEncoder.api.encode(body)
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        headers[.cacheControl] = "no-store"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
