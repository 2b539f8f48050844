import Foundation
import OnwardCore

/// A traveller who follows a journey on time, for `onward commute --simulate` and the web app's
/// "try it" mode: positions at the boarding stop from `start` (five minutes before the first ride
/// at the latest) and a minute before each ride, then at each stop as the vehicle leaves it, and
/// at the stop left at its arrival.
public enum SimulatedTraveller {
    public static func track(following journey: Journey, from start: Instant) -> [CommuteEvent] {
        var events: [CommuteEvent] = []
        if let first = journey.rides.first {
            let leaves = first.expectedDeparture ?? first.departure
            events.append(.position(at: min(start, leaves.adding(seconds: -300)), latitude: first.from.latitude, longitude: first.from.longitude, accuracy: 15))
        }
        func at(_ stop: JourneyStop, _ time: Instant) {
            events.append(.position(at: time, latitude: stop.latitude, longitude: stop.longitude, accuracy: 15))
        }
        for ride in journey.rides {
            let leaves = ride.expectedDeparture ?? ride.departure
            at(ride.from, leaves.adding(seconds: -60))
            at(ride.from, leaves)
            for call in ride.calls { at(call.stop, call.expectedDeparture ?? call.departure) }
            at(ride.to, ride.expectedArrival ?? ride.arrival)
        }
        return events
    }
}
