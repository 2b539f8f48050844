import PostgresNIO

/// The schema's history in PostgreSQL's dialect: the same named steps, in the same order, as
/// `SQLiteMigrations`, recorded in `onward_migrations`. A released step is never edited: a change
/// to the schema is a new step at the end, in both dialects.
///
/// Times are Unix seconds (`bigint`), as `Instant` holds them; whole values (a trip, an event, a
/// profile…) are their JSON state (`StoredState`) in `bytea`, beside the columns that are looked up.
enum PostgresMigrations {
    static let steps: [(identifier: String, sql: [String])] = [
        ("v1", [
            // The last good body of each realtime source.
            """
            CREATE TABLE realtime_feed (
                source text PRIMARY KEY, payload bytea NOT NULL, fetched_at bigint NOT NULL, feed_timestamp bigint)
            """,
        ]),
        ("v2-commutes", [
            // Commutes in progress: the engine's state as JSON, opaque to storage.
            """
            CREATE TABLE commute (
                id text PRIMARY KEY, state bytea NOT NULL, revision bigint NOT NULL, updated_at bigint NOT NULL, expires_at bigint NOT NULL)
            """,
            "CREATE INDEX commute_expires_at ON commute (expires_at)",
        ]),
        ("v3-people", [
            // Accounts: a username is unique in any letter case (username_key is it in lower case).
            """
            CREATE TABLE account (
                id text PRIMARY KEY, username text, username_key text UNIQUE, password_hash text, telegram_id bigint UNIQUE,
                display_name text NOT NULL, created_at bigint NOT NULL)
            """,
            // Signed-in devices, by the SHA-256 of their token; they go with their account.
            """
            CREATE TABLE session (
                token_hash text PRIMARY KEY, account_id text NOT NULL REFERENCES account (id) ON DELETE CASCADE, kind text NOT NULL,
                csrf_token text NOT NULL, created_at bigint NOT NULL, expires_at bigint NOT NULL)
            """,
            "CREATE INDEX session_account_id ON session (account_id)",
            "CREATE INDEX session_expires_at ON session (expires_at)",
            // A person's routes and stacks: one JSON state and its version, replaced whole by compare-and-swap.
            """
            CREATE TABLE saved_routes (
                account_id text PRIMARY KEY REFERENCES account (id) ON DELETE CASCADE, version bigint NOT NULL, state bytea NOT NULL)
            """,
        ]),
        ("v4-trips", [
            "CREATE TABLE trip (id text PRIMARY KEY, invite_code text NOT NULL UNIQUE, state bytea NOT NULL)",
            """
            CREATE TABLE trip_member (
                trip_id text NOT NULL REFERENCES trip (id) ON DELETE CASCADE, person text NOT NULL, PRIMARY KEY (trip_id, person))
            """,
            "CREATE INDEX trip_member_person ON trip_member (person)",
            """
            CREATE TABLE trip_position (
                trip_id text NOT NULL REFERENCES trip (id) ON DELETE CASCADE, person text NOT NULL, state bytea NOT NULL,
                PRIMARY KEY (trip_id, person))
            """,
            """
            CREATE TABLE trip_event (
                id text PRIMARY KEY, trip_id text NOT NULL REFERENCES trip (id) ON DELETE CASCADE, at bigint NOT NULL, state bytea NOT NULL)
            """,
            "CREATE INDEX trip_event_trip_id ON trip_event (trip_id)",
            // Chat: one row per message, numbered within its conversation (a trip's, or two friends').
            """
            CREATE TABLE chat_message (
                conversation text NOT NULL, sequence bigint NOT NULL, author text NOT NULL, text text NOT NULL, at bigint NOT NULL,
                PRIMARY KEY (conversation, sequence))
            """,
            // Friendships across trips: one JSON state (accepted pairs and waiting requests).
            "CREATE TABLE friendships (id integer PRIMARY KEY CHECK (id = 1), state bytea NOT NULL)",
        ]),
        ("v5-trip-people", [
            // How far each reader has read each conversation: what unread counts go by.
            """
            CREATE TABLE chat_read (
                conversation text NOT NULL, person text NOT NULL, sequence bigint NOT NULL, PRIMARY KEY (conversation, person))
            """,
            // A person's bio, photo and push address: one JSON state.
            "CREATE TABLE profile (person text PRIMARY KEY, state bytea NOT NULL)",
            // Hosts' broadcasts, kept with their trip.
            """
            CREATE TABLE broadcast (
                id text PRIMARY KEY, trip_id text NOT NULL REFERENCES trip (id) ON DELETE CASCADE, at bigint NOT NULL, state bytea NOT NULL)
            """,
            "CREATE INDEX broadcast_by_trip ON broadcast (trip_id, at)",
        ]),
        ("v6-push-key", [
            // The server's Web Push (VAPID) private key: one row, shared by every server on the database.
            "CREATE TABLE push_key (id integer PRIMARY KEY CHECK (id = 1), private_key text NOT NULL)",
        ]),
        ("v7-upstream-answers", [
            // On-demand upstreams' answers, shared so one server's fetch serves all; and who is fetching which.
            """
            CREATE TABLE upstream_answer (
                source text NOT NULL, key text NOT NULL, status integer NOT NULL, headers text NOT NULL, body bytea NOT NULL,
                fetched_at bigint NOT NULL, PRIMARY KEY (source, key))
            """,
            "CREATE TABLE upstream_claim (source text NOT NULL, key text NOT NULL, until bigint NOT NULL, PRIMARY KEY (source, key))",
        ]),
        ("v8-friendship-rows", [
            // Friendships one row each (an accepted pair, the smaller ID first; or a request, from and to), so a
            // change locks two people, not a city, and a read is of one person's, not everyone's.
            """
            CREATE TABLE friendship (
                a text NOT NULL, b text NOT NULL, kind text NOT NULL CHECK (kind IN ('friends', 'request')), PRIMARY KEY (a, b, kind))
            """,
            "CREATE INDEX friendship_by_b ON friendship (b)",
            """
            INSERT INTO friendship (a, b, kind)
            SELECT p->>'a', p->>'b', 'friends' FROM friendships, jsonb_array_elements(convert_from(state, 'UTF8')::jsonb -> 'accepted') AS p
            """,
            """
            INSERT INTO friendship (a, b, kind)
            SELECT p->>'from', p->>'to', 'request' FROM friendships, jsonb_array_elements(convert_from(state, 'UTF8')::jsonb -> 'requests') AS p
            """,
            "DROP TABLE friendships",
        ]),
        ("v9-sign-in-attempts", [
            // Sign-in attempts as token buckets by account and by client, in the database, so the limit holds for
            // all the servers on it together (each kept its own, so N servers allowed N times the attempts).
            "CREATE TABLE sign_in_attempt (key text PRIMARY KEY, tokens double precision NOT NULL, took boolean NOT NULL, updated double precision NOT NULL)",
        ]),
        ("v10-watched-journeys", [
            // Journeys people watch: the watch and what its person was last told, as JSON, by owner.
            "CREATE TABLE watch (id text PRIMARY KEY, owner text NOT NULL, state bytea NOT NULL)",
            "CREATE INDEX watch_owner ON watch (owner)",
        ]),
        ("v11-feed-versions", [
            // The accepted version of each static feed, bytes and all: the leader stores it, the other servers load it from here.
            """
            CREATE TABLE feed_version (feed text PRIMARY KEY, hash text NOT NULL, fetched_at bigint NOT NULL, etag text,
                last_modified text, payload bytea NOT NULL)
            """,
        ]),
        ("v12-delay-history", [
            // What live sources said of each call (the latest word wins), kept a few days; the per-day aggregates they
            // fold into, kept for as long as history is wanted; and which dates wait to be folded.
            """
            CREATE TABLE delay_observation (
                source text NOT NULL, trip_id text NOT NULL, service_date integer NOT NULL, call integer NOT NULL,
                route_id text NOT NULL, stop_id text NOT NULL, hour_of_week smallint NOT NULL, departure_delay integer,
                arrival_delay integer, cancelled boolean NOT NULL, observed_at bigint NOT NULL,
                PRIMARY KEY (source, trip_id, service_date, call))
            """,
            "CREATE INDEX delay_observation_by_date ON delay_observation (service_date)",
            """
            CREATE TABLE delay_aggregate (
                service_date integer NOT NULL, route_id text NOT NULL, stop_id text NOT NULL, hour_of_week smallint NOT NULL,
                observed integer NOT NULL, cancelled integer NOT NULL, departures text NOT NULL, arrivals text NOT NULL,
                PRIMARY KEY (service_date, route_id, stop_id, hour_of_week))
            """,
            "CREATE INDEX delay_aggregate_by_stop ON delay_aggregate (stop_id, route_id)",
            "CREATE INDEX delay_aggregate_by_route ON delay_aggregate (route_id)",
            "CREATE TABLE delay_day (service_date integer PRIMARY KEY, folded boolean NOT NULL)",
        ]),
    ]

    static var identifiers: [String] { steps.map(\.identifier) }
}
