import GRDB

/// The schema's history, one named step per change, applied in order and
/// recorded in the database (GRDB's `grdb_migrations` table). A released step
/// is never edited: a change to the schema is a new step at the end. The same
/// steps, in the same order, are what a PostgreSQL driver will apply.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Never `eraseDatabaseOnSchemaChange`: that option deletes data, and a
        // server must not lose what it kept because its code changed.
        migrator.registerMigration("v1") { db in
            // The last good body of each realtime source. Times are Unix seconds, as `Instant` holds them.
            try db.create(table: "realtime_feed") { t in
                t.primaryKey("source", .text)
                t.column("payload", .blob).notNull()
                t.column("fetched_at", .integer).notNull()
                t.column("feed_timestamp", .integer)
            }
        }
        migrator.registerMigration("v2-commutes") { db in
            // Commutes in progress: the engine's state as JSON, opaque to storage. Times are Unix seconds.
            try db.create(table: "commute") { t in
                t.primaryKey("id", .text)
                t.column("state", .blob).notNull()
                t.column("revision", .integer).notNull()
                t.column("updated_at", .integer).notNull()
                t.column("expires_at", .integer).notNull().indexed()
            }
        }
        return migrator
    }
}
