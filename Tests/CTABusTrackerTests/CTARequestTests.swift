import CTABusTracker
import Foundation
import Testing

@Suite struct CTARequestTests {
    let base = URL(string: "https://www.ctabustracker.com/bustime/api/v3")!

    @Test func urlsForEveryEndpoint() {
        let key = "K3y"
        let cases: [(CTARequest, String)] = [
            (.routes, "getroutes?key=K3y&format=json"),
            (.directions(route: "22"), "getdirections?rt=22&key=K3y&format=json"),
            (.stops(route: "22", direction: "Northbound"), "getstops?rt=22&dir=Northbound&key=K3y&format=json"),
            (.serviceBulletins(route: "8"), "getservicebulletins?rt=8&key=K3y&format=json"),
            (.serviceBulletins(stopID: "1926"), "getservicebulletins?stpid=1926&key=K3y&format=json"),
            (.vehicles(route: "22"), "getvehicles?rt=22&key=K3y&format=json"),
            (.time, "gettime?key=K3y&format=json"),
        ]
        for (request, tail) in cases {
            #expect(request.url(base: base, key: key).absoluteString == "https://www.ctabustracker.com/bustime/api/v3/" + tail)
        }
        let predictions = CTARequest.predictions(stopIDs: ["15895", "1926"], route: "22", top: 5)
        #expect(predictions.map { $0.url(base: base, key: key).absoluteString }
                == ["https://www.ctabustracker.com/bustime/api/v3/getpredictions?stpid=15895,1926&rt=22&top=5&key=K3y&format=json"])
        #expect(CTARequest.vehicles(vehicleIDs: ["4394", "4385"]).map { $0.url(base: base, key: key).query }
                == ["vid=4394,4385&key=K3y&format=json"])
    }

    @Test func aConfiguredBaseReplacesTheVersionToo() {
        let v2 = URL(string: "http://127.0.0.1:8080/bustime/api/v2/")!
        #expect(CTARequest.time.url(base: v2, key: "k").absoluteString == "http://127.0.0.1:8080/bustime/api/v2/gettime?key=k&format=json")
    }

    @Test func predictionsAreBatchedTenStopsARequest() {
        let stops = (1...23).map { String(1000 + $0) }
        let requests = CTARequest.predictions(stopIDs: stops + ["1001", "1002"])
        #expect(requests.map { $0.parameters[0].values.count } == [10, 10, 3])
        #expect(requests.flatMap { $0.parameters[0].values } == stops)
        #expect(CTARequest.predictions(stopIDs: []).isEmpty)
    }

    /// Values are encoded one by one: nothing inside an ID can add a parameter or a stop.
    @Test func valuesCannotAddParametersOrListItems() {
        let request = CTARequest.predictions(stopIDs: ["1,2", "3&key=other"])[0]
        let url = request.url(base: base, key: "a b+c")
        #expect(url.query == "stpid=1%2C2,3%26key%3Dother&key=a%20b%2Bc&format=json")
        #expect(CTARequest.stops(route: "22", direction: "North Bound").url(base: base, key: "k").query
                == "rt=22&dir=North%20Bound&key=k&format=json")
    }

    @Test func cacheKeysAndDescriptionsNeverHoldTheKey() {
        let request = CTARequest.predictions(stopIDs: ["15895"], route: "22")[0]
        #expect(request.cacheKey == "getpredictions stpid=15895 rt=22")
        #expect(request.description == request.cacheKey)
        #expect(request.operation == "getpredictions")
    }
}
