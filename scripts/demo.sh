#!/bin/bash
# README's main job: builds ncclcheck, then shows it on a simulated two-node cloud cluster whose
# public NIC drops TCP (the second seed article's AutoDL case): the fault seen with plain tools,
# ncclcheck's diagnosis on every node, the fix applied, and the lab removed again (also on
# failure or Ctrl-C). Needs root: the lab is built from network namespaces.
# NCCLCHECK=/path/to/ncclcheck skips the build and uses that binary.
# Every step's exit code and output are checked against what the narration says; a step that
# did something else is named (with its stderr) and the demo exits 1. The lab's prefix is this
# run's own (dm<pid>), and only processes the demo started are ended, by pid.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" != 0 ]; then
	echo "demo: the lab builds network namespaces and needs root; run: sudo $0" >&2
	exit 3
fi

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then B=$'\033[1m' D=$'\033[2m' R=$'\033[0m'; else B='' D='' R=''; fi
# The narration follows ncclcheck's language (LC_ALL, LC_MESSAGES, LANG: zh... is Chinese): en ZH
# picks the line. Chinese is written in short lines, never folded (fold cuts bytes, not columns).
case "${LC_ALL:-${LC_MESSAGES:-${LANG:-}}}" in zh*) ZH=1 ;; *) ZH="" ;; esac
en() { if [ -n "$ZH" ]; then printf '%s' "$2"; else printf '%s' "$1"; fi; }
step() { printf '\n%s== %s%s\n' "$B" "$*" "$R"; }
say() {
	if [ -n "$ZH" ]; then printf '%s%s%s\n' "$D" "$*" "$R"; return; fi
	printf '%s%s%s\n' "$D" "$*" "$R" | fold -s -w 100
}
run() { printf '%s$ %s%s\n' "$B" "$*" "$R"; "$@"; }

step "$(en "1/7 build ncclcheck (release)" "1/7 编译 ncclcheck（release）")"
if [ -n "${NCCLCHECK:-}" ]; then
	say "$(en "using NCCLCHECK=$NCCLCHECK instead of building" "不编译，使用 NCCLCHECK=$NCCLCHECK")"
else
	./scripts/deps.sh >/dev/null
	cmake --preset release >/dev/null
	cmake --build --preset release -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
	NCCLCHECK=$PWD/build/release/ncclcheck
fi
"$NCCLCHECK" --version

PREFIX=dm$$ # this run's own: a second demo, or a test suite, on the machine never shares it
TMP=$(mktemp -d)
NC_PID=""
cleanup() {
	[ -n "$NC_PID" ] && kill "$NC_PID" 2>/dev/null
	"$NCCLCHECK" lab down --prefix "$PREFIX" >/dev/null 2>&1 || true
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
lx() { local node=$1; shift; "$NCCLCHECK" lab exec "$PREFIX-$node" -- "$@"; }

# Every claim the narration makes is checked; the ones that did not hold are listed at the end.
WRONG=()
# differs WHAT [STDERR_FILE]: the step did not do what the narration says: say so, show stderr
differs() {
	printf '%sdemo: NOT AS DESCRIBED: %s%s\n' "$B" "$1" "$R" >&2
	[ -n "${2:-}" ] && [ -s "$2" ] && sed 's/^/    stderr: /' "$2" | tail -20 >&2
	WRONG+=("$1")
}
# expect_rc WANT GOT WHAT [STDERR_FILE]
expect_rc() {
	[ "$2" = "$1" ] || differs "$3: exit $2, expected $1" "${4:-}"
}

step "$(en "2/7 a simulated two-node cloud cluster" "2/7 模拟的双节点云集群")"
say "$(en "Each node is a network namespace laid out like an AutoDL-style VM: eth0 on a public \
segment, eth1 on a private one, MASTER_ADDR on node 0's private address. The platform drops \
TCP between the public addresses but lets ping through (second seed, §1 and §5.1)." \
"每个节点是一个网络命名空间，布局和 AutoDL 式的云主机一样：eth0 在公网网段，eth1 在私网网段，
MASTER_ADDR 是节点 0 的私网地址。平台丢弃公网地址之间的 TCP，但放行 ping（文章 2 §1、§5.1）。")"
if ! run "$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix "$PREFIX"; then
	echo "demo: the lab could not be built (above); nothing else can be shown" >&2
	exit 1
fi

step "$(en "3/7 the fault, seen with the tools the articles use by hand" "3/7 用文章里手工排查的工具看故障")"
say "$(en "A listener on n0's MASTER_PORT (29500); from n1: ping, then nc -zv to n0's public and \
private address (second seed, §2.1 and §2.4)." \
"在 n0 的 MASTER_PORT（29500）上起一个监听；在 n1 上先 ping，再用 nc -zv 连 n0 的公网和私网地址
（文章 2 §2.1、§2.4）。")"
# lab exec execs ip, ip netns exec execs nc: $! is the listener itself, ended by that pid
"$NCCLCHECK" lab exec "$PREFIX-n0" -- nc -lk 29500 >/dev/null 2>&1 &
NC_PID=$!
for _ in $(seq 50); do
	lx n0 ss -Hltn "sport = :29500" 2>/dev/null | grep -q LISTEN && break
	sleep 0.1
done
printf '%s$ ping -c 1 -W 2 203.0.113.10     (n0 eth0, from n1)%s\n' "$B" "$R"
lx n1 ping -c 1 -W 2 203.0.113.10 >"$TMP/ping" 2>&1 && rc=0 || rc=$?
grep -E 'bytes from|packet loss' "$TMP/ping" || cat "$TMP/ping"
expect_rc 0 $rc "ping to n0's public address answers" "$TMP/ping"
printf '%s$ nc -zv -w 3 203.0.113.10 29500  (n0 eth0, from n1)%s\n' "$B" "$R"
lx n1 nc -zv -w 3 203.0.113.10 29500 2>&1 && rc=0 || rc=$?
[ $rc != 0 ] || differs "TCP to n0's public address connected; the scenario drops it"
printf '%s$ nc -zv -w 3 10.10.0.10 29500    (n0 eth1, from n1)%s\n' "$B" "$R"
lx n1 nc -zv -w 3 10.10.0.10 29500 2>&1 && rc=0 || rc=$?
expect_rc 0 $rc "TCP to n0's private address connects"
say "$(en "ping answers and the private address connects, but TCP to the public address hangs. \
Left alone, NCCL picks eth0 (the first interface that is not docker or lo): training hangs \
after the data loads and dies with ncclInternalError." \
"ping 有应答，私网地址也能连上，但连公网地址的 TCP 卡住。不加设置时 NCCL 会选 eth0（第一块
不是 docker、lo 的网卡）：数据加载完后训练卡住，最后报 ncclInternalError。")"

# The checks run on every node one after the other; cluster runs on both at once (below).
CHECKS=("node --no-python")
# cluster_both [FILTER]: ncclcheck cluster on n1 (in the background) and n0, as a launcher
# would start it on every node; prints n0's report (every node prints the same one)
# cluster_both WANT_RC FILTER: as above; checks that both nodes exit WANT_RC (stderr shown if not)
cluster_both() {
	local want=$1 out rc rc1 w
	lx n1 "$NCCLCHECK" cluster --no-python --no-bw --timeout 30 >"$TMP/c1.out" 2>"$TMP/c1.err" &
	w=$!
	printf '\n%s[%s]$ ncclcheck cluster --no-python --no-bw%s\n' "$B" "$(en "n0, n1 at once" "n0、n1 同时")" "$R"
	out=$(lx n0 "$NCCLCHECK" cluster --no-python --no-bw --timeout 30 2>"$TMP/c0.err") &&
		rc=0 || rc=$?
	wait $w && rc1=0 || rc1=$?
	printf '%s\n' "$out" | grep -E "$2" || printf '%s\n' "$out"
	printf "%s$(en "(exit %d on n0, %d on n1)" "（退出码：n0 为 %d，n1 为 %d）")%s\n" "$D" "$rc" "$rc1" "$R"
	expect_rc "$want" $rc "cluster on n0" "$TMP/c0.err"
	expect_rc "$want" $rc1 "cluster on n1" "$TMP/c1.err"
	CLUSTER_OUT=$out
}

step "$(en "4/7 ncclcheck on every node" "4/7 在每个节点上运行 ncclcheck")"
say "$(en "What an engineer runs first: the node's stack, and what NCCL will do there." \
"工程师首先会跑的：节点的软件栈，以及 NCCL 在那里会怎么做。")"
for node in n0 n1; do
	for check in "${CHECKS[@]}"; do
		# shellcheck disable=SC2086
		printf '\n%s[%s]$ ncclcheck %s%s\n' "$B" "$node" "$check" "$R"
		lx "$node" "$NCCLCHECK" $check 2>"$TMP/node.err" | tee "$TMP/node.out" &&
			rc=${PIPESTATUS[0]} || rc=${PIPESTATUS[0]}
		printf "%s$(en "(exit %d)" "（退出码 %d）")%s\n" "$D" "$rc" "$R"
		expect_rc 1 "$rc" "[$node] ncclcheck $check finds the error" "$TMP/node.err"
		grep -q "export NCCL_SOCKET_IFNAME=eth1" "$TMP/node.out" ||
			differs "[$node] ncclcheck $check gives no 'export NCCL_SOCKET_IFNAME=eth1'"
	done
done

# cluster's rank 0 listens on MASTER_PORT itself (the port torch's TCPStore will use): end the
# listener this demo started, and wait until it is gone
kill "$NC_PID" 2>/dev/null
wait "$NC_PID" 2>/dev/null || true
NC_PID=""
step "$(en "5/7 ncclcheck cluster: every node at once, every link measured" \
	"5/7 ncclcheck cluster：所有节点同时运行，测量每条链路")"
say "$(en "Started on both nodes together (torchrun-style variables, no flags), the nodes meet on \
MASTER_ADDR:MASTER_PORT, test every interface between them and agree on one verdict." \
"两个节点同时启动（torchrun 风格的变量，不加参数），在 MASTER_ADDR:MASTER_PORT 汇合，测试彼此之间的
每块网卡，并得出同一个结论。")"
cluster_both 1 '^(ERROR|error|错误) |cluster.verdict|NCCL_SOCKET_IFNAME|^[0-9]+ (error|个错误)'
grep -q "NCCL_SOCKET_IFNAME=eth1" <<<"$CLUSTER_OUT" ||
	differs "cluster's verdict does not name NCCL_SOCKET_IFNAME=eth1"

step "$(en "6/7 the fix ncclcheck gave, applied" "6/7 应用 ncclcheck 给出的修复")"
say "$(en "Export the line from the fix (the Gloo twin too) and re-run the same checks; only the \
findings are shown this time." \
"导出修复方法里的那一行（连同 Gloo 的同名变量），再跑一遍同样的检查；这次只显示发现。")"
export NCCL_SOCKET_IFNAME=eth1 GLOO_SOCKET_IFNAME=eth1
printf '%s$ export NCCL_SOCKET_IFNAME=eth1 GLOO_SOCKET_IFNAME=eth1%s\n' "$B" "$R"
for node in n0 n1; do
	for check in "${CHECKS[@]}"; do
		printf '\n%s[%s]$ ncclcheck %s%s\n' "$B" "$node" "$check" "$R"
		# shellcheck disable=SC2086
		out=$(lx "$node" "$NCCLCHECK" $check 2>"$TMP/node.err") && rc=0 || rc=$?
		printf '%s\n' "$out" |
			grep -E '^(ERROR|warn|info|错误|警告|提示) |^[0-9]+ (error|个错误)|^no error|checks passed|项检查通过' ||
			printf '%s\n' "$out"
		printf "%s$(en "(exit %d)" "（退出码 %d）")%s\n" "$D" "$rc" "$R"
		expect_rc 0 "$rc" "[$node] ncclcheck $check with the fix" "$TMP/node.err"
	done
done
n_wrong=${#WRONG[@]}
cluster_both 0 '^(ERROR|error|错误) |cluster.verdict|^[0-9]+ (error|个错误)|no error|没有错误'
if [ ${#WRONG[@]} = "$n_wrong" ]; then
	say "$(en "NCCL now bootstraps on eth1, the interface nc showed working, and the error is gone." \
		"NCCL 现在在 eth1（nc 证明能通的那块网卡）上 bootstrap，错误消失了。")"
else
	say "$(en "The error is NOT gone: see above." "错误没有消失：见上文。")"
fi

step "$(en "7/7 remove the lab" "7/7 删除实验环境")"
run "$NCCLCHECK" lab down --prefix "$PREFIX" && rc=0 || rc=$?
expect_rc 0 $rc "lab down"
if [ ${#WRONG[@]} -gt 0 ]; then
	printf '\n%sdemo: %d step(s) did not do what the narration says:%s\n' "$B" ${#WRONG[@]} "$R" >&2
	printf '  - %s\n' "${WRONG[@]}" >&2
	exit 1
fi
printf '\n%sdemo: %s%s\n' "$B" "$(en "every step did what it says" "每一步都与说明一致")" "$R"
