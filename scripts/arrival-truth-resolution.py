#!/usr/bin/env python3
"""Does the way Caltrain's recording times an arrival cost the tracker's arrival times? On a
recording the true arrival at a stop is the moment the train came within 50 m of it,
interpolated between the two positions either side, a minute apart (`RecordedRides.arrivals`):
a train that brakes and stands within that minute is timed late. This writes copies of a
simulated cases folder (whose truth is exact, a fix every second with a good phone) whose
truth times every stop's arrival that way, so `evaluate` scores the same answers against
both. docs/experiments/2026-11-27-arrival-truth-resolution.md reports the figures.

Usage:
  traintracker simulate --railways GTFS --scenario caltrain --phone good --out CASES ...
  scripts/arrival-truth-resolution.py CASES OUT
  traintracker evaluate --railways GTFS --cases CASES        (exact arrivals)
  traintracker evaluate --railways GTFS --cases OUT-fine     (the 50 m mark, every fix)
  traintracker evaluate --railways GTFS --cases OUT-minute   (the 50 m mark, a minute apart)
"""
import json, os, random, sys

ARRIVAL_BEFORE = 50    # metres: a train counts as arrived this far before the stop (as the recording)
SPACING = 60           # seconds between the positions the recording's truth is read from
SEED = 11              # the minute's phase is drawn per ride


def crossing(samples, mark, sign):
    """When the train passed `mark`, interpolated between the samples either side."""
    for before, after in zip(samples, samples[1:]):
        into = (mark - before["alongTrack"]) * sign
        stretch = (after["alongTrack"] - before["alongTrack"]) * sign
        if into > 0 and stretch >= into and stretch > 0:
            return before["time"] + (after["time"] - before["time"]) * into / stretch
    return None


def minute_apart(fixes, rng):
    """The fixes a minute apart, from a random moment in the first minute."""
    picked, due = [], fixes[0]["time"] + rng.uniform(0, SPACING)
    for fix in fixes:
        if fix["time"] >= due:
            picked.append(fix)
            due = fix["time"] + SPACING
    return picked


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, out = sys.argv[1], sys.argv[2]
    truth = json.load(open(os.path.join(source, "truth.json")))
    times = {}
    for kind in ("fine", "minute"):
        rng = random.Random(SEED)
        copy = json.loads(json.dumps(truth))
        for case in copy["cases"]:
            fixes = case["fixes"]
            sign = 1 if fixes[-1]["alongTrack"] > fixes[0]["alongTrack"] else -1
            samples = fixes if kind == "fine" else minute_apart(fixes, rng)
            arrivals = []
            # A stop: where the train comes to a standstill at one of the ride's stations.
            for before, after in zip(fixes, fixes[1:]):
                if before["speed"] > 0 and after["speed"] == 0 and after["station"] in case["stops"]:
                    when = crossing(samples, after["alongTrack"] - sign * ARRIVAL_BEFORE, sign)
                    if when is not None:
                        arrivals.append({"station": after["station"], "time": when})
                        times.setdefault((case["sessionID"], after["station"], after["time"]), {})[kind] = when
            case["stopArrivals"] = sorted(arrivals, key=lambda arrival: arrival["time"])
        folder = f"{out}-{kind}"
        os.makedirs(folder, exist_ok=True)
        json.dump(copy, open(os.path.join(folder, "truth.json"), "w"))
        sessions = os.path.join(folder, "sessions.sqlite")
        if not os.path.exists(sessions):
            os.symlink(os.path.abspath(os.path.join(source, "sessions.sqlite")), sessions)
        print(f"wrote {folder}", file=sys.stderr)
    late = sorted(t["minute"] - t["fine"] for t in times.values() if len(t) == 2)
    if late:
        share = lambda limit: 100 * sum(abs(d) > limit for d in late) / len(late)
        print(
            f"{len(late)} arrivals: timed a minute apart, later than every fix by a median "
            f"{late[len(late) // 2]:.0f} s, at most {late[-1]:.0f} s; more than 20 s off {share(20):.0f} %, "
            f"more than 30 s {share(30):.0f} %")


if __name__ == "__main__":
    main()
