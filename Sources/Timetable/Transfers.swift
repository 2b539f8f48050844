import OnwardCore

/// A transfer rule from transfers.txt, for the journey planner.
public struct Transfer: Sendable, Hashable {
    public init(type: UInt8, fromStopID: String?, toStopID: String?, fromTripID: String?, toTripID: String?, minimumSeconds: Int?) {
        self.type = type; self.fromStopID = fromStopID; self.toStopID = toStopID
        self.fromTripID = fromTripID; self.toTripID = toTripID; self.minimumSeconds = minimumSeconds
    }

    /// GTFS transfer_type: 0 recommended, 1 timed, 2 needs `minimumSeconds`, 3 not possible, 4–5 in-seat.
    public var type: UInt8
    public var fromStopID: String?
    public var toStopID: String?
    public var fromTripID: String?
    public var toTripID: String?
    public var minimumSeconds: Int?
}

/// The transfer rules, stored as columns (indices, `Timetable.none` where absent).
struct TransferTable: Sendable {
    var from: [UInt32] = []
    var to: [UInt32] = []
    var fromTrip: [UInt32] = []
    var toTrip: [UInt32] = []
    var type: [UInt8] = []
    var minimumSeconds: [Int32] = []

    var byteSize: Int { from.count * 21 }
}

extension TimetableBuilder {
    public mutating func addTransfer(from: StopIndex?, to: StopIndex?, fromTrip: TripIndex?, toTrip: TripIndex?, type: UInt8, minimumSeconds: Int32) {
        transfers.from.append(from?.raw ?? Timetable.none); transfers.to.append(to?.raw ?? Timetable.none)
        transfers.fromTrip.append(fromTrip?.raw ?? Timetable.none); transfers.toTrip.append(toTrip?.raw ?? Timetable.none)
        transfers.type.append(type); transfers.minimumSeconds.append(minimumSeconds)
    }
}

extension Timetable {
    public var transferCount: Int { transfers.from.count }

    /// The transfer rules that start at a stop (or at its station).
    public func transfers(from stop: StopIndex) -> [Transfer] {
        let parent = stopParent[Int(stop.raw)]
        return (0..<transfers.from.count).compactMap { i in
            let f = transfers.from[i]
            guard f == stop.raw || (parent != Timetable.none && f == parent) else { return nil }
            func id(_ index: UInt32, _ ids: [String]) -> String? { index == Timetable.none ? nil : ids[Int(index)] }
            return Transfer(type: transfers.type[i], fromStopID: id(transfers.from[i], stopID), toStopID: id(transfers.to[i], stopID),
                            fromTripID: id(transfers.fromTrip[i], tripID), toTripID: id(transfers.toTrip[i], tripID),
                            minimumSeconds: transfers.minimumSeconds[i] < 0 ? nil : Int(transfers.minimumSeconds[i]))
        }
    }
}
