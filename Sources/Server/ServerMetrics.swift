import Foundation
import OnwardCore
import Prometheus
import Synchronization
import Transit
import TransitSources

/// The Prometheus metrics `/metrics` shows: requests by route and status with
/// their latencies, and each realtime source's fetches, matches and feed age.
/// A registry per server (not the process-wide MetricsSystem), so tests can run
/// several servers side by side.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    private static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]

    public init() {}

    /// The counter and histogram of one method, route and status, looked up in
    /// the registry once: the registry builds a label string and takes its lock
    /// on every lookup, which showed in profiles of small API requests.
    private struct RequestKey: Hashable { var method: String, route: String, status: Int }
    private struct RequestSeries { var count: Counter, duration: DurationHistogram }
    private let requestSeries = Mutex<[RequestKey: RequestSeries]>([:])

    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestKey(method: method, route: route, status: status)
        let series = requestSeries.withLock { cache in
            if let found = cache[key] { return found }
            let made = RequestSeries(
                count: registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "onward_http_requests_total", unitName: "", helpText: "HTTP requests answered"),
                                            labels: [("method", method), ("route", route), ("status", String(status))]),
                duration: registry.makeDurationHistogram(descriptor: MetricNameDescriptor(metricName: "onward_http_request_duration_seconds", unitName: "",
                                                                                          helpText: "Time to answer an HTTP request"),
                                                         labels: [("route", route)], buckets: Self.latencyBuckets))
            cache[key] = made
            return made
        }
        series.count.increment()
        series.duration.record(duration)
    }

    /// Refreshes the sources' gauges from their status, then renders everything.
    func render(upstreams: [SourceStatus]) -> String {
        // Every upstream by name (never a URL): up (fresh) or not, age, allowance left, and the figures it reports.
        for u in upstreams {
            let labels = [("source", u.name)]
            gauge("onward_source_up", "1 when the upstream's last answer was good", labels).set(Double(u.state == .fresh ? 1 : 0))
            if let age = u.ageSeconds { gauge("onward_source_age_seconds", "Seconds since the upstream's last good answer was made", labels).set(Double(age)) }
            if let left = u.budgetRemaining {
                gauge("onward_source_budget_remaining", "Upstream requests left in the current allowance", labels).set(Double(left))
            }
            for m in u.measures { gauge("onward_" + m.name, m.help, labels).set(m.value) }
        }
        return registry.emitToString()
    }

    private func gauge(_ name: String, _ help: String, _ labels: [(String, String)]) -> Gauge {
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
    }
}
