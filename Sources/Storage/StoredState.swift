import Foundation
import Trips

/// How drivers keep a value whole as a JSON state (a trip, an event, a profile…) and a
/// conversation as its key: one encoding, so a database written by one driver reads the same in another.
public enum StoredState {
    /// The value as stored: JSON with sorted keys, so the same value is always the same bytes.
    public static func encode(_ value: some Encodable) throws(StorageError) -> Data {
        do { return try encoder.encode(value) } catch { throw StorageError(.failed, "cannot encode \(type(of: value)) (\(error))") }
    }

    /// A stored state read back; `place` names the database in the error when it cannot be read.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, place: String) throws(StorageError) -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw StorageError(.unreadable, "\(place): a stored \(type) cannot be read (\(error))")
        }
    }

    /// A conversation as its key: the same conversation, the same text.
    public static func key(_ conversation: Conversation) throws(StorageError) -> String {
        String(decoding: try encode(conversation), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }()
}
