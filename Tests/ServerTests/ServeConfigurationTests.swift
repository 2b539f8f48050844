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
    func precedence() throws {
        let f = try file(#"{"port": 9001, "host": "0.0.0.0", "poll_interval": 10, "realtime": ["a.pb", "b.pb"]}"#)
        defer { try? FileManager.default.removeItem(at: f) }
        let c = try ServeConfiguration.resolve(flags: [.port: "9003"], environment: ["ONWARD_PORT": "9002", "ONWARD_HOST": "::1"],
                                               configFile: f)
        #expect(c.port == 9003)
        #expect(c.host == "::1")
        #expect(c.pollInterval == 10)
        #expect(c.realtime == ["a.pb", "b.pb"])
        #expect(c.maxAge == 120)
        #expect(!c.simulate)
        let env = try ServeConfiguration.resolve(flags: [:], environment: ["ONWARD_SIMULATE": "yes", "ONWARD_REALTIME": "x.pb, y.pb"],
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
    func problems(json: String, environment: [String: String], mention: String) throws {
        let f = try file(json)
        defer { try? FileManager.default.removeItem(at: f) }
        do {
            _ = try ServeConfiguration.resolve(flags: [:], environment: environment, configFile: f)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains(mention), "\(error.description)")
            // A database URL's password is never repeated.
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test("a missing config file named on the command line is an error; a missing default one is not")
    func missingFile() throws {
        #expect(throws: ServeConfiguration.Problem.self) {
            try ServeConfiguration.resolve(flags: [:], environment: [:], configFile: URL(fileURLWithPath: "/nonexistent/onward.json"))
        }
        let c = try ServeConfiguration.resolve(flags: [.dataDir: "/nonexistent-dir"], environment: [:], configFile: nil)
        #expect(c.dataDir == "/nonexistent-dir")
    }
}
