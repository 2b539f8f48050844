import ArgumentParser

/// `onward`: departure boards, services and stops from GTFS, in a terminal.
@main
struct Onward: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onward",
        abstract: "A real-time travel companion: departure boards, services and stops.",
        discussion: "Without --feed, commands use the bundled MRT Jakarta North–South line.",
        subcommands: [ServeCommand.self, BoardCommand.self, ServiceCommand.self, PlanCommand.self, CommuteCommand.self, StopsCommand.self, RoutesCommand.self, SourcesCommand.self,
                      ImportCommand.self, AlertsCommand.self, RtCommand.self, LoginCommand.self, LogoutCommand.self, GlanceCommand.self, SkiCommand.self]
    )
}

