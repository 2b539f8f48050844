import DataSources
import Foundation
import GTFSRealtime
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

    /// Refreshes the realtime gauges from the current state, then renders everything.
    func render(_ state: NetworkState, upstreams: [SourceStatus] = [], now: Instant) -> String {
        // Upstream sources behind the protocol, by name (never a URL): up (fresh) or not, age, allowance left.
        for u in upstreams {
            let labels = [("source", u.name)]
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_source_up", unitName: "", helpText: "1 when the upstream's last answer was good"), labels: labels)
                .set(Double(u.state == .fresh ? 1 : 0))
            if let age = u.ageSeconds {
                registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_source_age_seconds", unitName: "", helpText: "Seconds since the upstream's last good answer was made"), labels: labels)
                    .set(Double(age))
            }
            if let left = u.budgetRemaining {
                registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_source_budget_remaining", unitName: "", helpText: "Upstream requests left in the current allowance"), labels: labels)
                    .set(Double(left))
            }
        }
        for source in state.sources.values {
            let labels = [("source", source.name)]
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_fetch_successes", unitName: "", helpText: "Successful realtime fetches"), labels: labels)
                .set(Double(source.successes))
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_fetch_failures", unitName: "", helpText: "Failed realtime fetches"), labels: labels)
                .set(Double(source.failures))
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_consecutive_failures", unitName: "", helpText: "Realtime fetches failed in a row"), labels: labels)
                .set(Double(source.consecutiveFailures))
            if let age = source.age(at: now) {
                registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_feed_age_seconds", unitName: "", helpText: "Age of the realtime data applied"), labels: labels)
                    .set(Double(age))
            }
            if let report = state.realtime.reports[source.name] {
                registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_matched_trips", unitName: "", helpText: "Trip updates matched to the timetable"), labels: labels)
                    .set(Double(report.matchedTrips))
                registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_unmatched_trips", unitName: "", helpText: "Trip updates for unknown trips or runs"), labels: labels)
                    .set(Double(report.unknownTrips + report.unmatchedInstances))
                registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_matched_stop_time_updates", unitName: "", helpText: "Stop time updates matched"), labels: labels)
                    .set(Double(report.matchedStopTimeUpdates))
                registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "onward_realtime_unmatched_stop_time_updates", unitName: "", helpText: "Stop time updates for unknown stops"), labels: labels)
                    .set(Double(report.unknownStops))
            }
        }
        return registry.emitToString()
    }
}
