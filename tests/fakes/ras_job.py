#!/usr/bin/env python3
"""Writes a RAS replay transcript (ras_replay.py's input) for a job of live stand-in ranks.

usage: ras_job.py SKELETON OUT "ADDR..." "PID..." BEHIND GPUS_PER_NODE [SOURCE]

SKELETON is a recorded transcript (tests/fixtures/attach/ras/sleep.json) whose STATUS answers
are replaced by one communicator of the given ranks (rank i at ADDR[i], pid PID[i], GPU i %
GPUS_PER_NODE):
every rank launched 6 AllReduce except rank BEHIND, which launched 5 (the culprit).
"""
import json
import sys

skel_path, out, addrs, pids, behind, gpn = sys.argv[1:7]
skel = json.load(open(skel_path))
addrs, pids, behind, gpn = addrs.split(), [int(p) for p in pids.split()], int(behind), int(gpn)
ranks = [{"rank": i, "host": a, "pid": p, "cuda_dev": i % gpn, "nvml_dev": i % gpn,
          "status": {"init_state": 0, "async_error": 0, "finalize_called": False,
                     "destroy_flag": False, "abort_flag": False},
          "collective_counts": {"Broadcast": 0, "Reduce": 0, "AllGather": 0,
                                "ReduceScatter": 0, "AllReduce": 5 if i == behind else 6}}
         for i, (a, p) in enumerate(zip(addrs, pids))]
status = json.dumps({"nccl_version": "2.28.9", "cuda_runtime_version": 13000,
                     "cuda_driver_version": 13000, "timestamp": "2026-12-03 10:00:00",
                     "communicators_count": 1,
                     "communicators": [{"hash": "0xabc1", "secondary_hash": "0x1:0x2",
                                        "size": len(ranks), "ranks_count": len(ranks),
                                        "missing_ranks_count": 0, "ranks": ranks,
                                        "missing_ranks": []}],
                     "ras": {"collection_time_sec": 0.004, "timeouts_count": 0}}, indent=2) + "\n"
for poll in skel["polls"]:
    for x in poll["exchange"]:
        if x["send"].strip() == "STATUS":
            x["recv"] = status
if len(sys.argv) > 7:
    skel["source"] = sys.argv[7]
json.dump(skel, open(out, "w"))
