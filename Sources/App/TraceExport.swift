import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Spans exported over OTLP/HTTP (protobuf) to the collector at `trace_endpoint`, through swift-otel: the
/// process's tracer is set once, and the returned service sends the spans in batches while the server runs
/// (and the last of them as it stops). Without an endpoint nothing is set: the tracing API's no-op tracer
/// records nothing, and the request path and upstream fetches make no span at all.
enum TraceExport {
    static func start(_ config: ServeConfiguration, logger: Logger) throws -> (any Service)? {
        guard let endpoint = config.traceEndpoint else { return nil }
        var otel = OTel.Configuration.default
        otel.serviceName = "onward"
        // Which server of several sent a span: the host and port it listens on (OTEL_RESOURCE_ATTRIBUTES may say more).
        otel.resourceAttributes["service.instance.id"] = "\(ProcessInfo.processInfo.hostName):\(config.port)"
        otel.diagnosticLogger = .custom(logger)
        otel.diagnosticLogLevel = .warning
        otel.metrics.enabled = false
        otel.logs.enabled = false
        otel.traces.enabled = true
        otel.traces.exporter = .otlp
        otel.traces.otlpExporter.endpoint = endpoint
        otel.traces.otlpExporter.protocol = .httpProtobuf
        let backend = try OTel.makeTracingBackend(configuration: otel)
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
    }
}
