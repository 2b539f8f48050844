import OnwardCore
import TransitSources

extension QueryError {
    /// The one place a source's failure becomes an answer's error: what is missing
    /// is not found, a question the source cannot answer is refused with its reason,
    /// and an upstream or configuration failure is "unavailable" (the operator reads
    /// the cause in health and logs; a traveller never sees a key or a URL).
    public init(_ error: SourceError, sourceName: String, kind: IDKind = .stop) {
        switch error.code {
        case .notFound:
            let code: Code = switch kind {
            case .stop: .stopNotFound
            case .service: .tripNotFound
            case .route: .routeNotFound
            }
            self.init(code, error.message)
        case .notRunning:
            self.init(.notRunning, error.message)
        case .noLongerScheduled:
            self.init(.noLongerScheduled, error.message)
        case .invalidRequest:
            self.init(.invalidParameter, error.message, parameter: error.parameter)
        case .unsupported:
            self.init(.unsupported, error.message, parameter: error.parameter)
        case .configuration:
            self.init(.sourceUnavailable, "\(sourceName) is not available: it refused the access token or key configured for it (an operator must check the configuration).")
        case .budgetExhausted:
            self.init(.sourceUnavailable, "\(sourceName) is not available: its request allowance is used up for now. \(error.message)")
        case .network, .timeout, .httpStatus, .undecodable, .unreadable, .stale, .rejected:
            self.init(.sourceUnavailable, "\(sourceName) is not available right now (\(error.message)).")
        }
    }
}
