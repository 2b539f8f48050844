"""Versions of a real GTFS zip, made in code, for the tests and the benchmark of a feed swapped in a running server.

A feed that has ended is not taken in place of one in service, so each version's calendars (and feed_info's end)
are moved on to end two years from now; a later version renames every trip, as agencies' new timetables often do.
"""
import csv
import io
import time
import zipfile


def read(path):
    """Each file of the zip, by name."""
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def write(path, files):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in sorted(files.items()):
            out.writestr(name, data)


def moved_on(files):
    """A copy whose calendars (and feed_info's end) end two years from now."""
    files = dict(files)
    far = time.strftime("%Y%m%d", time.gmtime(time.time() + 2 * 365 * 86400))
    cal = files["calendar.txt"].decode("utf-8-sig").splitlines()
    end = cal[0].split(",").index("end_date")
    cal = [cal[0]] + [",".join(r[:end] + [far] + r[end + 1:]) for r in (line.split(",") for line in cal[1:] if line)]
    files["calendar.txt"] = ("\n".join(cal) + "\n").encode()
    if "feed_info.txt" in files:
        rows = list(csv.reader(io.StringIO(files["feed_info.txt"].decode("utf-8-sig"))))
        if "feed_end_date" in rows[0]:
            i = rows[0].index("feed_end_date")
            for r in rows[1:]:
                r[i] = far
        out = io.StringIO()
        csv.writer(out).writerows(rows)
        files["feed_info.txt"] = out.getvalue().encode()
    return files


def renamed(files, suffix):
    """A copy with every trip's ID followed by `suffix` (in trips.txt and stop_times.txt)."""
    files = dict(files)
    for name in ("trips.txt", "stop_times.txt"):
        text = files[name].decode("utf-8-sig").splitlines()
        i = text[0].split(",").index("trip_id")
        text = [text[0]] + [",".join(p[:i] + [p[i] + suffix] + p[i + 1:]) for p in (line.split(",") for line in text[1:] if line)]
        files[name] = ("\n".join(text) + "\n").encode()
    return files


def first_stop(files):
    return next(csv.DictReader(io.StringIO(files["stops.txt"].decode("utf-8-sig"))))["stop_id"]
