import Hummingbird
import Transit

extension RequestParameters {
    /// A request's query string and languages, read by the query layer's one set of rules.
    init(_ request: Request) throws(QueryError) {
        try self.init(query: request.uri.query ?? "", acceptLanguage: request.headers[.acceptLanguage])
    }
}
