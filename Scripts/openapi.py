#!/usr/bin/env python3
"""Writes Sources/Server/OpenAPIDocument.swift from the description below.

The API's OpenAPI 3.1 document lives here as data, so it is easy to read and
edit; ServerTests checks real responses against it. Run after editing:
    python3 Scripts/openapi.py
"""
import json
import pathlib

S = {"type": "string"}
I = {"type": "integer"}
N = {"type": "number"}
B = {"type": "boolean"}
def arr(x): return {"type": "array", "items": x}
def ref(n): return {"$ref": f"#/components/schemas/{n}"}
def obj(required, optional):
    props = dict(required); props.update(optional)
    return {"type": "object", "required": sorted(required), "properties": props, "additionalProperties": False}

STATUS = {"type": "string", "enum": ["scheduled", "noLiveData", "onTime", "late", "early", "cancelled", "skipped", "departed"]}
ISO = {"type": "string", "description": "ISO 8601 local time with UTC offset, e.g. 2026-11-23T08:05:00+07:00"}

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
                       "delaySeconds": I, "platformChanged": B, "addedTrip": B, "alerts": arr(S)}),
    "Board": obj({"stop": ref("Stop")}, {"via": ref("Stop"), "departures": arr(ref("BoardEntry")), "arrivals": arr(ref("BoardEntry")),
                                        "live": ref("Live"), "alerts": ref("BoardAlerts")}),
    "Call": obj({"stopId": S, "stopName": S, "stopSequence": I, "scheduledArrival": ISO, "scheduledDeparture": ISO,
                 "pickup": S, "dropOff": S, "timepoint": B, "status": STATUS},
                {"platform": S, "stopHeadsign": S, "expectedArrival": ISO, "expectedDeparture": ISO, "delaySeconds": I,
                 "platformChanged": B}),
    "Vehicle": obj({}, {"id": S, "label": S, "latitude": N, "longitude": N, "bearing": N, "speedMetresPerSecond": N,
                        "stopStatus": {"type": "string", "enum": ["incomingAt", "stoppedAt", "inTransitTo"]}, "stopId": S,
                        "reportedAt": ISO}),
    "Service": obj({"tripId": S, "routeId": S, "routeShortName": S, "routeLongName": S, "headsign": S, "serviceDate": S,
                    "calls": arr(ref("Call"))},
                   {"headwaySeconds": I, "cancelled": B, "vehicle": ref("Vehicle"), "live": ref("Live"), "alerts": arr(ref("Alert"))}),
    "Alerts": obj({"at": ISO, "alerts": arr(ref("Alert")), "inactiveCount": I, "totalInFeeds": I}, {"stop": ref("Stop"), "routeId": S}),
    "VehicleItem": obj({"tripId": S, "routeId": S, "routeShortName": S, "serviceDate": S, "vehicle": ref("Vehicle")}, {}),
    "Vehicles": obj({"vehicles": arr(ref("VehicleItem"))}, {"live": ref("Live")}),
    "Problem": obj({"type": S, "title": S, "status": I, "detail": S, "code": S},
                   {"instance": S, "parameter": S, "requestId": S}),
}

def param(name, where, schema, desc, required=False):
    return {"name": name, "in": where, "required": required or where == "path", "schema": schema, "description": desc}

LANG = param("lang", "query", S, "Preferred language for alert texts (else Accept-Language).")
def ok(schema_name, desc):
    return {"description": desc, "content": {"application/json": {"schema": ref(schema_name)}}}
PROBLEM = {"description": "A problem (RFC 9457)", "content": {"application/problem+json": {"schema": ref("Problem")}}}
def errors(*codes): return {str(c): PROBLEM for c in codes}

board_params = [
    param("stopId", "path", S, "A stop or station ID; a station gathers its platforms."),
    param("date", "query", S, "Service date YYYY-MM-DD in the stop's time zone (default today)."),
    param("time", "query", S, "Local time HH:MM[:SS] at the stop (default now)."),
    param("at", "query", S, "An ISO 8601 instant, instead of date and time."),
    param("window", "query", {"type": "integer", "minimum": 1, "maximum": 1440}, "Minutes to show (instead of limit)."),
    param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "Rows to show (default 15)."),
    LANG,
]

paths = {
    "/api/v1/stops": {"get": {"operationId": "searchStops", "summary": "Search stops and stations by name",
        "parameters": [param("q", "query", {"type": "string", "maxLength": 100}, "Text to search for (case- and accent-insensitive).", True),
                       param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "At most this many.")],
        "responses": {"200": ok("Stops", "Matching stops, best first"), **errors(400, 429)}}},
    "/api/v1/stops/nearby": {"get": {"operationId": "nearbyStops", "summary": "Stops near a point",
        "parameters": [param("lat", "query", N, "Latitude in degrees.", True), param("lon", "query", N, "Longitude in degrees.", True),
                       param("radius", "query", {"type": "number", "maximum": 5000}, "Metres (default 800)."),
                       param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}, "At most this many.")],
        "responses": {"200": ok("Stops", "Stops by distance, with distanceMetres"), **errors(400, 429)}}},
    "/api/v1/stops/{stopId}": {"get": {"operationId": "getStop", "summary": "One stop or station",
        "parameters": [param("stopId", "path", S, "A stop or station ID.")],
        "responses": {"200": ok("Stop", "The stop"), **errors(404, 429)}}},
    "/api/v1/stops/{stopId}/departures": {"get": {"operationId": "departures", "summary": "Departure board, live when realtime data is configured",
        "parameters": board_params + [param("to", "query", S, "Only services that later call at this stop ID.")],
        "responses": {"200": ok("Board", "The board"), **errors(400, 404, 429)}}},
    "/api/v1/stops/{stopId}/arrivals": {"get": {"operationId": "arrivals", "summary": "Arrivals board",
        "parameters": board_params + [param("from", "query", S, "Only services that earlier called at this stop ID.")],
        "responses": {"200": ok("Board", "The board"), **errors(400, 404, 429)}}},
    "/api/v1/services/{tripId}": {"get": {"operationId": "service", "summary": "Every calling point of one run of a trip",
        "parameters": [param("tripId", "path", S, "A trip ID (on every board row)."),
                       param("date", "query", S, "Service date YYYY-MM-DD (default today, else the next day it runs)."), LANG],
        "responses": {"200": ok("Service", "The service"), **errors(400, 404, 429)}}},
    "/api/v1/alerts": {"get": {"operationId": "alerts", "summary": "Station alerts (stop), service alerts (route), or all, active now",
        "parameters": [param("stop", "query", S, "A stop or station ID."), param("route", "query", S, "A route ID."), LANG],
        "responses": {"200": ok("Alerts", "Alerts, most severe first"), **errors(400, 404, 429)}}},
    "/api/v1/vehicles": {"get": {"operationId": "vehicles", "summary": "Vehicles the realtime data places",
        "responses": {"200": ok("Vehicles", "Vehicles with their trips"), **errors(429)}}},
}

doc = {
    "openapi": "3.1.0",
    "info": {"title": "Onward API", "version": "1.0.0",
             "description": "Departure boards, services, stops and alerts, live from GTFS-Realtime. Errors are application/problem+json (RFC 9457) with a stable code. Live updates: a WebSocket at /live?board=STOP_ID or /live?service=TRIP_ID. Every ID is canonical, SOURCE:LOCAL (mrt-jakarta:SLBB, national-rail:ECR), the source named by configuration; an unprefixed ID is accepted when exactly one source has it."},
    "paths": paths,
    "components": {"schemas": schemas},
}

text = json.dumps(doc, indent=1, sort_keys=True)
swift = f'''// Generated by Scripts/openapi.py: edit that file and run it, not this one.

/// The API's OpenAPI 3.1 document, served at /api/v1/openapi.json.
enum OpenAPIDocument {{
    static let json = #"""
{text}
"""#
}}
'''
out = pathlib.Path(__file__).resolve().parent.parent / "Sources/Server/OpenAPIDocument.swift"
out.write_text(swift)
print(f"wrote {out} ({len(text)} bytes of JSON)")
