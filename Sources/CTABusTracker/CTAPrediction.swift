import Foundation
import OnwardCore

/// One `prd` of `getpredictions`: a bus predicted at a stop, with everything the bus
/// tracker says about it, including what a `BoardEntry` has no field for (the countdown).
public struct CTAPrediction: Sendable, Hashable {
    /// Whether the bus arrives at the stop or departs from it (a terminal).
    public enum Kind: String, Sendable, Hashable {
        case arrival = "A"
        case departure = "D"
    }

    /// When the prediction was made (`tmstmp`).
    public var madeAt: Instant
    public var kind: Kind?
    public var stopID: String
    public var stopName: String
    public var vehicleID: String
    /// Feet from the bus to the stop (`dstp`).
    public var distanceToStop: Int?
    public var route: String
    /// v3's display designator (`rtdd`).
    public var routeDesignator: String?
    /// "Northbound" (`rtdir`).
    public var routeDirection: String
    /// Where the bus is going (`des`).
    public var destination: String
    /// The predicted time (`prdtm`).
    public var predicted: Instant
    public var blockID: String?
    /// The bus tracker's trip ID (`tatripid`), when it sends one.
    public var tripID: String?
    /// `dly`: the bus is delayed.
    public var isDelayed: Bool
    /// `prdctdn`: what the stop's sign shows.
    public var countdown: CTACountdown?
    /// v3 `dyn`: the dynamic action on the trip (0 none, 1 cancelled, …).
    public var dynamicAction: Int?
    /// v3 `psgld`: "FULL", "HALF_EMPTY", "EMPTY", or nil.
    public var passengerLoad: String?

    public init(madeAt: Instant, kind: Kind?, stopID: String, stopName: String, vehicleID: String, distanceToStop: Int?,
                route: String, routeDesignator: String? = nil, routeDirection: String, destination: String,
                predicted: Instant, blockID: String?, tripID: String?, isDelayed: Bool, countdown: CTACountdown?,
                dynamicAction: Int? = nil, passengerLoad: String? = nil) {
        self.madeAt = madeAt; self.kind = kind; self.stopID = stopID; self.stopName = stopName
        self.vehicleID = vehicleID; self.distanceToStop = distanceToStop; self.route = route
        self.routeDesignator = routeDesignator; self.routeDirection = routeDirection; self.destination = destination
        self.predicted = predicted; self.blockID = blockID; self.tripID = tripID; self.isDelayed = isDelayed
        self.countdown = countdown; self.dynamicAction = dynamicAction; self.passengerLoad = passengerLoad
    }

    /// The local part of the service's ID: the trip ID, or `vid-` and the bus when the
    /// bus tracker sends no trip (a bus is on one trip at a time).
    public var serviceLocalID: String { tripID ?? "vid-" + vehicleID }

    /// - Parameter reference: roughly when the answer was made (now), to read times in
    ///   the hour repeated when clocks go back.
    init?(record r: CTARecord, reference: Instant?) {
        guard let stpid = r.text("stpid"), let rt = r.text("rt"),
              let madeText = r.text("tmstmp"), let made = CTATime.instant(madeText, near: reference),
              let predictedText = r.text("prdtm"), let predicted = CTATime.instant(predictedText, near: made)
        else { return nil }
        let vid = r.text("vid") ?? ""
        self.init(madeAt: made, kind: r.text("typ").flatMap { Kind(rawValue: $0.uppercased()) }, stopID: stpid,
                  stopName: r.text("stpnm") ?? "", vehicleID: vid, distanceToStop: r.int("dstp"), route: rt,
                  routeDesignator: r.text("rtdd"), routeDirection: r.text("rtdir") ?? "", destination: r.text("des") ?? "",
                  predicted: predicted, blockID: r.text("tablockid"), tripID: r.text("tatripid"),
                  isDelayed: r.bool("dly") ?? false, countdown: r.text("prdctdn").flatMap(CTACountdown.init),
                  dynamicAction: r.int("dyn"), passengerLoad: r.text("psgld"))
        // Without a bus or a trip the service has no ID to link to.
        guard !vid.isEmpty || tripID != nil else { return nil }
    }
}

/// What a bus stop's sign shows for a prediction (`prdctdn`).
public enum CTACountdown: Sendable, Hashable, CustomStringConvertible {
    /// Minutes until the bus comes.
    case minutes(Int)
    /// "DUE": arriving now (under a minute).
    case due
    /// "DLY": delayed, with no time the bus tracker trusts.
    case delayed

    /// Reads "3", "DUE", "DLY"; nil for anything else.
    public init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        switch t {
        case "DUE": self = .due
        case "DLY", "DELAYED": self = .delayed
        default:
            guard let minutes = Int(t), minutes >= 0 else { return nil }
            self = .minutes(minutes)
        }
    }

    /// As the bus tracker writes it: "3", "DUE", "DLY".
    public var description: String {
        switch self {
        case .minutes(let m): String(m)
        case .due: "DUE"
        case .delayed: "DLY"
        }
    }
}
