#!/usr/bin/env python3
"""Share of SW-Impl's execution time in the paper's five overhead categories, from rcc result directories.

Usage: sw_impl_shares.py DIR...   (runs of protocol occ with protocol_options.software: sw-impl)
Per committed transaction: the CPU charged in each category (extra sw_impl.*_ns over sw_impl.commits_total),
plus the network time of conflict detection (LOCK, VALIDATE and RELEASE stages), over the mean latency. The
network READ of a written record is not counted: this YCSB reads the value it updates (read-modify-write).
Prints CSV: dir, write_probability, latency_us, one column per category (us), overhead_share.
"""
import json, sys, os

CATS = ["sets", "update_version", "read_atomicity", "rd_before_wr", "conflict_detection"]


def shares(d):
    s = json.load(open(os.path.join(d, "summary.json")))
    ex, st, commits = s["extra"], s["stages"], s["commits"]
    per = {c: ex["sw_impl." + c + "_ns"] / ex["sw_impl.commits_total"] / 1000.0 for c in CATS}
    wp = s["config"]["workload"].get("write_probability", 0.0)
    stage_us = lambda n: st[n]["mean_us"] * st[n]["count"] / commits if n in st else 0.0
    per["conflict_detection"] += stage_us("LOCK") + stage_us("VALIDATE") + stage_us("RELEASE")
    lat = s["latency_us"]["mean"]
    return wp, lat, per, sum(per.values()) / lat


if __name__ == "__main__":
    print("dir,write_probability,latency_us," + ",".join(c + "_us" for c in CATS) + ",overhead_share")
    for d in sys.argv[1:]:
        wp, lat, per, share = shares(d)
        print("%s,%.2f,%.3f,%s,%.4f" % (os.path.basename(d.rstrip("/")), wp, lat, ",".join("%.3f" % per[c] for c in CATS), share))
