import Services
import StoragePostgres

/// The relay between servers over PostgreSQL's LISTEN/NOTIFY.
struct PostgresRelay: RelayTransport {
    let notifications: PostgresNotifications

    func send(_ text: String) async throws { try await notifications.send(text) }
    func listen(_ heard: @escaping @Sendable (String?) async -> Void) async { await notifications.listen(heard) }
}
