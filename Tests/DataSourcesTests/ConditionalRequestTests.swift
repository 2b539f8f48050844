import DataSources
import Foundation
import Testing

@Suite struct ConditionalRequestTests {
    let url = URL(string: "https://feeds.example/trip-updates")!

    @Test func firstRequestIsUnconditional() {
        let request = ConditionalRequest().applied(to: HTTPRequest(url: url, headers: ["x-api-key": "k"]))
        #expect(request.headers == ["x-api-key": "k"])
    }

    @Test func validatorsOfA200BecomeConditionalHeaders() {
        var conditional = ConditionalRequest()
        conditional.remember(HTTPResponse(status: 200, headers: ["ETag": "W/\"abc\"", "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT"]))
        let request = conditional.applied(to: HTTPRequest(url: url, headers: ["x-api-key": "k"]))
        #expect(request.headers["If-None-Match"] == "W/\"abc\"")
        #expect(request.headers["If-Modified-Since"] == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(request.headers["x-api-key"] == "k")
    }

    @Test func onlyTheValidatorsPresentAreSent() {
        var conditional = ConditionalRequest()
        conditional.remember(HTTPResponse(status: 200, headers: ["last-modified": "Wed, 21 Oct 2015 07:28:00 GMT"]))
        let request = conditional.applied(to: HTTPRequest(url: url))
        #expect(request.headers == ["If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"])
    }

    @Test func othersThan200AreNotRemembered() {
        var conditional = ConditionalRequest()
        conditional.remember(HTTPResponse(status: 200, headers: ["ETag": "\"1\""]))
        conditional.remember(HTTPResponse(status: 500, headers: ["ETag": "\"error-page\""]))
        conditional.remember(HTTPResponse(status: 304))
        #expect(conditional.etag == "\"1\"")
    }

    @Test func a200WithoutValidatorsForgetsTheOldOnes() {
        var conditional = ConditionalRequest()
        conditional.remember(HTTPResponse(status: 200, headers: ["ETag": "\"1\""]))
        conditional.remember(HTTPResponse(status: 200))
        #expect(conditional.applied(to: HTTPRequest(url: url)).headers.isEmpty)
    }

    @Test func conditionalHeadersReplaceOnesDifferingOnlyInCase() {
        var conditional = ConditionalRequest()
        conditional.remember(HTTPResponse(status: 200, headers: ["ETag": "\"new\""]))
        let request = conditional.applied(to: HTTPRequest(url: url, headers: ["if-none-match": "\"old\""]))
        #expect(request.headers == ["If-None-Match": "\"new\""])
    }
}
