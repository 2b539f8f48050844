#!/usr/bin/env python3
"""Checks the direction of imports that ../shared/ARCHITECTURE.md draws, and that Package.swift
declares exactly what each target imports.

Reads every `import` line under Sources/ (and Tests/ for the second check) and the package's
description (`swift package dump-package`). Exits 1, naming each file and import at fault, when:
  - a module imports a module it may not (the table ALLOWED below is ARCHITECTURE.md's list);
  - a target imports a module its Package.swift entry does not declare, or declares one it never imports.
Run by Scripts/test.sh before the build; `--self-test` shows that a broken rule fails.
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# What the system gives every module (the standard library's own modules and the platform's C library).
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Synchronization", "Dispatch",
          "Glibc", "Darwin", "Musl", "Testing", "XCTest"}

# Each module: the project's modules and the packages' modules it may import (ARCHITECTURE.md, "Modules").
# A module may import what is listed, and nothing else but SYSTEM.
CORE = {"OnwardCore"}
PROTOCOL = CORE | {"TransitSources"}
ADAPTER = PROTOCOL | {"DataSources"}
# The tracing API (spans: a request, a source fetch, a feed swap, a database call); the exporter (OTel) is App's alone.
TRACING = {"Tracing"}
ALLOWED = {
    "OnwardCore": set(),
    "TransitSources": CORE,
    # swift-crypto's SHA-256: a feed's identity (its bytes' digest, compared across polls, restarts and instances).
    "DataSources": CORE | {"Crypto"},
    "Timetable": CORE,
    "GTFS": CORE | {"Timetable", "ZIPFoundation", "COnwardZlib"},
    "GTFSRealtime": CORE | {"Timetable", "DataSources", "SwiftProtobuf"},
    "GTFSSource": ADAPTER | {"Timetable", "GTFS", "GTFSRealtime"},
    "NationalRail": ADAPTER,
    "CTABusTracker": ADAPTER,
    "Commute": CORE,
    "Trips": CORE,
    "SkiMap": CORE,
    "Storage": CORE | {"Trips", "Commute"},
    "StorageSQLite": CORE | {"Storage", "Trips", "Commute", "GRDB"} | TRACING,
    "StoragePostgres": CORE | {"Storage", "Trips", "Commute", "PostgresNIO", "NIOSSL", "Logging"} | TRACING,
    "API": CORE | {"Trips", "Commute", "SkiMap"},
    "Transit": PROTOCOL | {"API"},
    "WebPush": {"Crypto"},
    # The use cases: no HTTP framework (bcrypt from hummingbird-auth is bcrypt alone; NIO's thread pool runs it).
    "Services": PROTOCOL | {"API", "Transit", "Storage", "Commute", "Trips", "SkiMap", "WebPush", "DataSources",
                            "Crypto", "HummingbirdBcrypt", "NIOPosix", "Logging", "ServiceLifecycle"} | TRACING,
    "WebPages": CORE | {"API"},
    "Server": PROTOCOL | {"API", "Services", "Transit", "WebPages", "Storage", "Commute", "Trips", "SkiMap", "WebPush",
                          "Hummingbird", "HummingbirdCore", "HummingbirdWebSocket", "HTTPTypes", "NIOCore", "NIOHTTP1",
                          "Logging", "ServiceLifecycle", "Prometheus", "Crypto"} | TRACING,
    # The composition root names everything.
    "App": None,
    "onward": CORE | {"App", "Transit", "API", "ArgumentParser"},
    # The measuring tools and test support use whatever they measure.
    "onward-bench": None, "onward-load": None, "onward-sync": None, "OnwardTesting": None,
}

# Rules that hold whatever the table says, so an edit of the table cannot quietly break them.
HTTP_FRAMEWORK = re.compile(r"^Hummingbird(Core|WebSocket|WSClient|Router|TLS|HTTP2|Testing|WSTesting)?$")
HTTP_ALLOWED = {"Server", "App", "onward-load", "onward-sync", "OnwardTesting"}
ADAPTERS = {"GTFSSource", "NationalRail", "CTABusTracker"}
FOUNDATION_ONLY = {"OnwardCore", "TransitSources", "Timetable", "Commute", "Trips", "SkiMap"}
PROJECT = set(ALLOWED) | {"COnwardZlib"}

# Imports that break a rule and are being moved (issue 23, item 5: the CLI on its declared imports).
# Each is reported as a note, not a failure, until it is gone; an entry no longer imported fails, so
# the list only shrinks.
PENDING: set[tuple[str, str]] = set()

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|public\s+|internal\s+|package\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def imports_of(folder: pathlib.Path) -> dict[str, list[str]]:
    """Each imported module, with the files that import it."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.swift")):
        for module in IMPORT.findall(header(path.read_text(encoding="utf-8"))):
            found.setdefault(module, []).append(str(path.relative_to(ROOT)))
    return found


def header(text: str) -> str:
    """A file's lines up to its first declaration: where Swift's imports are (a test's embedded Python
    script, say, has import lines of its own further down)."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("//", "/*", "*", "import ", "@testable", "@preconcurrency", "@_exported", "#if", "#else", "#elseif", "#endif", "public import", "internal import", "package import")):
            break
        lines.append(line)
    return "\n".join(lines)


def direction_problems(module: str, imports: dict[str, list[str]]) -> list[str]:
    problems = []
    allowed = ALLOWED.get(module, set())
    for imported, files in sorted(imports.items()):
        if imported in SYSTEM or imported == module:
            continue
        where = files[0] + (f" (and {len(files) - 1} more)" if len(files) > 1 else "")
        if HTTP_FRAMEWORK.match(imported) and module not in HTTP_ALLOWED:
            problems.append(f"{where}: {module} imports the HTTP framework ({imported}); only Server, App and the load tools may")
        elif module in ADAPTERS and imported in ADAPTERS | {"Storage", "Transit"} and not (module == "GTFSSource" and imported in {"GTFS", "GTFSRealtime"}):
            problems.append(f"{where}: the adapter {module} imports {imported}; adapters never import each other, Storage or Transit")
        elif module in FOUNDATION_ONLY and imported not in PROJECT:
            problems.append(f"{where}: {module} builds with Foundation alone, and imports {imported}")
        elif allowed is not None and imported not in allowed:
            problems.append(f"{where}: {module} may not import {imported} (ARCHITECTURE.md: {module} → {', '.join(sorted(allowed)) or 'Foundation only'})")
    return problems


def declared(package: dict) -> dict[str, tuple[str, set[str]]]:
    """Each target: its folder and the modules it declares as dependencies."""
    targets = {}
    for t in package["targets"]:
        if t["type"] == "system":
            continue
        folder = t.get("path") or (("Tests/" if t["type"] == "test" else "Sources/") + t["name"])
        names = set()
        for d in t.get("dependencies", []):
            if "byName" in d:
                names.add(d["byName"][0])
            elif "target" in d:
                names.add(d["target"][0])
            elif "product" in d:
                names.add(d["product"][0])
        targets[t["name"]] = (folder, names)
    return targets


def declaration_problems(name: str, declares: set[str], imports: dict[str, list[str]]) -> list[str]:
    problems = []
    used = {m for m in imports if m not in SYSTEM and m != name}
    for m in sorted(used - declares):
        problems.append(f"{imports[m][0]}: {name} imports {m}, which its Package.swift entry does not declare")
    for m in sorted(declares - used):
        problems.append(f"Package.swift: {name} declares {m} and no file of it imports {m}")
    return problems


def check(package: dict) -> tuple[list[str], list[str]]:
    """The problems, and the notes of pending ones."""
    problems, notes = [], []
    for name, (folder, declares) in sorted(declared(package).items()):
        imports = imports_of(ROOT / folder)
        if not folder.startswith("Tests/"):
            if name not in ALLOWED:
                problems.append(f"{folder}: the module {name} is not in ARCHITECTURE.md's table (Scripts/check-architecture.py, ALLOWED)")
            else:
                pending = {m: f for m, f in imports.items() if (name, m) in PENDING}
                notes += direction_problems(name, pending)
                problems += direction_problems(name, {m: f for m, f in imports.items() if m not in pending})
                problems += [f"Scripts/check-architecture.py: {name} no longer imports {m}: take it off PENDING"
                             for (n, m) in sorted(PENDING) if n == name and m not in imports]
        problems += declaration_problems(name, declares, imports)
    return problems, notes


def self_test() -> None:
    """A broken rule fails: the check is not one that cannot fail."""
    bad = {"Hummingbird": ["Sources/Services/X.swift"]}
    assert direction_problems("Services", bad), "Services importing Hummingbird must fail"
    assert direction_problems("NationalRail", {"CTABusTracker": ["a.swift"]}), "an adapter importing another must fail"
    assert direction_problems("Timetable", {"GRDB": ["a.swift"]}), "a Foundation-only module importing a package must fail"
    assert direction_problems("onward", {"GTFS": ["a.swift"]}), "the CLI importing GTFS must fail"
    assert not direction_problems("onward", {"Transit": ["a.swift"], "Foundation": ["a.swift"]})
    assert declaration_problems("X", {"A"}, {"B": ["x.swift"]}) == [
        "x.swift: X imports B, which its Package.swift entry does not declare",
        "Package.swift: X declares A and no file of it imports A"]
    print("check-architecture: self-test passed (a broken rule fails)")


def main() -> int:
    if "--self-test" in sys.argv[1:]:
        self_test()
        return 0
    dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True)
    if dump.returncode != 0:
        print(dump.stderr, file=sys.stderr)
        print("check-architecture: could not read Package.swift", file=sys.stderr)
        return 1
    problems, notes = check(json.loads(dump.stdout))
    if notes:
        print(f"check-architecture: {len(notes)} import(s) still to move (PENDING):")
        for n in notes:
            print("  " + n)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-architecture: {len(problems)} problem(s); ARCHITECTURE.md says which way imports go", file=sys.stderr)
        return 1
    print("check-architecture: imports follow ARCHITECTURE.md, and Package.swift declares exactly what each target imports")
    return 0


if __name__ == "__main__":
    sys.exit(main())
