import DataSources
import Foundation
import Logging
import OnwardCore

/// What Onward says to people through its Telegram bot (core.telegram.org/bots/api): messages,
/// with inline buttons for an event's RSVP, and the answer to a button's press. The bot token
/// is part of every method's URL (`/bot<token>/method`), so a URL is never logged or put in an
/// error: only the method's name and Telegram's status.
public struct TelegramBot: Sendable {
    let token: String
    /// `https://api.telegram.org` unless the operator (or a test's recorded server) says otherwise.
    let base: URL
    let fetcher: any HTTPFetching
    let logger: Logger

    public init(token: String, base: URL = URL(string: "https://api.telegram.org")!, fetcher: any HTTPFetching, logger: Logger) {
        self.token = token; self.base = base; self.fetcher = fetcher; self.logger = logger
    }

    public struct Button: Sendable, Hashable {
        public var text: String
        /// At most 64 bytes, sent back in the callback query.
        public var data: String
    }

    /// Sends `text` to a person's private chat with the bot (their Telegram user ID); false when Telegram refused or was unreachable.
    @discardableResult
    public func sendMessage(to chatId: Int64, _ text: String, buttons: [Button] = []) async -> Bool {
        var body: [String: Any] = ["chat_id": chatId, "text": text]
        if !buttons.isEmpty {
            body["reply_markup"] = ["inline_keyboard": [buttons.map { ["text": $0.text, "callback_data": $0.data] }]]
        }
        return await call("sendMessage", body)
    }

    /// Stops the pressed button's spinner, showing `text` to the person who pressed it.
    @discardableResult
    public func answerCallbackQuery(_ id: String, text: String) async -> Bool {
        await call("answerCallbackQuery", ["callback_query_id": id, "text": text])
    }

    private func call(_ method: String, _ body: [String: Any]) async -> Bool {
        let url = base.appendingPathComponent("bot\(token)").appendingPathComponent(method)
        do {
            let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            let response = try await fetcher.fetch(HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json"], body: data,
                                                               timeout: .seconds(10)))
            guard (200..<300).contains(response.status) else {
                logger.warning("telegram refused", metadata: ["telegram.method": .string(method), "status": .stringConvertible(response.status)])
                return false
            }
            return true
        } catch {
            // A `SourceError` may quote the URL, and with it the token: only its code is logged.
            let reason = (error as? SourceError).map { "\($0.code)" } ?? "\(type(of: error))"
            logger.warning("telegram unreachable", metadata: ["telegram.method": .string(method), "error": .string(reason)])
            return false
        }
    }
}
