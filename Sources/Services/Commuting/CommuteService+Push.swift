import API
import Commute
import Foundation
import Logging
import OnwardCore
import ServiceLifecycle
import Storage
import Synchronization
import Transit
import TransitSources
import WebPush

/// Pushes leave in the order their alerts were given; a subscription the push service says is gone is forgotten.
extension CommuteService {
    func sendPushes() async {
        guard let sender = pushSender else { return }
        for await (id, subscription, payload) in pushQueue {
            if case .gone = await sender.send(payload, to: subscription) {
                _ = try? await change(id) { state in
                    if state.push == subscription { state.push = nil }
                    return []
                }
            }
        }
    }
}
