import App
import Foundation
import GTFSSource
import Testing

@Suite("serve configuration")
struct ServeConfigurationTests {
    func file(_ json: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onward-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test("flags win over the environment, which wins over the file, which wins over defaults")
    func precedence() async throws {
        let f = try file(#"{"port": 9001, "host": "0.0.0.0", "poll_interval": 10, "realtime": ["a.pb", "b.pb"]}"#)
        defer { try? FileManager.default.removeItem(at: f) }
        let c = try await ServeConfiguration.resolve(flags: [.port: "9003"], environment: ["ONWARD_PORT": "9002", "ONWARD_HOST": "::1"],
                                               configFile: f)
        #expect(c.port == 9003)
        #expect(c.host == "::1")
        #expect(c.pollInterval == 10)
        #expect(c.realtime == ["a.pb", "b.pb"])
        #expect(c.maxAge == 120)
        #expect(!c.simulate)
        let env = try await ServeConfiguration.resolve(flags: [:], environment: ["ONWARD_SIMULATE": "yes", "ONWARD_REALTIME": "x.pb, y.pb"],
                                                 configFile: f)
        #expect(env.simulate)
        #expect(env.realtime == ["x.pb", "y.pb"])
        #expect(env.port == 9001)
    }

    @Test("bad settings say which and where", arguments: [
        (#"{"port": 70000}"#, [:], "port"),
        (#"{"colour": "blue"}"#, [:], "colour"),
        (#"[1, 2]"#, [:], "one JSON object"),
        (#"{"port": 8080"#, [:], "not valid JSON"),
        (#"{}"#, ["ONWARD_SIMULATE": "perhaps"], "ONWARD_SIMULATE"),
        (#"{}"#, ["ONWARD_LOG_LEVEL": "loud"], "log_level"),
        (#"{"trusted_proxies": ["10.0.0.0/8", "nginx"]}"#, [:], "trusted_proxies: 'nginx' is not an IP address"),
        (#"{}"#, ["ONWARD_DATABASE_URL": "mysql://onward:hunter2@db/onward"], "ONWARD_DATABASE_URL: the database URL must start with postgres://"),
        (#"{"database_url": "postgres://onward:hunter2@db/onward?sslmode=sometimes"}"#, [:], "database_url: the database URL's sslmode"),
    ] as [(String, [String: String], String)])
    func problems(json: String, environment: [String: String], mention: String) async throws {
        let f = try file(json)
        defer { try? FileManager.default.removeItem(at: f) }
        do {
            _ = try await ServeConfiguration.resolve(flags: [:], environment: environment, configFile: f)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains(mention), "\(error.description)")
            // A database URL's password is never repeated.
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test("a missing config file named on the command line is an error; a missing default one is not")
    func missingFile() async throws {
        await #expect(throws: ServeConfiguration.Problem.self) {
            try await ServeConfiguration.resolve(flags: [:], environment: [:], configFile: URL(fileURLWithPath: "/nonexistent/onward.json"))
        }
        let c = try await ServeConfiguration.resolve(flags: [.dataDir: "/nonexistent-dir"], environment: [:], configFile: nil)
        #expect(c.dataDir == "/nonexistent-dir")
    }

    @Test("each message names the value's source and key, in Onward's words", arguments: [
        (#"{}"#, [.port: "abc"], [:], "--port must be a port number from 0 to 65535, not 'abc'"),
        (#"{}"#, [:], ["ONWARD_PORT": "abc"], "ONWARD_PORT must be a port number from 0 to 65535, not 'abc'"),
        (#"{"port": 70000}"#, [:], [:], "FILE: port must be a port number from 0 to 65535, not '70000'"),
        (#"{"port": "eighty"}"#, [:], [:], "FILE: port must be a port number from 0 to 65535, not 'eighty'"),
        (#"{}"#, [:], ["ONWARD_POLL_INTERVAL": "0"], "ONWARD_POLL_INTERVAL must be a number from 1.0 to 3600.0, not '0'"),
        (#"{"poll_interval": true, "max_age": [1]}"#, [:], [:], "FILE: max_age must be one value, not a list"),
        (#"{"max_age": 0}"#, [:], [:], "FILE: max_age must be a number from 1.0 to 86400.0, not '0'"),
        (#"{"host": 5}"#, [:], [:], "FILE: host must be a string"),
        (#"{"simulate": "perhaps"}"#, [:], [:], "FILE: simulate must be true or false, not 'perhaps'"),
        (#"{"feeds": ["a.zip", 2]}"#, [:], [:], "FILE: feeds must be a list of strings"),
        (#"{"realtime": "a.pb", "colour": "blue"}"#, [:], [:], "FILE: unknown setting 'colour'; known: host, port, feeds"),
        (#"{"port": {"number": 80}}"#, [:], [:], "FILE: port must be one value, not an object"),
        (#"{"trusted_proxies": {"a": "10.0.0.0/8"}}"#, [:], [:], "FILE: trusted_proxies must be a list of strings"),
        (#"{"realtime": 5}"#, [:], [:], "FILE: realtime must be a list of strings"),
        (#"{"port": 8080"#, [:], [:], "FILE: not valid JSON at line 1, column"),
        ("{\n  \"port\": 8080,\n  \"host\": \n}", [:], [:], "FILE: not valid JSON at line"),
        (#"{}"#, [:], ["ONWARD_CTA_URL": "ftp://key=k3y@x"], "ONWARD_CTA_URL must be an http(s) URL"),
    ] as [(String, [ServeConfiguration.Key: String], [String: String], String)])
    func sourcesNamed(json: String, flags: [ServeConfiguration.Key: String], environment: [String: String], message: String) async throws {
        let f = try file(json)
        defer { try? FileManager.default.removeItem(at: f) }
        do {
            _ = try await ServeConfiguration.resolve(flags: flags, environment: environment, configFile: f)
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix(message.replacingOccurrences(of: "FILE", with: f.path)), "\(error.description)")
            #expect(!error.description.contains("k3y"))
        }
    }

    @Test("a broken file's line and column are where the JSON stops making sense")
    func brokenJSONPlace() async throws {
        let f = try file("{\n  \"port\": 8080,\n  \"host\" \"::1\"\n}")
        defer { try? FileManager.default.removeItem(at: f) }
        await #expect {
            try await ServeConfiguration.resolve(flags: [:], environment: [:], configFile: f)
        } throws: { error in
            (error as? ServeConfiguration.Problem)?.description.contains("not valid JSON at line 3, column") == true
        }
    }

    @Test("the file may quote numbers and booleans, and give lists as text, as flags and the environment do")
    func fileText() async throws {
        let f = try file(#"{"port": "9001", "simulate": "on", "max_age": 30, "push_allow_http": true, "feeds": "a.zip, b.zip", "rate_limit": 2.5}"#)
        defer { try? FileManager.default.removeItem(at: f) }
        let c = try await ServeConfiguration.resolve(flags: [:], environment: [:], configFile: f)
        #expect(c.port == 9001)
        #expect(c.simulate)
        #expect(c.maxAge == 30)
        #expect(c.pushAllowHTTP)
        #expect(c.feeds == ["a.zip", "b.zip"])
        #expect(c.rateLimit == 2.5)
        // A bad value further down the order is not read when a higher source gives the key.
        let g = try file(#"{"port": "not a port"}"#)
        defer { try? FileManager.default.removeItem(at: g) }
        let d = try await ServeConfiguration.resolve(flags: [:], environment: ["ONWARD_PORT": "9002"], configFile: g)
        #expect(d.port == 9002)
    }

    @Test("the start-up summary says what was set and where, and never a secret")
    func secretsRedacted() async throws {
        let secrets = ["hunter2-database", "rail-token-1234", "cta-key-5678", "123456:telegram-bot-token", "webhook-secret-90",
                       "rail-url-key", "cta-url-key", "telegram-url-key"]
        let f = try file("""
            {"cta_key": "\(secrets[2])", "telegram_webhook_secret": "\(secrets[4])", "poll_interval": 10,
             "national_rail_url": "https://darwin.example/ldb?k=\(secrets[5])", "feeds": ["a.zip"]}
            """)
        defer { try? FileManager.default.removeItem(at: f) }
        let c = try await ServeConfiguration.resolve(
            flags: [.telegramBotToken: secrets[3], .port: "9003", .ctaURL: "https://cta.example/v3?k=\(secrets[6])"],
            environment: ["ONWARD_DATABASE_URL": "postgres://onward:\(secrets[0])@db/onward", "ONWARD_NATIONAL_RAIL_TOKEN": secrets[1],
                          "ONWARD_TELEGRAM_API_URL": "https://tg.example/\(secrets[7])", "ONWARD_HOST": "0.0.0.0"],
            configFile: f)
        // The values were read...
        #expect(c.databaseURL == "postgres://onward:\(secrets[0])@db/onward")
        #expect(c.nationalRailToken == secrets[1] && c.ctaKey == secrets[2] && c.telegramBotToken == secrets[3])
        #expect(c.telegramWebhookSecret == secrets[4])
        // ...and the summary names each with its source, the secrets redacted.
        for secret in secrets { #expect(!c.summary.contains(secret), "\(c.summary)") }
        for said in ["port=[string: 9003] (--port)", "host=[string: 0.0.0.0] (ONWARD_HOST)", "poll_interval=[double: 10.0] (\(f.path): poll_interval)",
                     "database_url=[string: <REDACTED>] (ONWARD_DATABASE_URL)", "telegram_bot_token=[string: <REDACTED>] (--telegram-bot-token)",
                     "cta_key=[string: <REDACTED>] (\(f.path): cta_key)", "national_rail_token=[string: <REDACTED>] (ONWARD_NATIONAL_RAIL_TOKEN)",
                     "telegram_webhook_secret=[string: <REDACTED>]", "cta_url=[string: <REDACTED>]", "national_rail_url=[string: <REDACTED>]",
                     "telegram_api_url=[string: <REDACTED>]", "feeds=[stringArray: a.zip]"] {
            #expect(c.summary.contains(said), "\(said) in \(c.summary)")
        }
        #expect(!c.summary.contains("max_age"), "a default is not listed as given")
        let empty = try file("{}")
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try await ServeConfiguration.resolve(flags: [:], environment: [:], configFile: empty)
        #expect(none.summary == "every setting at its default")
    }
}
