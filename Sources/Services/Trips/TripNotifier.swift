import API
import Foundation
import Logging
import OnwardCore
import ServiceLifecycle
import Storage
import Trips
import WebPush

/// Reaches people outside the app: a host's broadcast and an event's invitation to trip members, a watched
/// journey's notice to its watcher, by Web Push to the browsers they subscribed and by Telegram to those who
/// signed in with it (when a bot is configured), with RSVP buttons on an invitation. Deliveries queue and leave
/// in the background (`run`, a few lanes at once), so a slow push service never holds up what caused them.
public final class TripNotifier: Service, Sendable {
    struct Delivery: Sendable {
        var person: String
        var title: String
        var body: String
        /// The page the notification opens.
        var url: String
        var buttons: [TelegramBot.Button]
        /// Where it goes, as read when it was queued: the stored push subscription and the Telegram chat.
        public var push: Data?
        var telegramChat: Int64?
    }

    public let repository: any TripRepository
    let people: any PeopleRepository
    public let push: PushSender?
    let telegram: TelegramBot?
    /// Deliveries leave in lanes, each person's always in the same one: one person's messages in the order they
    /// were queued, while a slow push service or a cancellation told to thousands does not hold everyone in one line.
    private let lanes: [(stream: AsyncStream<Delivery>, continuation: AsyncStream<Delivery>.Continuation)]

    /// - Parameter lanes: how many deliveries may be under way at once (the push fan-out benchmark compares).
    public init(repository: any TripRepository, people: any PeopleRepository, push: PushSender? = nil, telegram: TelegramBot? = nil,
                lanes: Int = 8) {
        self.repository = repository; self.people = people; self.push = push; self.telegram = telegram
        self.lanes = (0..<max(lanes, 1)).map { _ in AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000)) }
    }

    private func enqueue(_ delivery: Delivery) {
        lanes[Int(StableHash.fnv1a(delivery.person) % UInt64(lanes.count))].continuation.yield(delivery)
    }

    /// How many members each way reaches, counted when the deliveries are queued.
    public struct Reach: Sendable, Hashable {
        public var push = 0
        public var telegram = 0
    }

    /// Queues a broadcast for every member but its host.
    func broadcast(_ b: Broadcast, trip: Trip) async -> Reach {
        await send(to: trip.members.keys.filter { $0 != b.host }, title: "📣 \(trip.name)", body: b.text, url: "/trips/\(trip.id)", buttons: [])
    }

    /// Queues an event's invitation for its invitees, with RSVP buttons on Telegram.
    @discardableResult
    func invite(_ e: TripEvent, trip: Trip) async -> Reach {
        let buttons = [("Going", TripEvent.Answer.going), ("Maybe", .maybe), ("Not going", .notGoing)].map {
            TelegramBot.Button(text: $0.0, data: TelegramCallback.rsvp(event: e.id, $0.1))
        }
        let when = e.at.description
        let details = e.details.isEmpty ? "" : "\n\(e.details)"
        return await send(to: Array(e.invitees), title: "\(trip.name): \(e.title)", body: "\(when)\(details)", url: "/trips/\(trip.id)", buttons: buttons)
    }

    /// Queues one message for one person (a watched journey's notice).
    public func tell(person: String, title: String, body: String, url: String) async {
        _ = await send(to: [person], title: title, body: body, url: url, buttons: [])
    }

    private func send(to people: [String], title: String, body: String, url: String, buttons: [TelegramBot.Button]) async -> Reach {
        var reach = Reach()
        for person in people.sorted() {
            var subscription: Data?, chat: Int64?
            if push != nil { subscription = (try? await repository.profile(person: person))??.push }
            if telegram != nil { chat = (try? await self.people.account(id: person))??.telegramId }
            guard subscription != nil || chat != nil else { continue }
            if subscription != nil { reach.push += 1 }
            if chat != nil { reach.telegram += 1 }
            enqueue(Delivery(person: person, title: title, body: body, url: url, buttons: buttons, push: subscription, telegramChat: chat))
        }
        return reach
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for lane in self.lanes {
                    group.addTask { for await delivery in lane.stream { await self.deliver(delivery) } }
                }
            }
        }
    }

    private func deliver(_ d: Delivery) async {
        if let push, let data = d.push, let subscription = try? JSONDecoder().decode(PushSubscription.self, from: data) {
            let payload = (try? JSONSerialization.data(withJSONObject: ["title": d.title, "body": d.body, "url": d.url], options: [.sortedKeys])) ?? Data()
            if case .gone = await push.send(payload, to: subscription) {
                // The browser unsubscribed: forget it, unless it was replaced meanwhile.
                if var now = try? await repository.profile(person: d.person), now.push == data {
                    now.push = nil
                    try? await repository.saveProfile(now)
                }
            }
        }
        if let telegram, let chat = d.telegramChat {
            await telegram.sendMessage(to: chat, "\(d.title)\n\(d.body)", buttons: d.buttons)
        }
    }
}

/// The data an inline button carries back (at most 64 bytes): `rsvp:<event ID>:<answer>`.
enum TelegramCallback {
    static func rsvp(event: String, _ answer: TripEvent.Answer) -> String { "rsvp:\(event):\(answer.rawValue)" }

    static func parse(_ data: String) -> (event: String, answer: TripEvent.Answer)? {
        let parts = data.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "rsvp", !parts[1].isEmpty, let answer = TripEvent.Answer(rawValue: String(parts[2])) else { return nil }
        return (String(parts[1]), answer)
    }
}
