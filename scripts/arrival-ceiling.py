#!/usr/bin/env python3
"""How well can anyone predict a recorded train's arrival at its next stop? Scores simple
predictors on the real rides of a recording, with the truth `evaluate --save-cases` writes,
so the tracker's own arrival times (`evaluate --recording`, the table by minutes ahead) can be
read against them. docs/experiments/2026-11-26-arrival-time-ceiling.md reports the figures.

Usage:
  traintracker evaluate --railways GTFS --recording FILE --save-cases CASES
  scripts/arrival-ceiling.py CASES GTFS

Fixes are scored like `evaluate` scores arrival times: from 180 s after the ride's departure,
the train on its way to its next stop (not at it), the error against the true arrival (when the
train came within 50 m of the stop, between the two positions either side). Predictors:
  timetable  the trip's published run from its previous stop, shared out by distance left;
  last train the time the last train with the same two stops (the same route, within two
             hours, arrived before the fix) took from the same distance out, as the feed
             showed it;
  last five  the median of that time over the last five such trains (or as many as there
             are within two hours), as the tracker reads it (`RecentRuns`);
  mean       the mean of the timetable and the last five (the tracker's blend);
  better     whichever of the timetable and the last five is nearer the truth at that fix: no
             predictor can know this, so it bounds what choosing between them can reach.
"""
import collections, csv, json, os, sys

WARM_UP = 180          # seconds after departure before a fix is scored (as `evaluate`)
TOLERANCE = 60         # seconds: an arrival time within this of the truth is right
LAST_TRAIN_REACH = 7200  # seconds: a last train counts when it arrived this recently
LAST_TRAINS = 5          # the last five's median, as the tracker reads it
ROWS = 5               # rows by whole minutes ahead; the last holds this many and more


def fail(message):
    sys.exit(f"arrival-ceiling: {message}")


def station(stop_id):
    return stop_id.split(".", 1)[1] if "." in stop_id else stop_id


def seconds(clock, path):
    try:
        hours, minutes, secs = (int(part) for part in clock.split(":"))
    except ValueError:
        fail(f"{path}: bad time {clock!r}")
    return hours * 3600 + minutes * 60 + secs


def timetable(gtfs):
    """Per trip, per parent station: (arrival, departure) in seconds on the service day."""
    try:
        with open(os.path.join(gtfs, "stops.txt"), newline="", encoding="utf-8-sig") as handle:
            parent = {row["stop_id"]: row.get("parent_station") or row["stop_id"] for row in csv.DictReader(handle)}
        path = os.path.join(gtfs, "stop_times.txt")
        calls = collections.defaultdict(dict)
        with open(path, newline="", encoding="utf-8-sig") as handle:
            for row in csv.DictReader(handle):
                at = parent.get(row["stop_id"], row["stop_id"])
                calls[row["trip_id"]][at] = (seconds(row["arrival_time"], path), seconds(row["departure_time"], path))
        return calls
    except (OSError, KeyError) as error:
        fail(f"{gtfs}: not a GTFS feed with stops.txt and stop_times.txt ({error})")


def rides(cases):
    path = os.path.join(cases, "truth.json")
    try:
        with open(path, encoding="utf-8") as handle:
            truth = json.load(handle)["cases"]
    except (OSError, ValueError, KeyError) as error:
        fail(f"{path}: not the truth of `evaluate --save-cases` ({error})")
    for case in truth:
        fixes = case["fixes"]
        arrivals = {station(a["station"]): a["time"] for a in case.get("stopArrivals") or []}
        marks = {}  # where along the track each stop's arrival mark is, from the positions either side
        for stop, time in arrivals.items():
            for before, after in zip(fixes, fixes[1:]):
                if before["time"] <= time <= after["time"]:
                    share = (time - before["time"]) / max(1e-9, after["time"] - before["time"])
                    marks[stop] = before["alongTrack"] + share * (after["alongTrack"] - before["alongTrack"])
                    break
        yield dict(case=case, fixes=fixes, arrivals=arrivals, marks=marks, stops=[station(s) for s in case["stops"]])


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def previous_stop(ride, stop):
    index = ride["stops"].index(stop)
    return ride["stops"][index - 1] if index > 0 else None


def time_out(ride, stop, distance):
    """When `ride` was `distance` metres before its mark at `stop`, after leaving the stop before."""
    mark, arrival = ride["marks"].get(stop), ride["arrivals"].get(stop)
    if mark is None or arrival is None:
        return None
    left = ride["arrivals"].get(previous_stop(ride, stop), float("-inf"))
    points = [(f["time"], abs(mark - f["alongTrack"])) for f in ride["fixes"] if left <= f["time"] <= arrival]
    points.append((arrival, 0.0))
    for (t1, d1), (t2, d2) in zip(points, points[1:]):
        if d1 >= distance >= d2 and d1 > d2:
            return t1 + (t2 - t1) * (d1 - distance) / (d1 - d2)
    return None


def main():
    if len(sys.argv) != 3:
        fail("usage: arrival-ceiling.py CASES GTFS (CASES from `traintracker evaluate --save-cases`)")
    calls = timetable(sys.argv[2])
    all_rides = list(rides(sys.argv[1]))
    runs = collections.defaultdict(list)  # (route, direction, stop, stop before) -> [(arrival, ride)]
    for ride in all_rides:
        for stop, time in ride["arrivals"].items():
            if stop in ride["stops"]:
                key = (ride["case"]["railwayID"], ride["case"]["directionName"], stop, previous_stop(ride, stop))
                runs[key].append((time, ride))
    for key in runs:
        runs[key].sort(key=lambda pair: pair[0])
    tally = collections.defaultdict(lambda: [0, 0])  # (predictor, row) -> [right, scored]
    for ride in all_rides:
        case, published = ride["case"], calls.get(ride["case"]["trainID"], {})
        for fix in ride["fixes"]:
            if fix["time"] < case["departure"] + WARM_UP or fix["nextStopPhase"] == "now" or not fix.get("nextStop"):
                continue
            stop, now = station(fix["nextStop"]), fix["time"]
            before = previous_stop(ride, stop)
            if stop not in ride["marks"] or before not in ride["marks"] or ride["arrivals"][stop] <= now:
                continue
            if stop not in published or before not in published:
                continue
            truth = ride["arrivals"][stop]
            distance = abs(ride["marks"][stop] - fix["alongTrack"])
            stretch = max(1.0, abs(ride["marks"][stop] - ride["marks"][before]))
            run = published[stop][0] - published[before][1]
            errors = {"timetable": now + run * min(1.0, distance / stretch) - truth}
            key = (case["railwayID"], case["directionName"], stop, before)
            times = []
            for arrival, other in reversed(runs.get(key, [])):
                if other is ride or arrival >= now or arrival < now - LAST_TRAIN_REACH:
                    continue
                out = time_out(other, stop, distance)
                if out is not None:
                    times.append(arrival - out)
                    if len(times) == LAST_TRAINS:
                        break
            if times:
                errors["last train"] = now + times[0] - truth
                errors["last five"] = now + median(times) - truth
                errors["mean"] = (errors["timetable"] + errors["last five"]) / 2
                errors["better"] = min(abs(errors["timetable"]), abs(errors["last five"]))
            row = min(int((truth - now) // 60), ROWS)
            covered = "last train" in errors
            for name, error in errors.items():
                for where in (row, "all"):
                    tally[(name, where, covered)][0] += abs(error) <= TOLERANCE
                    tally[(name, where, covered)][1] += 1
    names = ["timetable", "last train", "last five", "mean", "better"]
    print("fixes with a last train (the same two stops within two hours before): eta within a minute")
    print(f"{'minutes ahead':<14}" + "".join(f"{name:>12}" for name in names) + f"{'fixes':>8}")
    for row in list(range(ROWS + 1)) + ["all"]:
        label = "all" if row == "all" else (f"{row}+" if row == ROWS else f"{row}–{row + 1}")
        cells = []
        for name in names:
            right, scored = tally[(name, row, True)]
            cells.append(f"{100 * right / scored:>10.1f} %" if scored else f"{'-':>12}")
        print(f"{label:<14}" + "".join(cells) + f"{tally[('timetable', row, True)][1]:>8}")
    right, scored = tally[("timetable", "all", False)]
    if scored:
        print(f"fixes without a last train: {scored}, timetable {100 * right / scored:.1f} %")


if __name__ == "__main__":
    main()
