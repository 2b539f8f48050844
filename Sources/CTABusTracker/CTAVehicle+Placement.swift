import OnwardCore

extension CTAVehicle {
    /// The bus on a map, with the service it runs (the same service ID as its board rows).
    public var placement: VehiclePlacement {
        let info = VehicleInfo(vehicleID: vehicleID, label: vehicleID, latitude: latitude, longitude: longitude,
                               bearing: heading, speed: speedMPH.map { Double($0) * 0.447_04 }, reportedAt: reportedAt)
        return VehiclePlacement(tripID: CTAIDs.canonical(serviceLocalID), routeID: CTAIDs.canonical(route),
                                routeShortName: route, headsign: destination,
                                serviceDate: CTATime.serviceDate(of: reportedAt), vehicle: info)
    }
}
