#!/usr/bin/env python3
"""Stands in for National Rail's Darwin (OpenLDBWS) and the CTA Bus Tracker by
replaying recorded answers from ../shared/data, so Onward's upstream sources can
be tried (and tested in a browser) without a token, a key or a network.

    python3 Scripts/replay-upstreams.py [--port 8099] [--data ../shared/data]

Darwin answers POSTs to /darwin by the SOAP operation named in the body; the bus
tracker answers GETs to /cta/v2/<operation>. A token or key of "invalid" gets the
upstream's own refusal. Prints "listening on PORT" once it is ready.
"""
import argparse
import http.server
import os
import sys

DARWIN = {
    # The operation (as named in the SOAP body) -> a recorded answer.
    "GetDepBoardWithDetailsRequest": "soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml",
    "GetArrBoardWithDetailsRequest": "arrival-board-with-details.xml",
    "GetArrDepBoardWithDetailsRequest": "soap_arrdepboardwithdetails_ECR_2019.xml",
    "GetServiceDetailsRequest": "soap_servicedetails_ECR_2020.xml",
    "GetNextDeparturesWithDetailsRequest": "next-departures-with-details.xml",
    "GetFastestDeparturesWithDetailsRequest": "fastest-departures-with-details.xml",
}
CTA = {
    "getpredictions": "v2xml_getpredictions_rt22_stpid15895.xml",
    "getservicebulletins": "v2xml_getservicebulletins_rt8.xml",
    "getroutes": "v2xml_getroutes.xml",
    "getdirections": "v2xml_getdirections_rt22.xml",
    "getstops": "v2xml_getstops_rt22_northbound.xml",
    "getvehicles": "v2xml_getvehicles_rt22.xml",
    "gettime": "v2xml_gettime.xml",
}
DARWIN_FAULT = b"""<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Unauthorized</faultstring></soap:Fault></soap:Body></soap:Envelope>"""
CTA_BAD_KEY = b"""<?xml version="1.0"?><bustime-response><error><msg>Invalid API access key supplied</msg></error></bustime-response>"""


def make_handler(data):
    class Handler(http.server.BaseHTTPRequestHandler):
        def reply(self, status, body, content_type="text/xml; charset=utf-8"):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def recorded(self, folder, name):
            with open(os.path.join(data, folder, name), "rb") as f:
                self.reply(200, f.read())

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0)).decode("utf-8", "replace")
            if not self.path.startswith("/darwin"):
                return self.reply(404, b"not found", "text/plain")
            if ">invalid<" in body:
                return self.reply(500, DARWIN_FAULT)
            for operation, name in DARWIN.items():
                if operation in body:
                    return self.recorded("darwin-ldbws", name)
            self.reply(500, DARWIN_FAULT.replace(b"Unauthorized", b"Unknown operation"))

        def do_GET(self):
            path, _, query = self.path.partition("?")
            if not path.startswith("/cta/"):
                return self.reply(404, b"not found", "text/plain")
            if "key=invalid" in query.split("&"):
                return self.reply(200, CTA_BAD_KEY)
            name = CTA.get(path.rsplit("/", 1)[-1])
            if name is None:
                return self.reply(404, b"not found", "text/plain")
            self.recorded("cta-bustracker", name)

        def log_message(self, format, *args):
            pass  # quiet: the caller's logs say what was asked

    return Handler


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.data, "darwin-ldbws")):
        sys.exit(f"no recordings at {args.data} (expected darwin-ldbws/ and cta-bustracker/ there)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(args.data))
    print(f"listening on {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
