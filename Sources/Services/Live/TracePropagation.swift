import Tracing

/// A trace as it crosses to another server (in a relay message) or into a log: the propagation
/// fields the tracer writes (W3C Trace Context's `traceparent`), so nothing here names a tracer's
/// own types. With no tracer (spans not exported) there are none, and nothing is carried.
public enum TracePropagation {
    /// The fields that carry `context`'s trace; empty outside a trace or with no tracer.
    public static func fields(of context: ServiceContext?) -> [String: String] {
        var carrier: [String: String] = [:]
        if let context { InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector()) }
        return carrier
    }

    /// The context those fields carried, to start a span in the same trace.
    public static func context(from fields: [String: String]) -> ServiceContext {
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(fields, into: &context, using: DictionaryExtractor())
        return context
    }

    /// The trace ID (32 hex digits) of a context; nil outside a trace or with no tracer.
    public static func traceID(of context: ServiceContext) -> String? {
        // traceparent: version-traceid-parentid-flags
        let parts = fields(of: context)["traceparent"]?.split(separator: "-") ?? []
        guard parts.count == 4, parts[1].utf8.count == 32 else { return nil }
        return String(parts[1])
    }
}

/// Writes propagation fields into a dictionary: how a trace crosses a relay message or is read back.
struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}

/// Reads propagation fields from a dictionary.
struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}
