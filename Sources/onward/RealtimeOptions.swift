import ArgumentParser
import Foundation

/// `--realtime` and `--simulate`, shared by the commands that show live data.
struct RealtimeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("GTFS-Realtime trip updates, vehicle positions or alerts: a file or an http(s) URL; "
                                            + "NAME=URL_OR_FILE binds it to the static feed NAME (else the first feed). Repeatable.",
                                            valueName: "[NAME=]URL_OR_FILE"))
    var realtime: [String] = []

    @Flag(help: "Show simulated live data for the bundled network (labelled as simulated).")
    var simulate = false

    @Option(help: ArgumentHelp("Live data older than this many seconds past its timestamp is shown as last known.", valueName: "SECONDS"))
    var maxAge: Int = 120

    @Option(help: ArgumentHelp("Preferred languages for alerts, most preferred first, comma-separated (default: from LANG, else en).",
                               valueName: "LANGS"))
    var lang: String?

    var wanted: Bool { !realtime.isEmpty || simulate }

    /// The languages to pick alert texts in: --lang, else the environment's locale, else English.
    var languages: [String] {
        if let lang { return lang.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        // LANGUAGE is a colon-separated list; LC_ALL and LANG are one locale like en_US.UTF-8.
        let env = ProcessInfo.processInfo.environment
        let raw = env["LANGUAGE"].map { $0.split(separator: ":").map(String.init) } ?? [env["LC_ALL"] ?? env["LANG"] ?? ""]
        let tags = raw.map { String($0.split(separator: ".").first ?? "").replacingOccurrences(of: "_", with: "-") }
            .filter { !$0.isEmpty && $0 != "C" && $0 != "POSIX" }
        return tags.isEmpty ? ["en"] : tags
    }
}
