import API
import DataSources
import Foundation
import Logging
import OnwardCore
import WebPush

/// Posts Web Push messages (RFC 8030) to subscriptions' push services, encrypted for each
/// subscription (RFC 8291) and signed with the server's VAPID key (RFC 8292).
public struct PushSender: Sendable {
    public enum Outcome: Sendable, Hashable {
        case delivered
        /// The push service says the subscription is gone (404 or 410): forget it.
        case gone
        case failed(String)
    }

    public let key: VAPIDKey
    /// The VAPID `sub` claim: how a push service can reach the operator (`mailto:` or `https:`).
    let subject: String
    let fetcher: any HTTPFetching
    /// Whether an `http:` endpoint is allowed. Push services are HTTPS; plain HTTP is for a push
    /// service on this machine in tests (`push_allow_http`), never for a server on the internet,
    /// where it would let anyone make the server post to addresses inside its network.
    let allowHTTP: Bool
    let logger: Logger

    public init(key: VAPIDKey, subject: String, fetcher: any HTTPFetching, allowHTTP: Bool = false, logger: Logger) {
        self.key = key; self.subject = subject; self.fetcher = fetcher; self.allowHTTP = allowHTTP; self.logger = logger
    }

    public var publicKey: String { key.publicKey }

    /// Whether the server will post to this endpoint at all.
    func accepts(_ endpoint: String) -> Bool {
        guard let url = URL(string: endpoint), url.host?.isEmpty == false else { return false }
        return url.scheme == "https" || (allowHTTP && url.scheme == "http")
    }

    func send(_ payload: Data, to subscription: PushSubscription) async -> Outcome {
        guard accepts(subscription.endpoint) else { return .failed("the endpoint is not an allowed push service URL") }
        // The endpoint's path is the subscription's secret: only its host is ever logged.
        let host = URL(string: subscription.endpoint)?.host ?? "?"
        do {
            let push = try PushRequest(payload, to: subscription, key: key, subject: subject)
            let response = try await fetcher.fetch(HTTPRequest(method: .post, url: push.url, headers: push.headers, body: push.body, timeout: .seconds(10)))
            switch response.status {
            case 200..<300: return .delivered
            case 404, 410:
                logger.info("push subscription gone", metadata: ["push.host": .string(host)])
                return .gone
            default:
                logger.warning("push refused", metadata: ["push.host": .string(host), "status": .stringConvertible(response.status)])
                return .failed("the push service answered \(response.status)")
            }
        } catch {
            logger.warning("push failed", metadata: ["push.host": .string(host), "error": .string(Self.reason(error))])
            return .failed(Self.reason(error))
        }
    }

    /// Why, without the endpoint's URL (a `SourceError`'s text may name it).
    static func reason(_ error: any Error) -> String {
        switch error {
        case let e as PushEncryption.Failure: e.description
        case let e as SourceError: "\(e.code)"
        default: "\(type(of: error))"
        }
    }
}

extension PushSender {
    /// What asking a server that does not send Web Push for push answers.
    public static let unavailable = ServiceError(.pushUnavailable, "This server does not send Web Push.")

    /// A browser's subscription, checked before it is kept: push must be configured (503), the endpoint
    /// a push service's URL (400), and the keys good enough to encrypt with (422), so a bad one fails now,
    /// not silently at the first message.
    public static func checked(_ s: PushSubscriptionDTO, sender: PushSender?) throws -> PushSubscription {
        guard let sender else {
            throw unavailable
        }
        // Push services' URLs are a few hundred characters; the document allows 1,000.
        guard s.endpoint.count <= 1_000, sender.accepts(s.endpoint) else {
            throw ServiceError.invalid("endpoint must be an https URL of a push service, at most 1000 characters", "endpoint")
        }
        let subscription = PushSubscription(endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth)
        // Well formed, but keys no browser would give (not a point on P-256): 422, as the request's shape was right.
        do throws(PushEncryption.Failure) { _ = try PushEncryption.encrypt(Data("{}".utf8), p256dh: subscription.p256dh, auth: subscription.auth) } catch {
            throw ServiceError(.unusableKeys, error.description, parameter: "keys")
        }
        return subscription
    }
}
