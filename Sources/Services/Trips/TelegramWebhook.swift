import Foundation
import OnwardCore
import Storage
import Trips

/// Updates from Telegram (core.telegram.org/bots/api#setwebhook): only the press of an RSVP button on
/// an invitation is acted on. Telegram signs nothing; it sends back the secret the operator gave
/// `setWebhook` in `X-Telegram-Bot-Api-Secret-Token`, compared here in constant time.
extension TripService {
    /// Whether the header carries the configured secret; the webhook answers 404 when none is configured.
    public func checkTelegramSecret(_ header: String?) throws {
        guard let secret = telegramWebhookSecret else {
            throw ServiceError(.webhookOff, "This server has no Telegram webhook.")
        }
        // Digests of equal length, compared without stopping at the first difference: neither the secret nor its length leaks.
        guard let header, Secrets.constantTimeEqual(Secrets.sha256(header), Secrets.sha256(secret)) else {
            throw ServiceError(.wrongSecret, "X-Telegram-Bot-Api-Secret-Token is missing or is not this server's webhook secret.")
        }
    }

    struct TelegramUpdate: Decodable {
        struct User: Decodable { var id: Int64 }
        struct CallbackQuery: Decodable {
            var id: String
            var from: User
            var data: String?
        }
        var callback_query: CallbackQuery?
    }

    /// Acts on one update; anything but an RSVP button is ignored (Telegram still gets 200, or it would send it again).
    public func telegramUpdate(_ body: Data) async {
        guard let update = try? JSONDecoder().decode(TelegramUpdate.self, from: body), let query = update.callback_query else { return }
        let reply = await rsvpReply(query)
        await notifier.telegram?.answerCallbackQuery(query.id, text: reply)
    }

    private func rsvpReply(_ query: TelegramUpdate.CallbackQuery) async -> String {
        let notYours = "This invitation is not yours to answer."
        guard let (eventID, answer) = query.data.flatMap(TelegramCallback.parse),
              let account = try? await people.repository.account(telegramId: query.from.id),
              let event = try? await repository.event(id: eventID) else { return notYours }
        do {
            _ = try await self.answer(event.tripId, event: eventID, by: account.id, answer)
        } catch let e as ServiceError where e.code.isNotFound {
            return notYours
        } catch {
            return "Onward could not keep your answer; try again."
        }
        switch answer {
        case .going: return "Going: \(event.title)"
        case .maybe: return "Maybe: \(event.title)"
        case .notGoing: return "Not going: \(event.title)"
        }
    }
}
