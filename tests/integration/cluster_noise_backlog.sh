#!/bin/bash
# cluster: a node whose net.core.somaxconn is 64 (Linux before 5.4 defaults to 128) caps every
# listener's accept queue below the loss probe's connects. Its own queue must not read as loss:
# the target says how many connects its listeners hold and the probe sends no more, so a clean
# lab gives no link.loss, no error and nothing about n1. (Before: ~58 % of handshakes
# "retransmitted" on every link into n1, and link.loss named it.)
# ctest: run alone
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_noise.sh"
lab_use nbkl
NOISE_ARGS=(--no-bw)
noise_up
lx n1 sysctl -qw net.core.somaxconn=64
expect_match "$(lx n1 cat /proc/sys/net/core/somaxconn)" '^64$' "n1's somaxconn is 64"
noise_run "somaxconn 64 on n1"
noise_same_rc 0
expect_nq '[f["id"] + ": " + f["title"] for f in E]' '\[\]' "no error"
expect_nq '[f["title"] for f in F if f["id"] == "link.loss"]' '\[\]' "no link.loss: the probe fit n1's queue"
expect_nq 'sorted(set(l["result"]["loss"]["probes"] for l in d["links"] if l["test"] == "connect" and l["target_name"].endswith("-n1") and "loss" in l["result"]))' \
	'\[48\]' "the probes into n1 were cut to its queue (64 less 16)"
finish
