import Foundation
import OnwardCore

/// Reads bus tracker answers, v2 or v3, JSON or XML, into the adapter's model.
///
/// Every answer is `bustime-response` with either items or `error` entries (or both, when
/// a request names several stops). "Nothing to show" messages make an empty answer with a
/// reason; a refused key, a spent allowance, an unknown route or stop, and anything
/// unreadable throw a `SourceError` whose message names the operation, never a URL.
public enum CTAParser {
    /// `getroutes`.
    public static func routes(_ data: Data) throws(SourceError) -> CTAAnswer<CTARoute> {
        try answer(data, .routes, keys: ["route", "routes"]) { CTARoute(record: $0) }
    }

    /// `getdirections`: v2 XML's `<dir>Northbound</dir>`, v2 JSON's `{"dir": "Northbound"}`,
    /// v3's `{"id": …, "name": …}`.
    public static func directions(_ data: Data) throws(SourceError) -> CTAAnswer<CTADirection> {
        let root = try CTABody.root(data, operation: CTARequest.Endpoint.directions.rawValue)
        let bare = root.texts("dir").map { CTADirection(id: $0, name: $0) }
        var records = root.records("directions") + root.records("dir")
        records = records.filter { !$0.fields.isEmpty }
        return try resolve(root, .directions, records: records, items: bare + records.compactMap(CTADirection.init(record:)))
    }

    /// `getstops`.
    public static func stops(_ data: Data) throws(SourceError) -> CTAAnswer<CTAStop> {
        try answer(data, .stops, keys: ["stop", "stops"]) { CTAStop(record: $0) }
    }

    /// `getpredictions`, earliest first.
    /// - Parameter now: roughly when the answer was made, to read times in the hour
    ///   repeated when clocks go back; nil reads them as the first occurrence.
    public static func predictions(_ data: Data, now: Instant? = nil) throws(SourceError) -> CTAAnswer<CTAPrediction> {
        var result = try answer(data, .predictions, keys: ["prd"]) { CTAPrediction(record: $0, reference: now) }
        result.items.sort { ($0.predicted, $0.route, $0.vehicleID) < ($1.predicted, $1.route, $1.vehicleID) }
        return result
    }

    /// `getservicebulletins`.
    public static func bulletins(_ data: Data) throws(SourceError) -> CTAAnswer<CTABulletin> {
        try answer(data, .serviceBulletins, keys: ["sb"]) { CTABulletin(record: $0) }
    }

    /// `getvehicles`.
    public static func vehicles(_ data: Data, now: Instant? = nil) throws(SourceError) -> CTAAnswer<CTAVehicle> {
        try answer(data, .vehicles, keys: ["vehicle"]) { CTAVehicle(record: $0, reference: now) }
    }

    /// `gettime`: the bus tracker's clock.
    public static func time(_ data: Data, now: Instant? = nil) throws(SourceError) -> Instant {
        let operation = CTARequest.Endpoint.time.rawValue
        let root = try CTABody.root(data, operation: operation)
        let result = try resolve(root, .time, records: [], items: [String]())
        guard result.emptyReason == nil, let text = root.text("tm"), let instant = CTATime.instant(text, near: now) else {
            throw CTABody.undecodable(operation, "the answer has no time the adapter can read")
        }
        return instant
    }

    // MARK: - Shared

    private static func answer<Item>(_ data: Data, _ endpoint: CTARequest.Endpoint, keys: [String],
                                     make: (CTARecord) -> Item?) throws(SourceError) -> CTAAnswer<Item> {
        let root = try CTABody.root(data, operation: endpoint.rawValue)
        let records = keys.flatMap { root.records($0) }
        return try resolve(root, endpoint, records: records, items: records.compactMap(make))
    }

    /// Weighs the items against the `error` entries.
    ///
    /// A refused key or a spent allowance fails the whole answer, whatever else it holds.
    /// Otherwise items win: in a request for several stops, "No arrival times" for one
    /// does not hide the others. With no items, "nothing now" messages make an empty
    /// answer with the first one's text as the reason; an unknown route or stop, or any
    /// other message, throws.
    private static func resolve<Item>(_ root: CTARecord, _ endpoint: CTARequest.Endpoint, records: [CTARecord],
                                      items: [Item]) throws(SourceError) -> CTAAnswer<Item> {
        let operation = endpoint.rawValue
        let messages = self.messages(root, endpoint)
        if let m = messages.first(where: { $0.kind == .configuration }) {
            throw SourceError(.configuration, "cta \(operation): the bus tracker refused the API key (\(m.text))")
        }
        if let m = messages.first(where: { $0.kind == .budgetExhausted }) {
            throw SourceError(.budgetExhausted, "cta \(operation): the API key's daily request limit is used up (\(m.text))")
        }
        if !records.isEmpty && items.isEmpty {
            throw CTABody.undecodable(operation, "none of the \(records.count) items in the answer could be read")
        }
        if !items.isEmpty || messages.isEmpty { return CTAAnswer(items: items, messages: messages) }
        if let reason = messages.first(where: { $0.kind == .noData }), messages.allSatisfy({ $0.kind == .noData }) {
            return CTAAnswer(items: [], emptyReason: reason.text, messages: messages)
        }
        if let m = messages.first(where: { $0.kind == .notFound }) {
            throw SourceError(.notFound, "cta \(operation): \(m.subject.map { "\($0) " } ?? "")not found (\(m.text))")
        }
        let m = messages.first { $0.kind == .other } ?? messages[0]
        throw SourceError(.undecodable, "cta \(operation): the bus tracker answered with an error (\(m.text))")
    }

    /// The `error` entries: records with `msg`, or (seen in older XML) bare text.
    private static func messages(_ root: CTARecord, _ endpoint: CTARequest.Endpoint) -> [CTAMessage] {
        var found: [CTAMessage] = []
        for r in root.records("error") {
            let text = safeText(r.text("msg") ?? "")
            guard !text.isEmpty else { continue }
            found.append(CTAMessage(text: text, kind: CTAMessage.classify(text, for: endpoint),
                                    route: r.text("rt"), stopID: r.text("stpid"), vehicleID: r.text("vid")))
        }
        for text in root.texts("error").map(safeText) where !text.isEmpty {
            found.append(CTAMessage(text: text, kind: CTAMessage.classify(text, for: endpoint)))
        }
        return found
    }

    /// An upstream message as it may travel on in an error: plain text, short, and with
    /// any URL it quotes (which could be ours, key and all) replaced by "[link]".
    static func safeText(_ message: String) -> String {
        let words = CTAPlainText.fromHTML(message).split(separator: " ", omittingEmptySubsequences: false).map { word in
            let lower = word.lowercased()
            return lower.contains("http://") || lower.contains("https://") || lower.contains("key=") ? "[link]" : String(word)
        }
        let text = words.joined(separator: " ")
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}

extension CTAMessage {
    /// "stop 70", "route 9999": what a not-found message is about, for the error's text.
    var subject: String? {
        if let stopID { return "stop \(stopID)" }
        if let route { return "route \(route)" }
        if let vehicleID { return "vehicle \(vehicleID)" }
        return nil
    }
}
