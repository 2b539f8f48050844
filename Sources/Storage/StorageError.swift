/// Why storage failed: a stable code and a message that names the file (or
/// database) and says what to do. Drivers wrap their library's errors in it.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The file exists but is not a database this driver can read (not SQLite, or corrupt).
        case unreadable
        /// The database was written by a newer Onward: its schema has migrations this version does not know.
        case newerSchema
        /// The database or the folder holding it cannot be opened or created.
        case cannotOpen
        /// A read or write failed on an open database.
        case failed
        /// A write would break a uniqueness rule (a username or Telegram ID already taken).
        case conflict
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
