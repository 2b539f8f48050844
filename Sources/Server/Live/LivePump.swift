import HummingbirdWebSocket
import ServiceLifecycle

/// One kind of live channel (a board or service, a person's routes, a trip, a commute): what it sends
/// when it opens and what it sends for each input. `LivePump` runs it over a WebSocket.
protocol LiveChannel: Sendable {
    /// What the channel reacts to: a change announced by a hub, time passing, a client's message.
    associatedtype Input: Sendable

    /// How many unread inputs a slow connection keeps: 1 (the default) when each input only says
    /// "look again", so a slow client skips to the newest state; more when inputs are messages of their own.
    static var keep: Int { get }

    /// The messages sent as soon as the channel opens (read after its hubs were subscribed, so no
    /// change falls between the two).
    mutating func opening() async throws -> [String]

    /// The messages one input sends.
    mutating func messages(for input: Input) async throws -> [String]

    /// Whether the channel has said all it will: it closes once the messages of the input that made it so are sent.
    var isOver: Bool { get }

    /// What one text from the client means, if anything (reading waits for this, so a client that
    /// sends fast is slowed, never dropped).
    func read(_ text: String) async -> Input?
}

extension LiveChannel {
    static var keep: Int { 1 }
    var isOver: Bool { false }
    func read(_ text: String) async -> Input? { nil }
}

/// A stream of changes a channel listens to, as that channel's input.
struct LiveChanges<Input: Sendable>: Sendable {
    let forward: @Sendable (_ yield: @Sendable (Input) -> Void) async -> Void

    init<Element: Sendable>(_ stream: AsyncStream<Element>, as input: @escaping @Sendable (Element) -> Input) {
        forward = { yield in for await element in stream { yield(input(element)) } }
    }
}

/// Runs a live channel over a WebSocket: the one loop behind every `/live` channel. It sends the
/// channel's opening messages, then the messages of each input in turn, until the client closes, one
/// of the channel's change streams ends (its subject is gone), the channel closes itself, the session
/// that opened it ends, or the server shuts down (the page then reconnects to another server).
struct LivePump {
    let inbound: WebSocketInboundStream
    let outbound: WebSocketOutboundWriter

    /// Client messages larger than this are refused (they close the connection).
    static let maxMessageBytes = 4_096

    /// `changes`: what the channel hears (subscribed before this is called); `every`: an input given at
    /// that interval; `ended`: finishes when the session that opened the connection ends.
    func run<Channel: LiveChannel>(_ channel: Channel, changes: [LiveChanges<Channel.Input>] = [],
                                   every: (Duration, Channel.Input)? = nil, until ended: AsyncStream<Never>? = nil) async throws {
        let (inputs, input) = AsyncStream<Channel.Input>.makeStream(bufferingPolicy: .bufferingNewest(Channel.keep))
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await message in inbound.messages(maxSize: Self.maxMessageBytes) {
                        guard case .text(let text) = message, let next = await channel.read(text) else { continue }
                        input.yield(next)
                    }
                }
                for change in changes {
                    group.addTask {
                        await change.forward { input.yield($0) }
                        input.finish()
                    }
                }
                if let (interval, tick) = every {
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: interval)
                            input.yield(tick)
                        }
                    }
                }
                if let ended { group.addTask { for await _ in ended {} } }
                group.addTask {
                    var channel = channel
                    for text in try await channel.opening() { try await outbound.write(.text(text)) }
                    for await next in inputs {
                        for text in try await channel.messages(for: next) { try await outbound.write(.text(text)) }
                        if channel.isOver { return }
                    }
                }
                // Whichever ends first ends the connection.
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
