#!/usr/bin/env python3
"""Writes Sources/Server/Resources/openapi.json from the description below.

The API's OpenAPI 3.1 document lives here as data, so it is easy to read and
edit; the server embeds the JSON file in its binary (SwiftPM embedInCode), and
ServerTests checks real responses against it. Run after editing:
    python3 Scripts/openapi.py
`--check` exits 1 when the committed file differs from what this script makes
(the test script runs it, so CI fails on a stale document).
"""
import json
import pathlib
import sys

S = {"type": "string"}
I = {"type": "integer"}
N = {"type": "number"}
B = {"type": "boolean"}
def arr(x): return {"type": "array", "items": x}
def ref(n): return {"$ref": f"#/components/schemas/{n}"}
def obj(required, optional):
    props = dict(required); props.update(optional)
    return {"type": "object", "required": sorted(required), "properties": props, "additionalProperties": False}

AT_SCHEMA = {"type": "string", "format": "date-time"}
ROUTE_KIND = {"type": "string", "enum": ["board", "journey", "service", "journeyOption"]}
ID200 = {"type": "string", "minLength": 1, "maxLength": 200}
STATUS = {"type": "string", "enum": ["scheduled", "noLiveData", "onTime", "late", "delayed", "early", "cancelled", "skipped", "departed"]}
ISO = {"type": "string", "description": "ISO 8601 local time with UTC offset, e.g. 2026-11-23T08:05:00+07:00"}
OCCUPANCY_LEVEL = {"type": "string", "enum": ["empty", "manySeatsAvailable", "fewSeatsAvailable", "standingRoomOnly",
                                              "crushedStandingRoomOnly", "full", "notAcceptingPassengers", "notBoardable"],
                   "description": "GTFS-Realtime occupancy_status, in camel case; no data is an absent field"}

schemas = {
    "Stop": obj({"id": S, "name": S, "kind": {"type": "string", "enum": ["stop", "station", "entrance", "node", "boardingArea"]},
                 "latitude": N, "longitude": N, "timeZone": S},
                {"code": S, "parentId": S, "platform": S, "distanceMetres": N}),
    "Stops": obj({"stops": arr(ref("Stop"))}, {}),
    "Live": obj({"simulated": B, "stale": B, "unavailable": arr(S)}, {"updatedAt": ISO}),
    "AlertPeriod": obj({}, {"start": ISO, "end": ISO}),
    "AlertEntity": obj({}, {"agencyId": S, "routeId": S, "routeType": I, "directionId": I, "tripId": S, "stopId": S}),
    "Alert": obj({"id": S, "cause": S, "effect": S, "severity": S, "highPriority": B,
                  "activePeriods": arr(ref("AlertPeriod")), "informedEntities": arr(ref("AlertEntity"))},
                 {"header": S, "description": S, "url": S, "language": S}),
    "BoardAlerts": obj({"highPriority": arr(ref("Alert")), "other": arr(ref("Alert"))}, {}),
    "BoardEntry": obj({"tripId": S, "routeId": S, "routeShortName": S, "routeLongName": S, "headsign": S, "origin": S,
                       "stopId": S, "stopName": S, "serviceDate": S, "status": STATUS},
                      {"routeColor": S, "platform": S, "scheduledDeparture": ISO, "scheduledArrival": ISO,
                       "arrivalAtDestination": ISO, "destinationStopId": S, "departureFromOrigin": ISO, "originStopId": S,
                       "headwaySeconds": I, "exactTimes": B, "startTime": S, "expectedDeparture": ISO, "expectedArrival": ISO,
                       "delaySeconds": I, "platformChanged": B, "addedTrip": B, "alerts": arr(S),
                       "operatorName": S, "reason": S, "callingAt": arr(ref("CallingAt")), "occupancy": ref("Occupancy"),
                       "usualDelay": ref("UsualDelay")}),
    "UsualDelay": {**obj({"dayKind": {"type": "string", "enum": ["weekday", "saturday", "sunday"]},
                          "hour": {"type": "integer", "minimum": 0, "maximum": 23}, "observed": I, "cancelled": I, "days": I, "enough": B},
                         {"departureLowMinutes": I, "departureMedianMinutes": I, "departureHighMinutes": I, "arrivalMedianMinutes": I,
                          "arrivalHighMinutes": I, "cancelledOneIn": I}),
                   "description": "How late the route usually is at the stop in this hour on this kind of day, from the delay history: "
                                  "a fifth, half and four fifths of departures were at most this many minutes late (negative: early)"},
    "HistoryRow": obj({"usual": ref("UsualDelay")}, {"routeId": S}),
    "History": obj({"kind": {"type": "string", "enum": ["stop", "route"]}, "id": S, "from": S, "through": S, "rows": arr(ref("HistoryRow"))},
                   {"name": S}),
    "Occupancy": {**obj({"basis": {"type": "string", "enum": ["vehicleNow", "forecastAtStop"]}},
                        {"level": OCCUPANCY_LEVEL, "percentage": I, "carriages": arr(ref("Carriage"))}),
                  "description": "How full the vehicle is: as last reported (vehicleNow) or the feed's forecast for leaving this stop"},
    "Carriage": obj({"sequence": I}, {"id": S, "label": S, "level": OCCUPANCY_LEVEL, "percentage": I}),
    "CallingAt": obj({"stopId": S, "stopName": S, "scheduled": ISO, "status": STATUS}, {"expected": ISO}),
    "Board": obj({"stop": ref("Stop")}, {"via": ref("Stop"), "departures": arr(ref("BoardEntry")), "arrivals": arr(ref("BoardEntry")),
                                        "live": ref("Live"), "alerts": ref("BoardAlerts"), "source": S, "sourceName": S,
                                        "sourceCapabilities": arr(S), "emptyReason": S}),
    "Call": obj({"stopId": S, "stopName": S, "stopSequence": I, "scheduledArrival": ISO, "scheduledDeparture": ISO,
                 "pickup": S, "dropOff": S, "timepoint": B, "status": STATUS},
                {"platform": S, "stopHeadsign": S, "expectedArrival": ISO, "expectedDeparture": ISO, "delaySeconds": I,
                 "platformChanged": B, "occupancy": ref("Occupancy"), "usualDelay": ref("UsualDelay"), "latitude": N, "longitude": N}),
    "Vehicle": obj({}, {"id": S, "label": S, "latitude": N, "longitude": N, "bearing": N, "speedMetresPerSecond": N,
                        "stopStatus": {"type": "string", "enum": ["incomingAt", "stoppedAt", "inTransitTo"]}, "stopId": S,
                        "reportedAt": ISO, "occupancy": ref("Occupancy")}),
    "Service": obj({"tripId": S, "routeId": S, "routeShortName": S, "routeLongName": S, "headsign": S, "serviceDate": S,
                    "calls": arr(ref("Call"))},
                   {"headwaySeconds": I, "cancelled": B, "vehicle": ref("Vehicle"), "live": ref("Live"), "alerts": arr(ref("Alert")),
                    "shape": {"type": "string", "description": "The way the vehicle goes (the feed's shape) as an encoded polyline, five decimals"},
                    "operatorName": S, "reason": S, "branches": arr(ref("Branch")), "source": S, "timeZone": S, "routeColor": S,
                    "placedVehicle": ref("PlacedVehicle")}),
    "PlacedVehicle": {**obj({"latitude": N, "longitude": N, "stopId": S, "atStop": B, "basis": {"type": "string", "enum": ["liveTimes"]}}, {}),
                      "description": "Where the vehicle must be by its live times, when the feed gives no position for it"},
    "Branch": obj({"afterStopId": S, "headsign": S, "calls": arr(ref("Call"))}, {}),
    "Route": obj({"id": S, "shortName": S, "longName": S}, {"color": S}),
    "Routes": obj({"source": S, "routes": arr(ref("Route"))}, {}),
    "Direction": obj({"id": S, "name": S}, {}),
    "RouteDetail": obj({"route": S}, {"directions": arr(ref("Direction")), "direction": S, "stops": arr(ref("Stop"))}),
    "Upstream": obj({"name": S, "state": {"type": "string", "enum": ["fresh", "stale", "failing", "unavailable", "idle", "starting"]}},
                    {"ageSeconds": I, "detail": S, "budgetRemaining": I,
                     "version": ref("FeedVersion"),
                     "warning": {"type": "string", "description": "Something to act on soon: the timetable ends within 7 days."}}),
    "FeedVersion": obj({"hash": {"type": "string", "description": "SHA-256 of the feed's bytes, in hex: the same on every instance serving it."},
                        "fetchedAt": ISO},
                       {"publisherVersion": {"type": "string", "description": "feed_info.feed_version"},
                        "firstDate": {"type": "string", "format": "date"},
                        "lastDate": {"type": "string", "format": "date", "description": "The last service date: feed_info's end date, else the calendars'."}}),
    "FeedRefresh": obj({"accepted": {"type": "boolean", "description": "Whether a new version went into service."},
                        "forwarded": {"type": "boolean", "description": "Another server fetches the feeds (servers sharing a database): it was asked, and what it accepts reaches this one within seconds."},
                        "timetables": arr(ref("Upstream"))}, {}),
    "Source": obj({"name": S, "displayName": S, "capabilities": arr(S), "upstreams": arr(ref("Upstream"))}, {}),
    "Sources": obj({"sources": arr(ref("Source"))}, {}),
    "Alerts": obj({"at": ISO, "alerts": arr(ref("Alert")), "inactiveCount": I, "totalInFeeds": I}, {"stop": ref("Stop"), "routeId": S, "tripId": S, "timeZone": S, "notes": arr(S)}),
    "VehicleItem": obj({"tripId": S, "routeId": S, "routeShortName": S, "serviceDate": S, "vehicle": ref("Vehicle")}, {}),
    "Vehicles": obj({"vehicles": arr(ref("VehicleItem"))}, {"live": ref("Live")}),
    "RouteLine": obj({"directionId": S, "name": S, "stops": arr(ref("Stop"))},
                     {"shape": {"type": "string", "description": "The way it goes, an encoded polyline (Google's format, five decimals); absent where the source has no shapes (join the stops)."}}),
    "RouteMap": obj({"route": ref("Route"), "lines": arr(ref("RouteLine"))}, {}),
    "RouteVehicleNext": obj({"stopId": S, "atStop": B}, {"name": S, "due": ISO, "delaySeconds": I}),
    "RouteVehicle": obj({"latitude": N, "longitude": N,
                         "basis": {"type": "string", "enum": ["position", "liveTimes"],
                                   "description": "position: the feed's vehicle position; liveTimes: placed between its calls by its live times (the feed gives no positions). Say which wherever it is shown."}},
                        {"tripId": S, "serviceDate": S, "headsign": S, "vehicle": ref("Vehicle"), "next": ref("RouteVehicleNext")}),
    "RouteVehicles": obj({"routeId": S, "timeZone": S, "vehicles": arr(ref("RouteVehicle"))}, {"live": ref("Live")}),
    "JourneyStop": obj({"stopId": S, "name": S, "latitude": N, "longitude": N}, {"platform": S}),
    "JourneyCall": obj({"stopId": S, "name": S, "departure": ISO}, {"expectedDeparture": ISO}),
    "JourneyLeg": obj({"kind": {"type": "string", "enum": ["transit", "walk"]}, "from": ref("JourneyStop"), "to": ref("JourneyStop"),
                       "departure": ISO, "arrival": ISO},
                      {"duration": {"type": "integer", "description": "Whole seconds (walks)"}, "tripId": S, "routeId": S,
                       "routeShortName": S, "routeColor": S, "headsign": S, "serviceDate": S, "startTime": S,
                       "expectedDeparture": ISO, "expectedArrival": ISO, "status": STATUS,
                       "intermediateStops": arr(ref("JourneyCall")),
                       "staysSeated": {"type": "boolean", "description": "True when the traveller stays on board from the ride before: "
                                                                          "the vehicle goes on as this trip (GTFS block_id, or transfers.txt "
                                                                          "type 4). It is not a change"},
                       "added": {"type": "boolean", "description": "True for a trip the realtime feed added (not in the timetable)"},
                       "occupancy": ref("Occupancy"), "usualArrival": ref("UsualDelay")}),
    "JourneyChange": obj({"stopId": S, "stopName": S, "walkSeconds": I,
                          "marginSeconds": {"type": "integer", "description": "Seconds from the arrival to the next departure by the "
                                                                                "timetable; the walk (walkSeconds) is part of it"}},
                         {"liveMarginSeconds": {"type": "integer", "description": "The same by the live times, when either ride has them"},
                          "arrivingLateSeconds": I, "leavingLateSeconds": I,
                          "staysSeated": {"type": "boolean", "description": "True where the traveller stays on board into the next ride: "
                                                                             "no change is made there"},
                          "usualArrival": ref("UsualDelay"),
                          "risky": {"type": "boolean", "description": "True where the delay history says the change often fails: the "
                                                                       "arriving ride is usually later than the time to spare"},
                          "reliable": {"type": "boolean", "description": "Whether the change holds four days in five by the history "
                                                                          "(absent with no history)"}}),
    "Journey": obj({"departure": ISO, "arrival": ISO, "duration": {"type": "integer", "description": "Whole seconds"},
                    "transfers": I, "legs": arr(ref("JourneyLeg")), "changes": arr(ref("JourneyChange"))}, {}),
    "Journeys": obj({"from": ref("Stop"), "to": ref("Stop"), "journeys": arr(ref("Journey"))},
                    {"live": ref("Live"), "emptyReason": S, "source": S, "sourceName": S}),
    "CommuteAlert": obj({"at": ISO, "kind": {"type": "string", "enum": ["nearStation", "vehicleArriving", "arrivingAtTransfer",
                                                                      "arrivingAtDestination", "missedConnection", "tripCancelled"]},
                         "stopId": S, "stopName": S, "message": S},
                        {"basis": {"type": "string", "enum": ["liveTimes", "timetable", "position", "beacon"],
                                   "description": "What the alert's moment was judged from: the vehicle's live times, the timetable, "
                                                  "the traveller's positions (or the delay they showed), or a beacon"}}),
    "Commute": obj({"status": {"type": "string", "enum": ["active", "ended"]}, "simulated": B, "journey": ref("Journey"),
                    "alerts": arr(ref("CommuteAlert")), "now": ISO, "push": B},
                   {"id": {"type": "string", "description": "Only when it starts: the commute's key. Keep it on the device; never put it in a URL."},
                    "speed": I,
                    "ahead": {**arr(ref("CommuteAlert")), "description": "The alerts the journey's times alone would give next, each at its moment: what a page says by itself if the network goes (a tunnel)."}}),
    "CommuteAlerts": obj({"alerts": arr(ref("CommuteAlert"))}, {}),
    "Sighting": {**obj({}, {"at": AT_SCHEMA, "lat": {"type": "number", "minimum": -90, "maximum": 90},
                         "lon": {"type": "number", "minimum": -180, "maximum": 180}, "accuracy": {"type": "number", "minimum": 0},
                         "beacon": obj({"uuid": S, "major": I, "minor": I}, {})}),
                 "description": "A position (lat and lon, with accuracy in metres) or a beacon sighting.",
                 "anyOf": [{"required": ["lat", "lon"]}, {"required": ["beacon"]}]},
    "PushSubscription": obj({"endpoint": {"type": "string", "pattern": "^https://[A-Za-z0-9.-]+(:[0-9]{1,4})?(/([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?$", "maxLength": 1000, "description": "The push service's URL (https)."}, "keys": obj({"p256dh": S, "auth": S}, {})}, {"expirationTime": {"type": ["number", "null"]}}),
    "PushKey": obj({"publicKey": S}, {}),
    "Problem": obj({"type": S, "title": S, "status": I, "detail": S, "code": S},
                   {"instance": S, "parameter": S, "requestId": S,
                    "current": {**ref("SavedRoutes"), "description": "With 409 stale-version: the routes as they are now."},
                    "candidates": {**arr(obj({"id": S, "name": S}, {"detail": S})),
                                   "description": "With stop-not-found or route-not-found for a name (parameter): the stops or routes it matches when it matches several, or the nearest names when it matches none."}}),
    "Me": obj({"id": S, "displayName": S, "telegram": B, "createdAt": S}, {"username": S}),
    "SignedIn": obj({"me": ref("Me"), "token": {"type": "string", "description": "A bearer token: Authorization: Bearer TOKEN."},
                     "expiresAt": S}, {}),
    "SavedRoute": obj({"id": S, "name": S, "kind": ROUTE_KIND},
                      {"stopId": S, "from": S, "to": S, "arrivals": B, "tripId": S, "serviceDate": S, "departure": S}),
    "RouteStack": obj({"route": ref("SavedRoute"), "pushed": arr(ref("SavedRoute"))}, {}),
    "SavedRoutes": obj({"version": I, "stacks": arr(ref("RouteStack"))}, {"currentRouteId": S}),
    "OfflinePage": obj({"url": S, "copy": {"type": "string", "description": "Where the page's offline copy is made (the timetable's next hours, marked as a copy): keep it at url."},
                        "name": S}, {}),
    "OfflinePack": obj({"pages": arr(ref("OfflinePage")), "assets": arr(S), "routesVersion": I}, {}),
    "RouteResult": obj({"state": {"type": "string", "enum": ["noRoutes", "loading", "loaded", "failed"]}},
                       {"route": ref("SavedRoute"), "trail": arr(ref("SavedRoute")), "board": ref("Board"), "service": ref("Service"),
                        "journeys": ref("Journeys"), "reason": S}),
    "Export": obj({"exportedAt": S, "account": ref("Me"), "routes": ref("SavedRoutes"),
                   "sessions": arr(obj({"kind": S, "createdAt": S, "expiresAt": S}, {}))}, {}),
    "WatchAlternative": obj({"departure": ISO, "arrival": ISO, "route": {"type": "string", "description": "The first ride's route short name"}},
                            {"laterMinutes": {"type": "integer", "description": "Minutes later (negative: sooner) than the watched option was to "
                                                                                 "arrive by the timetable; absent when the day's timetable lacks it"}}),
    "WatchNotice": obj({"kind": {"type": "string", "enum": ["delayed", "backOnTime", "cancelled", "reinstated", "platformChanged", "connectionLost"]},
                        "at": ISO, "departure": {**ISO, "description": "The watched departure, by the timetable"}, "message": S,
                        "expectedDeparture": ISO, "expectedArrival": ISO, "delayMinutes": I, "cancelled": B},
                       {"platform": {"type": "string", "description": "The first ride's platform, when the live data moved it"},
                        "lostChangeAt": {"type": "string", "description": "Where a change can no longer be made"},
                        "alternative": ref("WatchAlternative")}),
    "Watch": obj({"id": S, "name": S, "from": S, "fromName": S, "to": S, "toName": S,
                  "time": {"type": "string", "description": "The departure's local time, HH:MM, in timeZone"}, "timeZone": S,
                  "days": arr({"type": "string", "enum": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}),
                  "leadMinutes": I, "thresholdMinutes": I, "notices": arr(ref("WatchNotice"))},
                 {"date": {"type": "string", "description": "YYYY-MM-DD: the one day of a watch without days"},
                  "nextDeparture": {**ISO, "description": "The next departure watched (absent once a one-day watch's day has passed)"}}),
    "Watches": obj({"watches": arr(ref("Watch"))}, {}),
}

def param(name, where, schema, desc, required=False):
    return {"name": name, "in": where, "required": required or where == "path", "schema": schema, "description": desc}

LANG = param("lang", "query", S, "Preferred language for alert texts (else Accept-Language).")
def ok(schema_name, desc):
    return {"description": desc, "content": {"application/json": {"schema": ref(schema_name)}}}
PROBLEM = {"description": "A problem (RFC 9457)", "content": {"application/problem+json": {"schema": ref("Problem")}}}
def errors(*codes): return {str(c): PROBLEM for c in codes}

DATE = {"type": "string", "format": "date"}
TIME = {"type": "string", "pattern": "^([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$"}
AT = {"type": "string", "format": "date-time"}

board_params = [
    param("stopId", "path", S, "A stop or station ID; a station gathers its platforms."),
    param("date", "query", DATE, "Service date YYYY-MM-DD in the stop's time zone (default today); an impossible date is refused."),
    param("time", "query", TIME, "Local time HH:MM[:SS] at the stop (default now)."),
    param("at", "query", AT, "An ISO 8601 instant with its offset, instead of date and time; an impossible one is refused."),
    param("window", "query", {"type": "integer", "minimum": 1, "maximum": 1440}, "Minutes to show; with limit too, at most limit rows within them."),
    param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "Rows to show (default 15 without a window)."),
    LANG,
]

paths = {
    "/api/v1/stops": {"get": {"operationId": "searchStops", "summary": "Search stops and stations by name",
        "parameters": [param("q", "query", {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "\\S"},
                             "Text to search for (case- and accent-insensitive; not blank; at most 100 characters, counted as code points).", True),
                       param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "At most this many.")],
        "responses": {"200": ok("Stops", "Matching stops, best first"), **errors(400, 429)}}},
    "/api/v1/stops/nearby": {"get": {"operationId": "nearbyStops", "summary": "Stops near a point",
        "parameters": [param("lat", "query", {"type": "number", "minimum": -90, "maximum": 90}, "Latitude in degrees.", True),
                       param("lon", "query", {"type": "number", "minimum": -180, "maximum": 180}, "Longitude in degrees.", True),
                       param("radius", "query", {"type": "number", "minimum": 1, "maximum": 5000}, "Metres (default 800)."),
                       param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "At most this many.")],
        "responses": {"200": ok("Stops", "Stops by distance, with distanceMetres"), **errors(400, 429)}}},
    "/api/v1/stops/{stopId}": {"get": {"operationId": "getStop", "summary": "One stop or station",
        "parameters": [param("stopId", "path", S, "A stop or station ID.")],
        "responses": {"200": ok("Stop", "The stop"), **errors(404, 429, 503)}}},
    "/api/v1/stops/{stopId}/departures": {"get": {"operationId": "departures", "summary": "Departure board, live when realtime data is configured",
        "parameters": board_params + [param("to", "query", S, "Only services that later call at this stop ID.")],
        "responses": {"200": ok("Board", "The board"), **errors(400, 404, 429, 503)}}},
    "/api/v1/stops/{stopId}/arrivals": {"get": {"operationId": "arrivals", "summary": "Arrivals board",
        "parameters": board_params + [param("from", "query", S, "Only services that earlier called at this stop ID.")],
        "responses": {"200": ok("Board", "The board"), **errors(400, 404, 429, 503)}}},
    "/api/v1/services/{tripId}": {"get": {"operationId": "service", "summary": "Every calling point of one run of a trip",
        "parameters": [param("tripId", "path", S, "A trip ID (on every board row)."),
                       param("date", "query", DATE, "Service date YYYY-MM-DD (default today, else the next day it runs); an impossible date is refused."), LANG],
        "responses": {"200": ok("Service", "The service"), **errors(400, 404, 429, 503)}}},
    "/api/v1/journeys": {"get": {"operationId": "planJourney", "summary": "Journeys from one stop or station to another, with changes, live when realtime data is configured",
        "description": "A server plans a few journeys at once (one per core) and lets a few more wait; beyond that it answers 503 with code `busy` and `Retry-After`, at once, rather than queueing without bound.",
        "parameters": [param("from", "query", {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"}, "Origin: a stop or station ID (a station means any of its platforms).", True),
                       param("to", "query", {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"}, "Destination: a stop or station ID.", True),
                       param("date", "query", DATE, "Date YYYY-MM-DD in the origin's time zone (default today); an impossible date is refused."),
                       param("time", "query", TIME, "Local time HH:MM[:SS] at the origin (default now)."),
                       param("at", "query", AT, "An ISO 8601 instant with its offset, instead of date and time."),
                       param("arriveBy", "query", {"type": "boolean"}, "Arrive by the time rather than leave at it (without a time: by now)."),
                       param("window", "query", {"type": "integer", "minimum": 0, "maximum": 1440}, "Every option leaving within this many minutes (default 0: the options of the first departure)."),
                       param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "At most this many journeys (default 5)."),
                       param("maxWalk", "query", {"type": "integer", "minimum": 0, "maximum": 2000}, "The longest walk between stops in metres (default 500; 0: only the feed's transfers)."),
                       param("transferSlack", "query", {"type": "integer", "minimum": 0, "maximum": 3600}, "The least time for a change in seconds (default 60)."),
                       param("maxTransfers", "query", {"type": "integer", "minimum": 0, "maximum": 8}, "At most this many changes (default 5)."),
                       param("wheelchair", "query", {"type": "boolean"}, "Only trips and stops the feed says are wheelchair accessible."),
                       param("lessCrowded", "query", {"type": "boolean"}, "Prefer less crowded: options in order of arrival, and of those arriving at the same time the less crowded first (by the live feed's occupancy)."),
                       param("reliable", "query", {"type": "boolean"}, "Prefer reliable: journeys whose changes hold four days in five by the delay history first.")],
        "responses": {"200": ok("Journeys", "Journeys, earliest departure first"), **errors(400, 404, 429, 503)}}},
    "/api/v1/commutes": {"post": {"operationId": "startCommute",
        "summary": "Start commuting mode on one journey option: alerts near a station, when the vehicle arrives, at the change and before the destination",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["from", "to"], "additionalProperties": False,
            "properties": {"from": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"},
                           "to": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"},
                           "date": DATE, "time": TIME, "at": AT, "arriveBy": B,
                           "window": {"type": "integer", "minimum": 0, "maximum": 1440}, "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                           "maxWalk": {"type": "integer", "minimum": 0, "maximum": 2000}, "transferSlack": {"type": "integer", "minimum": 0, "maximum": 3600},
                           "maxTransfers": {"type": "integer", "minimum": 0, "maximum": 8}, "wheelchair": B, "lessCrowded": B, "reliable": B,
                           "option": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Which of planJourney's answers (default 1)."},
                           "nearStation": {"type": "boolean", "description": "Also say when near a station before the journey starts."},
                           "simulate": {"type": "boolean", "description": "A simulated traveller who follows the journey on time."},
                           "speed": {"type": "integer", "minimum": 1, "maximum": 600, "description": "How many times faster than real time a simulation runs."}}}}}},
        "responses": {"201": ok("Commute", "The commute, with its id"), **errors(400, 404, 413, 429, 503)}}},
    "/api/v1/commutes/{commuteId}": {
        "get": {"operationId": "getCommute", "summary": "A commute in progress and its alerts so far",
                "parameters": [param("commuteId", "path", S, "The id startCommute answered.")],
                "responses": {"200": ok("Commute", "The commute"), **errors(404, 429)}},
        "delete": {"operationId": "endCommute", "summary": "End a commute and forget it",
                   "parameters": [param("commuteId", "path", S, "The id startCommute answered.")],
                   "responses": {"204": {"description": "Ended"}, **errors(404, 429)}}},
    "/api/v1/commutes/{commuteId}/sightings": {"post": {"operationId": "reportSighting",
        "summary": "The traveller's position (with its accuracy) or a Bluetooth beacon sighting; also over /live?commute=ID",
        "parameters": [param("commuteId", "path", S, "The id startCommute answered.")],
        "requestBody": {"required": True, "content": {"application/json": {"schema": ref("Sighting")}}},
        "responses": {"200": ok("CommuteAlerts", "The alerts it caused"), **errors(400, 404, 413, 429)}}},
    "/api/v1/commutes/{commuteId}/push": {
        "put": {"operationId": "setCommutePush", "summary": "Send this commute's alerts by Web Push to a subscription (PushSubscription.toJSON())",
                "parameters": [param("commuteId", "path", S, "The id startCommute answered.")],
                "requestBody": {"required": True, "content": {"application/json": {"schema": ref("PushSubscription")}}},
                "responses": {"204": {"description": "Kept"}, **errors(400, 404, 413, 422, 429, 503)}},
        "delete": {"operationId": "removeCommutePush", "summary": "Stop sending this commute's alerts by Web Push",
                   "parameters": [param("commuteId", "path", S, "The id startCommute answered.")],
                   "responses": {"204": {"description": "Removed"}, **errors(404, 429)}}},
    "/api/v1/push/key": {"get": {"operationId": "pushKey", "summary": "The server's VAPID public key, for pushManager.subscribe",
        "responses": {"200": ok("PushKey", "The key"), **errors(429, 503)}}},
    "/api/v1/alerts": {"get": {"operationId": "alerts", "summary": "Station alerts (stop), service alerts (route), or all, active now",
        "parameters": [param("stop", "query", S, "A stop or station ID."), param("route", "query", S, "A route ID."), LANG],
        "responses": {"200": ok("Alerts", "Alerts, most severe first"), **errors(400, 404, 429, 503)}}},
    "/api/v1/stops/{stopId}/history": {"get": {"operationId": "stopHistory",
        "summary": "How late each route at a stop (a station: its platforms too) usually is, by kind of day and hour, from the delay history",
        "parameters": [param("stopId", "path", S, "A stop or station ID (or name)."),
                       param("days", "query", {"type": "integer", "minimum": 1, "maximum": 400}, "How many days back to read, from the last day of history (default 56).")],
        "responses": {"200": ok("History", "By route, kind of day and hour"), **errors(400, 404, 429, 503)}}},
    "/api/v1/routes/{routeId}/history": {"get": {"operationId": "routeHistory",
        "summary": "How late a route usually is at all its stops together, by kind of day and hour, from the delay history",
        "parameters": [param("routeId", "path", S, "A route ID (or short name)."),
                       param("days", "query", {"type": "integer", "minimum": 1, "maximum": 400}, "How many days back to read, from the last day of history (default 56).")],
        "responses": {"200": ok("History", "By kind of day and hour"), **errors(400, 404, 429, 503)}}},
    "/api/v1/sources": {"get": {"operationId": "sources", "summary": "The configured sources and how each upstream is doing (never a URL or key)",
        "responses": {"200": ok("Sources", "Sources by name"), **errors(429)}}},
    "/api/v1/sources/{source}/routes": {"get": {"operationId": "sourceRoutes", "summary": "Browse, step 1: a source's routes",
        "parameters": [param("source", "path", S, "A source name, e.g. cta.")],
        "responses": {"200": ok("Routes", "The routes"), **errors(400, 404, 429, 503)}}},
    "/api/v1/routes/{routeId}": {"get": {"operationId": "routeDirections", "summary": "Browse, step 2: a route's directions",
        "parameters": [param("routeId", "path", S, "A route ID, e.g. cta:22.")],
        "responses": {"200": ok("RouteDetail", "The directions"), **errors(400, 404, 429, 503)}}},
    "/api/v1/routes/{routeId}/directions/{direction}/stops": {"get": {"operationId": "routeStops",
        "summary": "Browse, step 3: the stops one direction of a route serves, in order",
        "parameters": [param("routeId", "path", S, "A route ID, e.g. cta:22."), param("direction", "path", S, "A direction's id.")],
        "responses": {"200": ok("RouteDetail", "The stops"), **errors(400, 404, 429, 503)}}},
    "/api/v1/routes/{routeId}/map": {"get": {"operationId": "routeMap",
        "summary": "A route's lines for a map: each direction's way (the feed's shape) and its stops",
        "parameters": [param("routeId", "path", S, "A route ID, e.g. mrt-jakarta:M.")],
        "responses": {"200": ok("RouteMap", "The route's lines"), **errors(400, 404, 429, 503)}}},
    "/api/v1/routes/{routeId}/vehicles": {"get": {"operationId": "routeVehicles",
        "summary": "A route's vehicles on their way now, each with its next stop; also over /live?route=ROUTE_ID",
        "parameters": [param("routeId", "path", S, "A route ID, e.g. mrt-jakarta:M.")],
        "responses": {"200": ok("RouteVehicles", "The vehicles"), **errors(400, 404, 429, 503)}}},
    "/api/v1/vehicles": {"get": {"operationId": "vehicles", "summary": "Vehicles the realtime data places",
        "responses": {"200": ok("Vehicles", "Vehicles with their trips"), **errors(429)}}},
}

# People. Request bodies are exact (an unknown field is refused with 400); an optional field may be null (read as absent).
def body(schema): return {"required": True, "content": {"application/json": {"schema": schema}}}
def nullable(schema):
    t = schema["type"]
    return {**schema, "type": (t if isinstance(t, list) else [t]) + ["null"]}
def req(required, optional):
    return {"type": "object", "required": sorted(required), "additionalProperties": False,
            "properties": {**required, **{k: nullable(v) for k, v in optional.items()}}}
USERNAME = {"type": "string", "pattern": "^[A-Za-z0-9._-]{3,32}$"}
PASSWORD = {"type": "string", "minLength": 10, "maxLength": 1000}
VERSION = {"type": "integer", "minimum": 0, "maximum": 1000000000,
           "description": "The version of the routes the client read (409 with the current state when it is not the latest)."}
NAME = {"type": "string", "maxLength": 80, "description": "Without one (or blank), a name is made from the stops."}
def kind(k): return {"type": "string", "const": k}
BOARD = req({"kind": kind("board"), "stopId": ID200}, {"name": NAME, "to": {**ID200, "description": "Only services calling here later."}, "arrivals": B})
JOURNEY = req({"kind": kind("journey"), "from": ID200, "to": ID200}, {"name": NAME})
SERVICE = req({"kind": kind("service"), "tripId": ID200}, {"name": NAME, "serviceDate": DATE})
OPTION = req({"kind": kind("journeyOption"), "from": ID200, "to": ID200, "departure": AT}, {"name": NAME})
TG_NUMBER = {"type": ["integer", "string"], "minimum": -9007199254740991, "maximum": 9007199254740991}
ROUTE_ID = param("routeId", "path", S, "A saved route's id (the explicit route heading a stack).")
ME = {"security": [{"bearer": []}, {"cookie": []}]}
def routes_ok(desc): return {"200": ok("SavedRoutes", desc), **errors(400, 401, 403, 404, 409, 413, 429)}
paths.update({
    "/api/v1/accounts": {"post": {"operationId": "createAccount", "summary": "Create a local account; answers a bearer token",
        "requestBody": body(req({"username": USERNAME, "password": PASSWORD}, {"displayName": {"type": "string", "maxLength": 80}})),
        "responses": {"201": ok("SignedIn", "The account and a token"), **errors(400, 409, 413, 429)}}},
    "/api/v1/sessions": {"post": {"operationId": "signIn", "summary": "Sign in with a username and password; answers a bearer token (attempts are limited per account and per client)",
        "requestBody": body(req({"username": {"type": "string", "maxLength": 100}, "password": {"type": "string", "maxLength": 1000}}, {})),
        "responses": {"201": ok("SignedIn", "A token"), **errors(400, 401, 413, 429)}}},
    "/api/v1/sessions/telegram": {"post": {"operationId": "telegramSignIn",
        "summary": "Sign in with the Telegram login widget's data (checked with the bot token; at most a day old); 404 when Telegram sign-in is not configured",
        "requestBody": body({**req({"id": TG_NUMBER, "auth_date": TG_NUMBER, "hash": S}, {"first_name": S, "last_name": S, "username": S, "photo_url": S}),
                             "additionalProperties": {"type": ["string", "integer", "null"], "maximum": 9007199254740991, "minimum": -9007199254740991}}),
        "responses": {"201": ok("SignedIn", "A token"), **errors(400, 401, 404, 413, 429)}}},
    "/api/v1/sessions/current": {"delete": {"operationId": "signOut", "summary": "Sign out this session, or every session of the person",
        **ME, "parameters": [param("everywhere", "query", B, "End every session of the person, on every device.")],
        "responses": {"204": {"description": "Signed out"}, **errors(400, 401, 403, 429)}}},
    "/api/v1/me": {
        "get": {"operationId": "getMe", "summary": "Who is signed in", **ME, "responses": {"200": ok("Me", "The person"), **errors(401, 429)}},
        "delete": {"operationId": "deleteMe", "summary": "Delete the account with everything it saved", **ME,
                   "responses": {"204": {"description": "Deleted"}, **errors(401, 403, 429)}}},
    "/api/v1/me/export": {"get": {"operationId": "exportMe", "summary": "Everything Onward keeps about the person, as JSON", **ME,
        "responses": {"200": ok("Export", "The export"), **errors(401, 429)}}},
    "/api/v1/me/glance": {"get": {"operationId": "glance", "summary": "What the top of the current stack shows now", **ME,
        "parameters": [LANG], "responses": {"200": ok("RouteResult", "The result, never blank"), **errors(401, 429)}}},
    "/api/v1/me/offline": {
        "get": {"operationId": "offlinePack", "summary": "What the person's phone keeps for no signal: My routes and each saved board whose source has a timetable, with where to make each page's copy", **ME,
                "responses": {"200": ok("OfflinePack", "The pages and files to keep"), **errors(401, 429)}}},
    "/api/v1/me/routes": {
        "get": {"operationId": "listSavedRoutes", "summary": "The person's routes and stacks, with their version", **ME,
                "responses": {"200": ok("SavedRoutes", "The routes"), **errors(401, 429)}},
        "post": {"operationId": "createSavedRoute", "summary": "Save a board or a journey as a new stack, made current", **ME,
                 "requestBody": body(req({"version": VERSION, "route": {"oneOf": [BOARD, JOURNEY]}}, {})),
                 "responses": {"201": ok("SavedRoutes", "The routes after the change"), **errors(400, 401, 403, 404, 409, 413, 429)}}},
    "/api/v1/me/routes/{routeId}": {
        "patch": {"operationId": "updateSavedRoute", "summary": "Rename a route and/or move it to a position among the stacks", **ME,
                  "parameters": [ROUTE_ID],
                  # name and position are not nullable here: one of them must say what to change.
                  "requestBody": body({"type": "object", "required": ["version"], "additionalProperties": False,
                                       "properties": {"version": VERSION, "name": NAME, "position": {"type": "integer", "minimum": 0, "maximum": 49}},
                                       "anyOf": [{"required": ["name"]}, {"required": ["position"]}]}),
                  "responses": routes_ok("The routes after the change")},
        "delete": {"operationId": "deleteSavedRoute", "summary": "Delete a route with its stack", **ME, "parameters": [ROUTE_ID],
                   "requestBody": body(req({"version": VERSION}, {})), "responses": routes_ok("The routes after the change")}},
    "/api/v1/me/routes/{routeId}/stack": {"post": {"operationId": "pushStack",
        "summary": "Push a service's progress or a journey option onto a route's stack (the stack becomes current)", **ME,
        "parameters": [ROUTE_ID], "requestBody": body(req({"version": VERSION, "route": {"oneOf": [SERVICE, OPTION]}}, {})),
        "responses": routes_ok("The routes after the change")}},
    "/api/v1/me/routes/{routeId}/stack/pop": {"post": {"operationId": "popStack", "summary": "Go back: pop the top of a route's stack", **ME,
        "parameters": [ROUTE_ID], "requestBody": body(req({"version": VERSION}, {})), "responses": routes_ok("The routes after the change")}},
    "/api/v1/me/current": {"put": {"operationId": "setCurrentRoute", "summary": "Make a route's stack the current one", **ME,
        "requestBody": body(req({"version": VERSION, "routeId": S}, {})), "responses": routes_ok("The routes after the change")}},
})

schemas["SkiRoute"] = obj({"level": S, "freeride": B, "lengthMetres": I, "durationSeconds": I, "legs": arr(ref("SkiLeg"))}, {})
schemas["SkiLeg"] = obj({"kind": {"type": "string", "enum": ["run", "lift", "walk"]}, "lengthMetres": I, "durationSeconds": I,
                         "points": arr({"type": "array", "items": N, "minItems": 2, "maxItems": 3, "description": "[latitude, longitude, elevation]"})},
                        {"name": S, "difficulty": {"type": "string", "enum": ["novice", "easy", "intermediate", "advanced", "expert", "freeride"]},
                         "colour": S, "liftKind": S, "dropMetres": I})
LAT = "-?(90(\\.0+)?|[1-8]?[0-9](\\.[0-9]+)?)"
LON = "-?(180(\\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\\.[0-9]+)?)"
LATLON = {"type": "string", "pattern": f"^ *{LAT} *, *{LON} *$", "maxLength": 60, "description": "LAT,LON in degrees"}
paths["/api/v1/ski/route"] = {"get": {"operationId": "skiRoute",
    "summary": "The fastest way across the ski area for a skier's level: never a run harder than the level (freeride only when asked), lifts up (down only where two-way)",
    "parameters": [param("from", "query", LATLON, "Where you are: LAT,LON.", True), param("to", "query", LATLON, "Where to: LAT,LON.", True),
                   param("level", "query", {"type": "string", "enum": ["novice", "easy", "intermediate", "advanced", "expert"]}, "The skier's level.", True),
                   param("freeride", "query", B, "Freeride runs too.")],
    "responses": {"200": ok("SkiRoute", "The route: runs, lifts and walks in order"), **errors(400, 404, 429)}}}

# Group trips.
schemas["Trip"] = obj({"id": S, "name": S, "endsAt": S, "role": {"type": "string", "enum": ["host", "traveller"]}},
                      {"inviteCode": {**S, "description": "Hosts only: what travellers join with."}})
schemas["TripMembers"] = obj({"members": arr(obj({"id": S, "displayName": S, "role": {"type": "string", "enum": ["host", "traveller"]}}, {}))}, {})
schemas["TripPositions"] = obj({"positions": arr(obj({"person": S, "latitude": N, "longitude": N, "accuracyMetres": N, "at": S, "sharingUntil": S}, {}))}, {})
TRIP_ID = param("tripId", "path", S, "A trip's id (answers 404 to anyone who is not on the trip, as for a trip that does not exist).")
TRIP_ERRORS = errors(400, 401, 403, 404, 413, 429)
schemas["TripEvent"] = obj({"id": S, "tripId": S, "creator": S, "title": S, "at": S, "latitude": N, "longitude": N, "details": S,
                            "invitees": arr(S), "answers": {"type": "object", "additionalProperties": {"type": "string", "enum": ["going", "maybe", "notGoing"]}}}, {})
schemas["TripEvents"] = obj({"events": arr(ref("TripEvent"))}, {})
EVENT_ID = param("eventId", "path", S, "An event's id (404 to anyone who may not see it, as for one that does not exist).")
paths.update({
    "/api/v1/trips/{tripId}/events": {
        "post": {"operationId": "createEvent", "summary": "Send an event to people nearby its place, to friends only, or to chosen people (members of the trip only)",
                 **ME, "parameters": [TRIP_ID],
                 "requestBody": body(req({"title": {"type": "string", "minLength": 1, "maxLength": 120, "pattern": "\\S"}, "at": AT,
                                          "latitude": {"type": "number", "minimum": -90, "maximum": 90}, "longitude": {"type": "number", "minimum": -180, "maximum": 180},
                                          "audience": {"type": "string", "enum": ["nearby", "friends", "chosen"]}},
                                         {"details": {"type": "string", "maxLength": 2000}, "radius": {"type": "number", "minimum": 1, "maximum": 100000},
                                          "people": {"type": "array", "items": S, "maxItems": 100}})),
                 "responses": {"201": ok("TripEvent", "The event with its invitees"), **TRIP_ERRORS}},
        "get": {"operationId": "listEvents", "summary": "The trip's events the caller made or was invited to, soonest first, with the answers", **ME,
                "parameters": [TRIP_ID], "responses": {"200": ok("TripEvents", "The events"), **errors(401, 404, 429)}}},
    "/api/v1/trips/{tripId}/events/{eventId}/rsvp": {"put": {"operationId": "rsvpEvent", "summary": "Answer an event one was invited to",
        **ME, "parameters": [TRIP_ID, EVENT_ID], "requestBody": body(req({"answer": {"type": "string", "enum": ["going", "maybe", "notGoing"]}}, {})),
        "responses": {"200": ok("TripEvent", "The event with the answers"), **TRIP_ERRORS}}},
})
paths.update({
    "/api/v1/trips": {"post": {"operationId": "createTrip", "summary": "Make a trip; the caller is its host and gets its invitation code", **ME,
        "requestBody": body(req({"name": {"type": "string", "minLength": 1, "maxLength": 80, "pattern": "\\S"}, "endsAt": AT}, {})),
        "responses": {"201": ok("Trip", "The trip"), **errors(400, 401, 403, 409, 413, 429, 503)}}},
    "/api/v1/trips/join": {"post": {"operationId": "joinTrip", "summary": "Join a trip with its invitation code (as a traveller)", **ME,
        "requestBody": body(req({"code": {"type": "string", "minLength": 1, "maxLength": 40}}, {})),
        "responses": {"200": ok("Trip", "The trip"), **TRIP_ERRORS}}},
    "/api/v1/trips/{tripId}/members": {"get": {"operationId": "listTripMembers", "summary": "Who is on the trip", **ME, "parameters": [TRIP_ID],
        "responses": {"200": ok("TripMembers", "The members"), **errors(401, 404, 429)}}},
    "/api/v1/trips/{tripId}/position": {"put": {"operationId": "updateMyPosition",
        "summary": "Share one's position on the trip until a time (at the latest the trip's end); the app offers 15 min, 1 h, 8 h and until the trip ends",
        **ME, "parameters": [TRIP_ID],
        "requestBody": body(req({"latitude": {"type": "number", "minimum": -90, "maximum": 90}, "longitude": {"type": "number", "minimum": -180, "maximum": 180},
                                 "accuracy": {"type": "number", "minimum": 0, "description": "Metres."}, "sharingUntil": AT}, {})),
        "responses": {"204": {"description": "Kept"}, **TRIP_ERRORS}}},
    "/api/v1/trips/{tripId}/position/pause": {"post": {"operationId": "pauseSharing", "summary": "Pause (or resume) sharing: a paused position is never shown",
        **ME, "parameters": [TRIP_ID], "requestBody": body(req({"paused": B}, {})),
        "responses": {"204": {"description": "Done"}, **TRIP_ERRORS}}},
    "/api/v1/trips/{tripId}/positions": {"get": {"operationId": "listVisiblePositions",
        "summary": "The positions the caller may see now: a host every sharing member, a traveller those within radius of their own position",
        **ME, "parameters": [TRIP_ID, param("radius", "query", {"type": "number", "minimum": 1, "maximum": 100000}, "Metres (default 2000).")],
        "responses": {"200": ok("TripPositions", "The positions"), **errors(400, 401, 404, 429)}}},
})

# Chat, friends, profiles, broadcasts, leaving, and the Telegram webhook.
schemas["Trips"] = obj({"trips": arr(ref("Trip"))}, {})
schemas["ChatMessage"] = obj({"sequence": I, "author": S, "authorName": S, "text": {**S, "description": "Plain text: escape it when showing it."}, "at": S}, {})
schemas["ChatPage"] = obj({"conversation": S, "messages": arr(ref("ChatMessage")), "more": B, "unread": I}, {})
schemas["Conversations"] = obj({"conversations": arr(obj({"conversation": S, "title": S, "unread": I}, {}))}, {})
schemas["Unread"] = obj({"unread": I}, {})
PERSON = obj({"id": S, "displayName": S}, {})
schemas["Friends"] = obj({"friends": arr(PERSON), "incoming": arr(PERSON), "outgoing": arr(PERSON)}, {})
schemas["Friendship"] = obj({"status": {"type": "string", "enum": ["requested", "friends"]}}, {})
schemas["Profile"] = obj({"id": S, "displayName": S, "bio": S, "trips": arr(S)}, {"photo": {**S, "description": "Where the photo is (friends only)."}})
schemas["Broadcast"] = obj({"id": S, "tripId": S, "host": S, "text": S, "at": S}, {})
schemas["BroadcastSent"] = obj({"broadcast": ref("Broadcast"), "app": I, "push": I, "telegram": I}, {})
schemas["Broadcasts"] = obj({"broadcasts": arr(ref("Broadcast"))}, {})
CONVERSATION = param("conversation", "path", {"type": "string", "pattern": "^(trip|person):[^/]+$"},
                     "trip:<tripId> for a trip's chat, person:<personId> for a friend's (404 when it is not open to the caller, as for none).")
PERSON_ID = param("personId", "path", S, "A person's id (404 to anyone who is not their friend, as for nobody).")
TEXT = {"type": "string", "minLength": 1, "pattern": "\\S"}
paths["/api/v1/trips"]["get"] = {"operationId": "listMyTrips", "summary": "The trips the caller is on", **ME,
    "responses": {"200": ok("Trips", "The trips"), **errors(401, 429)}}
paths.update({
    "/api/v1/trips/{tripId}/members/me": {"delete": {"operationId": "leaveTrip",
        "summary": "Leave the trip: nothing of it is the caller's to see any more, and their position is shown to nobody (the last host cannot leave)",
        **ME, "parameters": [TRIP_ID], "responses": {"204": {"description": "Left"}, **errors(401, 403, 404, 409, 429)}}},
    "/api/v1/trips/{tripId}/broadcasts": {
        "post": {"operationId": "sendBroadcast", "summary": "A host's notification to everyone on the trip: in the app, by Web Push and by Telegram",
                 **ME, "parameters": [TRIP_ID], "requestBody": body(req({"text": {**TEXT, "maxLength": 500}}, {})),
                 "responses": {"201": ok("BroadcastSent", "Sent, with how many members each way reaches"), **TRIP_ERRORS}},
        "get": {"operationId": "listBroadcasts", "summary": "The trip's broadcasts, newest first", **ME, "parameters": [TRIP_ID],
                "responses": {"200": ok("Broadcasts", "The broadcasts"), **errors(401, 404, 429)}}},
    "/api/v1/chat": {"get": {"operationId": "listConversations", "summary": "Every conversation open to the caller (their trips', their friends'), with unread counts",
        **ME, "responses": {"200": ok("Conversations", "The conversations"), **errors(401, 429)}}},
    "/api/v1/chat/{conversation}": {
        "get": {"operationId": "listChat", "summary": "A page of messages, oldest first, before a sequence number (the newest when absent)", **ME,
                "parameters": [CONVERSATION, param("before", "query", {"type": "integer", "minimum": 1, "maximum": 2147483647}, "Messages before this sequence number."),
                               param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "At most this many (default 50).")],
                "responses": {"200": ok("ChatPage", "The page"), **errors(400, 401, 404, 429)}},
        "post": {"operationId": "postChat", "summary": "Write a message (plain text; the live channel delivers it)", **ME, "parameters": [CONVERSATION],
                 "requestBody": body(req({"text": {**TEXT, "maxLength": 2000}}, {})),
                 "responses": {"201": ok("ChatMessage", "The message as kept"), **errors(400, 401, 403, 404, 413, 429)}}},
    "/api/v1/chat/{conversation}/read": {"put": {"operationId": "markChatRead", "summary": "Mark the conversation read up to a sequence number", **ME,
        "parameters": [CONVERSATION], "requestBody": body(req({"upTo": {"type": "integer", "minimum": 0, "maximum": 2147483647}}, {})),
        "responses": {"200": ok("Unread", "What is still unread"), **errors(400, 401, 403, 404, 413, 429)}}},
    "/api/v1/friends": {"get": {"operationId": "listFriends", "summary": "Friends (by a shared trip or an accepted request) and requests waiting", **ME,
        "responses": {"200": ok("Friends", "Friends and requests"), **errors(401, 429)}}},
    "/api/v1/friends/requests": {"post": {"operationId": "requestFriend", "summary": "Ask someone to be a friend (asking one who asked you makes you friends)", **ME,
        "requestBody": body(req({"person": {"type": "string", "minLength": 1, "maxLength": 200}}, {})),
        "responses": {"200": ok("Friendship", "Where it stands"), **errors(400, 401, 403, 404, 413, 429)}}},
    "/api/v1/friends/requests/{personId}/accept": {"post": {"operationId": "acceptFriend", "summary": "Accept the request this person made", **ME,
        "parameters": [param("personId", "path", S, "Who asked.")],
        "responses": {"200": ok("Friendship", "Friends"), **errors(401, 403, 404, 429)}}},
    "/api/v1/people/{personId}": {"get": {"operationId": "getProfile", "summary": "A friend's profile: name, bio, photo, the trips shared with the caller", **ME,
        "parameters": [PERSON_ID], "responses": {"200": ok("Profile", "The profile"), **errors(401, 404, 429)}}},
    "/api/v1/people/{personId}/photo": {"get": {"operationId": "getPhoto", "summary": "A friend's photo", **ME, "parameters": [PERSON_ID],
        "responses": {"200": {"description": "The image", "content": {"image/jpeg": {}, "image/png": {}}}, **errors(401, 404, 429)}}},
    "/api/v1/me/profile": {"put": {"operationId": "updateProfile", "summary": "Change one's display name, bio or photo (each field given is replaced; photo null removes it)",
        **ME, "requestBody": body(req({}, {"displayName": {"type": "string", "minLength": 1, "maxLength": 80, "pattern": "\\S"},
                                           "bio": {"type": "string", "maxLength": 280},
                                           "photo": {"type": "string", "contentEncoding": "base64", "maxLength": 273068,
                                                     "pattern": "^(/9j/|iVBORw0KGgo[A-Za-z0-9+/])([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
                                                     "description": "A JPEG or PNG of at most 200 KB, base64 (it starts as those formats do)."}})),
        "responses": {"200": ok("Profile", "The profile"), **errors(400, 401, 403, 413, 429)}}},
    "/api/v1/me/push": {"put": {"operationId": "setMyPush", "summary": "Where broadcasts and invitations reach the caller by Web Push (null stops them)", **ME,
        "requestBody": body(req({"subscription": {"oneOf": [ref("PushSubscription"), {"type": "null"}]}}, {})),
        "responses": {"204": {"description": "Kept"}, **errors(400, 401, 403, 413, 422, 429, 503)}}},
    "/api/v1/me/watches": {
        "get": {"operationId": "listWatches", "summary": "The journeys the caller watches, with what each has said", **ME,
                "responses": {"200": ok("Watches", "The watches"), **errors(401, 429)}},
        "post": {"operationId": "createWatch",
                 "summary": "Watch a journey option: from leadMinutes before it leaves, one message (Web Push, Telegram, /live?me) per change: "
                            "a delay of thresholdMinutes or more, a cancellation, a new platform, a change that can no longer be made, with the best alternative",
                 **ME, "requestBody": body(req({"from": ID200, "to": ID200,
                                                "departure": {**AT_SCHEMA, "description": "The option's departure: its time of day is watched, and without days its date"}},
                                               {"days": {**arr({"type": "string", "enum": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}),
                                                         "description": "Days of the week it is watched on; absent or empty: only departure's date"},
                                                "leadMinutes": {"type": "integer", "minimum": 5, "maximum": 180, "description": "Default 30"},
                                                "thresholdMinutes": {"type": "integer", "minimum": 1, "maximum": 60, "description": "Default 3"},
                                                "name": {"type": "string", "maxLength": 80}})),
                 "responses": {"201": ok("Watch", "Watched"), **errors(400, 401, 403, 404, 409, 413, 422, 429)}}},
    "/api/v1/me/watches/{watchId}": {"delete": {"operationId": "deleteWatch", "summary": "Stop watching", **ME,
        "parameters": [param("watchId", "path", S, "A watch's id.")],
        "responses": {"204": {"description": "No longer watched"}, **errors(401, 403, 404, 429)}}},
    "/api/v1/telegram/webhook": {"post": {"operationId": "telegramWebhook",
        "summary": "Updates from Telegram (setWebhook with secret_token): an invitation's RSVP buttons answer the event; anything else is ignored",
        "parameters": [param("X-Telegram-Bot-Api-Secret-Token", "header", S, "The secret given to setWebhook (telegram_webhook_secret).")],
        "requestBody": body({"type": "object", "description": "A Telegram Update."}),
        "responses": {"200": {"description": "Received"}, **errors(403, 404, 413, 429)}}},
})

paths["/api/v1/feeds/refresh"] = {"post": {"operationId": "refreshFeeds",
    "summary": "An operator asks for a check of the static feeds for a new version now (onward feeds refresh); 401 without the server's operator_token",
    "security": [{"operator": []}],
    "parameters": [param("feed", "query", S, "One static feed's name (default: every feed).")],
    "responses": {"200": ok("FeedRefresh", "The check's outcome, and every timetable as it stands"), **errors(401, 404, 429)}}}

# A stop, trip or route that an earlier version of the timetable had and the one in service dropped answers 410
# no-longer-scheduled, naming that version: every operation that names one and can answer 404 can answer it.
for operations in paths.values():
    for operation in operations.values():
        names = {p.get("name") for p in operation.get("parameters", [])}
        if "404" in operation.get("responses", {}) and names & {"stopId", "tripId", "routeId", "stop", "route", "from", "to", "via"}:
            operation["responses"]["410"] = PROBLEM

doc = {
    "openapi": "3.1.0",
    "info": {"title": "Onward API", "version": "1.0.0",
             "description": "Departure boards, services, stops and alerts from every configured source (GTFS with GTFS-Realtime, National Rail Darwin, the CTA Bus Tracker), in one shape. Errors are application/problem+json (RFC 9457) with a stable code. Live updates: a WebSocket at /live?board=STOP_ID, /live?service=TRIP_ID or /live?route=ROUTE_ID (the route's vehicles); a commute's alerts at /live?commute=ID, which also takes the traveller's positions and beacon sightings; a signed-in person's routes at /live?me (view=glance adds the top of the current stack), sent at once and after every change on any device. A trip member's live map, events, chat and broadcasts at /live?trip=ID (radius=METRES), under the same privacy rules as the API. Every ID is canonical, SOURCE:LOCAL (mrt-jakarta:SLBB, national-rail:ECR), the source named by configuration; an unprefixed ID is accepted when exactly one source has it."},
    "paths": paths,
    "components": {"schemas": schemas, "securitySchemes": {
        "bearer": {"type": "http", "scheme": "bearer", "description": "A token from createAccount, signIn or telegramSignIn."},
        "operator": {"type": "http", "scheme": "bearer", "description": "The server's operator_token (configuration), for operators' routes."},
        "cookie": {"type": "apiKey", "in": "cookie", "name": "onward_session",
                   "description": "The web app's session; a change also needs the page's X-CSRF-Token header."}}},
}

text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
out = pathlib.Path(__file__).resolve().parent.parent / "Sources/Server/Resources/openapi.json"
if "--check" in sys.argv[1:]:
    if not out.exists() or out.read_text() != text:
        print(f"{out} is not what Scripts/openapi.py makes: run python3 Scripts/openapi.py and commit it", file=sys.stderr)
        sys.exit(1)
    print(f"{out} is current")
    sys.exit(0)
out.parent.mkdir(exist_ok=True)
out.write_text(text)
print(f"wrote {out} ({len(text)} bytes)")
