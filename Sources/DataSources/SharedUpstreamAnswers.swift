import OnwardCore

/// Where servers on one database share what they fetch from an upstream (see `UpstreamClient`): the
/// latest answer per cache key, and a claim so one server fetches a key while the others wait for its
/// answer. The upstream then sees one client however many servers there are. Never throws: a database
/// that is away means each server fetches for itself, as a lone server does.
public protocol SharedUpstreamAnswers: Sendable {
    /// The latest answer another server (or this one) stored for the key, with when it was fetched.
    func answer(source: String, key: String) async -> UpstreamCache.Entry?
    /// Keeps an answer for the others; ends this server's claim on its key.
    func store(source: String, key: String, _ entry: UpstreamCache.Entry) async
    /// Claims the fetch of the key until `until`: false while another server holds an unexpired claim.
    func claim(source: String, key: String, until: Instant) async -> Bool
    /// Gives up this server's claim without an answer (the fetch failed): a waiting server then fetches at once.
    func release(source: String, key: String) async
}
