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
        migrator.registerMigration("v3-people") { db in
            // Accounts: a username is unique in any letter case (username_key is it in lower case).
            try db.create(table: "account") { t in
                t.primaryKey("id", .text)
                t.column("username", .text)
                t.column("username_key", .text).unique()
                t.column("password_hash", .text)
                t.column("telegram_id", .integer).unique()
                t.column("display_name", .text).notNull()
                t.column("created_at", .integer).notNull()
            }
            // Signed-in devices, by the SHA-256 of their token; they go with their account.
            try db.create(table: "session") { t in
                t.primaryKey("token_hash", .text)
                t.column("account_id", .text).notNull().indexed().references("account", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("csrf_token", .text).notNull()
                t.column("created_at", .integer).notNull()
                t.column("expires_at", .integer).notNull().indexed()
            }
            // A person's routes and stacks: one JSON state and its version, replaced whole by compare-and-swap.
            try db.create(table: "saved_routes") { t in
                t.primaryKey("account_id", .text).references("account", onDelete: .cascade)
                t.column("version", .integer).notNull()
                t.column("state", .blob).notNull()
            }
        }
        migrator.registerMigration("v4-trips") { db in
            // Group trips. Each trip, position and event is its JSON state; the columns beside it are what is looked up.
            try db.create(table: "trip") { t in
                t.primaryKey("id", .text)
                t.column("invite_code", .text).notNull().unique()
                t.column("state", .blob).notNull()
            }
            try db.create(table: "trip_member") { t in
                t.column("trip_id", .text).notNull().references("trip", onDelete: .cascade)
                t.column("person", .text).notNull().indexed()
                t.primaryKey(["trip_id", "person"])
            }
            try db.create(table: "trip_position") { t in
                t.column("trip_id", .text).notNull().references("trip", onDelete: .cascade)
                t.column("person", .text).notNull()
                t.column("state", .blob).notNull()
                t.primaryKey(["trip_id", "person"])
            }
            try db.create(table: "trip_event") { t in
                t.primaryKey("id", .text)
                t.column("trip_id", .text).notNull().indexed().references("trip", onDelete: .cascade)
                t.column("at", .integer).notNull()
                t.column("state", .blob).notNull()
            }
            // Chat: one row per message, numbered within its conversation (a trip's, or two friends').
            try db.create(table: "chat_message") { t in
                t.column("conversation", .text).notNull()
                t.column("sequence", .integer).notNull()
                t.column("author", .text).notNull()
                t.column("text", .text).notNull()
                t.column("at", .integer).notNull()
                t.primaryKey(["conversation", "sequence"])
            }
            // Friendships across trips: one JSON state (accepted pairs and waiting requests).
            try db.create(table: "friendships") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("state", .blob).notNull()
            }
        }
        migrator.registerMigration("v5-trip-people") { db in
            // How far each reader has read each conversation: what unread counts go by.
            try db.create(table: "chat_read") { t in
                t.column("conversation", .text).notNull()
                t.column("person", .text).notNull()
                t.column("sequence", .integer).notNull()
                t.primaryKey(["conversation", "person"])
            }
            // A person's bio, photo and push address: one JSON state.
            try db.create(table: "profile") { t in
                t.primaryKey("person", .text)
                t.column("state", .blob).notNull()
            }
            // Hosts' broadcasts, kept with their trip.
            try db.create(table: "broadcast") { t in
                t.primaryKey("id", .text)
                t.column("trip_id", .text).notNull().references("trip", onDelete: .cascade)
                t.column("at", .integer).notNull()
                t.column("state", .blob).notNull()
            }
            try db.create(index: "broadcast_by_trip", on: "broadcast", columns: ["trip_id", "at"])
        }
        migrator.registerMigration("v6-push-key") { db in
            // The server's Web Push (VAPID) private key: one row, shared by every server on the database.
            try db.execute(sql: "CREATE TABLE push_key (id INTEGER PRIMARY KEY CHECK (id = 1), private_key TEXT NOT NULL)")
        }
        migrator.registerMigration("v7-upstream-answers") { db in
            // On-demand upstreams' answers, shared so one server's fetch serves all (used with PostgreSQL; kept
            // here so both drivers have one schema history).
            try db.execute(sql: """
                CREATE TABLE upstream_answer (
                    source TEXT NOT NULL, key TEXT NOT NULL, status INTEGER NOT NULL, headers TEXT NOT NULL, body BLOB NOT NULL,
                    fetched_at INTEGER NOT NULL, PRIMARY KEY (source, key))
                """)
            try db.execute(sql: "CREATE TABLE upstream_claim (source TEXT NOT NULL, key TEXT NOT NULL, until INTEGER NOT NULL, PRIMARY KEY (source, key))")
        }
        migrator.registerMigration("v8-friendship-rows") { db in
            // Friendships one row each (an accepted pair, the smaller ID first; or a request, from and to): a read
            // is of one person's, not everyone's.
            try db.execute(sql: """
                CREATE TABLE friendship (
                    a TEXT NOT NULL, b TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('friends', 'request')), PRIMARY KEY (a, b, kind))
                """)
            try db.execute(sql: "CREATE INDEX friendship_by_b ON friendship (b)")
            try db.execute(sql: """
                INSERT INTO friendship (a, b, kind)
                SELECT json_extract(p.value, '$.a'), json_extract(p.value, '$.b'), 'friends'
                FROM friendships, json_each(CAST(friendships.state AS TEXT), '$.accepted') AS p
                """)
            try db.execute(sql: """
                INSERT INTO friendship (a, b, kind)
                SELECT json_extract(p.value, '$.from'), json_extract(p.value, '$.to'), 'request'
                FROM friendships, json_each(CAST(friendships.state AS TEXT), '$.requests') AS p
                """)
            try db.execute(sql: "DROP TABLE friendships")
        }
        migrator.registerMigration("v9-sign-in-attempts") { db in
            // Sign-in attempts as token buckets by account and by client, in the database, so the limit holds for
            // all the servers on it together (each kept its own, so N servers allowed N times the attempts).
            try db.execute(sql: "CREATE TABLE sign_in_attempt (key TEXT PRIMARY KEY, tokens REAL NOT NULL, took BOOLEAN NOT NULL, updated REAL NOT NULL)")
        }
        migrator.registerMigration("v10-watched-journeys") { db in
            // Journeys people watch: the watch and what its person was last told, as JSON, by owner.
            try db.execute(sql: "CREATE TABLE watch (id TEXT PRIMARY KEY, owner TEXT NOT NULL, state BLOB NOT NULL)")
            try db.execute(sql: "CREATE INDEX watch_owner ON watch (owner)")
        }
        migrator.registerMigration("v11-feed-versions") { db in
            // The accepted version of each static feed, bytes and all: what servers sharing a database serve.
            try db.execute(sql: """
                CREATE TABLE feed_version (feed TEXT PRIMARY KEY, hash TEXT NOT NULL, fetched_at INTEGER NOT NULL, etag TEXT,
                    last_modified TEXT, payload BLOB NOT NULL)
                """)
        }
        migrator.registerMigration("v12-delay-history") { db in
            // What live sources said of each call (the latest word wins), kept a few days; the per-day aggregates they
            // fold into, kept for as long as history is wanted; and which dates wait to be folded.
            try db.execute(sql: """
                CREATE TABLE delay_observation (
                    source TEXT NOT NULL, trip_id TEXT NOT NULL, service_date INTEGER NOT NULL, call INTEGER NOT NULL,
                    route_id TEXT NOT NULL, stop_id TEXT NOT NULL, hour_of_week INTEGER NOT NULL, departure_delay INTEGER,
                    arrival_delay INTEGER, cancelled BOOLEAN NOT NULL, observed_at INTEGER NOT NULL,
                    PRIMARY KEY (source, trip_id, service_date, call)) WITHOUT ROWID
                """)
            try db.execute(sql: "CREATE INDEX delay_observation_by_date ON delay_observation (service_date)")
            try db.execute(sql: """
                CREATE TABLE delay_aggregate (
                    service_date INTEGER NOT NULL, route_id TEXT NOT NULL, stop_id TEXT NOT NULL, hour_of_week INTEGER NOT NULL,
                    observed INTEGER NOT NULL, cancelled INTEGER NOT NULL, departures TEXT NOT NULL, arrivals TEXT NOT NULL,
                    PRIMARY KEY (service_date, route_id, stop_id, hour_of_week)) WITHOUT ROWID
                """)
            try db.execute(sql: "CREATE INDEX delay_aggregate_by_stop ON delay_aggregate (stop_id, route_id)")
            try db.execute(sql: "CREATE INDEX delay_aggregate_by_route ON delay_aggregate (route_id)")
            try db.execute(sql: "CREATE TABLE delay_day (service_date INTEGER PRIMARY KEY, folded BOOLEAN NOT NULL)")
        }
        return migrator
    }
}
