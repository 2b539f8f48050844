import OnwardCore

/// What Darwin answered, read into values whose times are already placed on their
/// days (see `DarwinClock`). Field names follow Darwin's, so the XML is easy to check.
public enum DarwinResponse: Sendable, Hashable {
    /// GetDepBoardWithDetails, GetArrBoardWithDetails, GetArrDepBoardWithDetails (and the plain boards).
    case board(DarwinStationBoard)
    /// GetServiceDetails.
    case serviceDetails(DarwinServiceDetails)
    /// GetNextDepartures(WithDetails), GetFastestDepartures(WithDetails).
    case departures(DarwinDepartures)
}

/// A place as Darwin names it in an origin, destination or calling point.
public struct DarwinLocation: Sendable, Hashable {
    public var name: String
    /// Nil for a place without a CRS code (a few bus stops).
    public var crs: String?
    /// "via Horsham", for a destination that needs telling apart.
    public var via: String?

    public init(name: String, crs: String?, via: String? = nil) { self.name = name; self.crs = crs; self.via = via }
}

/// An NRCC message (a station or network notice) as Darwin sends it, and as safe text.
public struct DarwinMessage: Sendable, Hashable {
    /// The HTML Darwin sent, unchanged.
    public var html: String
    /// The message as plain text: tags removed, entities decoded, white space collapsed.
    public var text: String
    /// The first http(s) link in the message, if any.
    public var url: String?

    public init(html: String) {
        self.html = html
        let plain = DarwinText.plain(html)
        self.text = plain.text; self.url = plain.url
    }
}

/// One calling point of a service (before or after the place a board or service is for).
public struct DarwinCallingPoint: Sendable, Hashable {
    public var location: DarwinLocation
    /// The call's time: `st` with `et` or `at`. Nil when Darwin gave no scheduled time.
    public var time: DarwinEvent?
    public var isCancelled: Bool
    public var cancelReason: String?
    public var delayReason: String?
    /// Coaches, when Darwin says.
    public var length: Int?

    public init(location: DarwinLocation, time: DarwinEvent?, isCancelled: Bool = false, cancelReason: String? = nil,
                delayReason: String? = nil, length: Int? = nil) {
        self.location = location; self.time = time; self.isCancelled = isCancelled; self.cancelReason = cancelReason
        self.delayReason = delayReason; self.length = length
    }
}

/// One row of a board: a train, bus or ferry at the board's station.
public struct DarwinService: Sendable, Hashable {
    /// Darwin's ID for the service; may contain `/`, `+` and `=`, kept as sent.
    public var serviceID: String
    /// "train", "bus" or "ferry".
    public var serviceType: String
    public var operatorName: String?
    public var operatorCode: String?
    public var platform: String?
    /// `sta` with `eta`/`ata`: nil for a service that starts here.
    public var arrival: DarwinEvent?
    /// `std` with `etd`/`atd`: nil for a service that ends here.
    public var departure: DarwinEvent?
    public var isCancelled: Bool
    public var cancelReason: String?
    public var delayReason: String?
    public var origins: [DarwinLocation]
    public var destinations: [DarwinLocation]
    /// Calling points before the board's station: the first list is the train's own,
    /// any further list a portion that joins it.
    public var previousCallingPoints: [[DarwinCallingPoint]]
    /// Calling points after the board's station: the first list is the main portion,
    /// any further list a portion that divides from it (starting at the dividing station).
    public var subsequentCallingPoints: [[DarwinCallingPoint]]
    public var length: Int?

    public init(serviceID: String, serviceType: String = "train", operatorName: String? = nil, operatorCode: String? = nil,
                platform: String? = nil, arrival: DarwinEvent? = nil, departure: DarwinEvent? = nil, isCancelled: Bool = false,
                cancelReason: String? = nil, delayReason: String? = nil, origins: [DarwinLocation] = [],
                destinations: [DarwinLocation] = [], previousCallingPoints: [[DarwinCallingPoint]] = [],
                subsequentCallingPoints: [[DarwinCallingPoint]] = [], length: Int? = nil) {
        self.serviceID = serviceID; self.serviceType = serviceType; self.operatorName = operatorName
        self.operatorCode = operatorCode; self.platform = platform; self.arrival = arrival; self.departure = departure
        self.isCancelled = isCancelled; self.cancelReason = cancelReason; self.delayReason = delayReason
        self.origins = origins; self.destinations = destinations; self.previousCallingPoints = previousCallingPoints
        self.subsequentCallingPoints = subsequentCallingPoints; self.length = length
    }
}

/// A station board.
public struct DarwinStationBoard: Sendable, Hashable {
    /// When Darwin made the board: the reference every time on it is placed near.
    public var generatedAt: Instant
    public var locationName: String
    public var crs: String
    /// The calling-at (or coming-from) station, for a filtered board.
    public var filterLocationName: String?
    public var filterCRS: String?
    /// False when the station does not show platforms.
    public var platformAvailable: Bool?
    public var nrccMessages: [DarwinMessage]
    /// Trains, then buses, then ferries, each in Darwin's order.
    public var services: [DarwinService]

    public init(generatedAt: Instant, locationName: String, crs: String, filterLocationName: String? = nil,
                filterCRS: String? = nil, platformAvailable: Bool? = nil, nrccMessages: [DarwinMessage] = [],
                services: [DarwinService] = []) {
        self.generatedAt = generatedAt; self.locationName = locationName; self.crs = crs
        self.filterLocationName = filterLocationName; self.filterCRS = filterCRS
        self.platformAvailable = platformAvailable; self.nrccMessages = nrccMessages; self.services = services
    }
}

/// One service's details, at the station it was asked about.
public struct DarwinServiceDetails: Sendable, Hashable {
    public var generatedAt: Instant
    /// The station the details were asked from (the board's station).
    public var location: DarwinLocation
    public var serviceType: String
    public var operatorName: String?
    public var operatorCode: String?
    public var platform: String?
    public var arrival: DarwinEvent?
    public var departure: DarwinEvent?
    public var isCancelled: Bool
    public var cancelReason: String?
    public var delayReason: String?
    public var previousCallingPoints: [[DarwinCallingPoint]]
    public var subsequentCallingPoints: [[DarwinCallingPoint]]
    public var length: Int?

    public init(generatedAt: Instant, location: DarwinLocation, serviceType: String = "train", operatorName: String? = nil,
                operatorCode: String? = nil, platform: String? = nil, arrival: DarwinEvent? = nil,
                departure: DarwinEvent? = nil, isCancelled: Bool = false, cancelReason: String? = nil,
                delayReason: String? = nil, previousCallingPoints: [[DarwinCallingPoint]] = [],
                subsequentCallingPoints: [[DarwinCallingPoint]] = [], length: Int? = nil) {
        self.generatedAt = generatedAt; self.location = location; self.serviceType = serviceType
        self.operatorName = operatorName; self.operatorCode = operatorCode; self.platform = platform
        self.arrival = arrival; self.departure = departure; self.isCancelled = isCancelled
        self.cancelReason = cancelReason; self.delayReason = delayReason
        self.previousCallingPoints = previousCallingPoints; self.subsequentCallingPoints = subsequentCallingPoints
        self.length = length
    }
}

/// The next (or fastest) departure from a station to each of a list of destinations.
public struct DarwinDepartures: Sendable, Hashable {
    /// One destination asked for, and the service Darwin chose (nil when none runs there).
    public struct Item: Sendable, Hashable {
        public var destinationCRS: String
        public var service: DarwinService?

        public init(destinationCRS: String, service: DarwinService?) { self.destinationCRS = destinationCRS; self.service = service }
    }

    public var generatedAt: Instant
    public var locationName: String
    public var crs: String
    public var nrccMessages: [DarwinMessage]
    public var items: [Item]

    public init(generatedAt: Instant, locationName: String, crs: String, nrccMessages: [DarwinMessage] = [], items: [Item]) {
        self.generatedAt = generatedAt; self.locationName = locationName; self.crs = crs
        self.nrccMessages = nrccMessages; self.items = items
    }
}
