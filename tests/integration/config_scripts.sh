#!/bin/bash
# config --out from a saved verdict: every script passes bash -n and shellcheck, the Trainer
# snippet parses (Python ast) and its devices / num_nodes / precision agree with the torchrun,
# sbatch and mpirun numbers, the Kubernetes job is YAML with the volume and hostNetwork, the
# launcher check accepts what config wrote and refuses a broken batch script, and bad input gets
# a clear error and exit code 2.
set -u
. "$SRCDIR/tests/integration/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PY=$(command -v /usr/bin/python3 || command -v python3) || { echo "SKIP: no python3"; exit 77; }

# an H200 node (compute capability 9.0: bf16) and a V100 node (7.0: no bf16)
"$NCCLCHECK" node --facts "$FIXTURES/facts/gpu-h200x2.json" --json >"$tmp/h200.json"
"$NCCLCHECK" node --facts "$FIXTURES/facts/gpu-v100-driver470.json" --json >"$tmp/v100.json"

for gpu in h200 v100; do
	out="$tmp/out-$gpu"
	msg=$("$NCCLCHECK" config --from "$tmp/$gpu.json" --out "$out" --nodes 3 --gpus-per-node 4 \
		--master 10.0.0.1:6000 --cloud generic 2>&1)
	expect_rc 0 $? "$gpu: config --out"
	expect_match "$msg" "wrote 11 files into" "$gpu: says what it wrote"
	for f in ncclcheck.env torchrun-node0.sh torchrun-node1.sh torchrun-node2.sh torchrun-c10d.sh \
		trainer.py job.sbatch taskprolog.sh mpirun.sh pytorchjob.yaml recommendation.json; do
		[ -s "$out/$f" ] || fail "$gpu: $f missing or empty"
	done
	[ -x "$out/job.sbatch" ] && [ -x "$out/taskprolog.sh" ] && pass "$gpu: scripts are executable" ||
		fail "$gpu: scripts not executable"

	for f in "$out"/*.sh "$out/job.sbatch" "$out/ncclcheck.env"; do
		bash -n "$f" || fail "$gpu: bash -n $(basename "$f")"
	done
	pass "$gpu: bash -n on every script"
	if command -v shellcheck >/dev/null; then
		shellcheck -s sh "$out"/*.sh "$out/ncclcheck.env" && shellcheck "$out/job.sbatch"
		expect_rc 0 $? "$gpu: shellcheck on every script"
	else
		echo "note: shellcheck missing (scripts/deps.sh installs it): not run"
	fi

	# the Trainer snippet against the launchers' numbers
	want=bf16-mixed; [ $gpu = v100 ] && want=16-mixed
	"$PY" - "$out" "$want" <<-'EOF'
	import ast, re, sys
	out, want = sys.argv[1], sys.argv[2]
	tree = ast.parse(open(out + "/trainer.py").read())
	calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
	         and getattr(n.func, "attr", getattr(n.func, "id", "")) == "Trainer"]
	assert len(calls) == 1, "one Trainer(...) call"
	kw = {k.arg: k.value for k in calls[0].keywords}
	val = lambda k: ast.literal_eval(kw[k])
	strat = kw["strategy"]
	assert getattr(strat.func, "id", "") == "DDPStrategy", "strategy=DDPStrategy(...)"
	skw = {k.arg: ast.literal_eval(k.value) for k in strat.keywords}
	assert skw == {"gradient_as_bucket_view": True}, skw  # no static_graph / find_unused unasked
	def opt(path, name):
	    text = "\n".join(l for l in open(out + "/" + path) if not re.match(r"\s*# ", l))
	    m = re.findall(r"--%s[= ]([0-9]+)" % name, text)
	    assert m, (path, name)
	    return {int(x) for x in m}
	assert {val("devices")} == opt("torchrun-node1.sh", "nproc_per_node") == \
	    opt("torchrun-c10d.sh", "nproc_per_node") == opt("job.sbatch", "ntasks-per-node") == {4}
	assert {val("num_nodes")} == opt("torchrun-node0.sh", "nnodes") == opt("job.sbatch", "nodes") == {3}
	assert opt("torchrun-node2.sh", "node_rank") == {2}
	assert val("precision") == want, val("precision")
	assert val("accelerator") == "gpu"
	np = re.search(r"mpirun -np ([0-9]+) --map-by ppr:([0-9]+):node", open(out + "/mpirun.sh").read())
	assert np and int(np.group(1)) == 12 and int(np.group(2)) == 4, "mpirun -np 12, 4 per node"
	assert "--master_port=6000" in open(out + "/torchrun-node0.sh").read()
	assert "--rdzv_endpoint=10.0.0.1:29400" in open(out + "/torchrun-c10d.sh").read()
	print("trainer.py agrees with torchrun, sbatch and mpirun")
	EOF
	expect_rc 0 $? "$gpu: Trainer(...) parsed and cross-checked ($want)"

	if "$PY" -c 'import yaml' 2>/dev/null; then
		"$PY" - "$out/pytorchjob.yaml" <<-'EOF'
		import sys, yaml
		d = yaml.safe_load(open(sys.argv[1]))
		specs = d["spec"]["pytorchReplicaSpecs"]
		assert specs["Worker"]["replicas"] == 2
		for role in ("Master", "Worker"):
		    pod = specs[role]["template"]["spec"]
		    assert pod["hostNetwork"] is True
		    assert {"name": "dshm", "emptyDir": {"medium": "Memory"}} in pod["volumes"]
		    c = pod["containers"][0]
		    assert c["name"] == "pytorch" and c["resources"]["limits"]["nvidia.com/gpu"] == 4
		    assert {"name": "dshm", "mountPath": "/dev/shm"} in c["volumeMounts"]
		    assert "ncclcheck cluster" in pod["initContainers"][0]["command"][2]
		print("pytorchjob.yaml is a PyTorchJob with hostNetwork, /dev/shm in memory, the init check")
		EOF
		expect_rc 0 $? "$gpu: pytorchjob.yaml parsed"
	fi

	out2=$("$NCCLCHECK" config --check "$out/job.sbatch" --check "$out/trainer.py")
	expect_rc 0 $? "$gpu: the launcher check accepts config's sbatch + Trainer"
done

# the TaskProlog prints exactly the env file's exports, in Slurm's protocol
out="$tmp/out-h200"
prolog=$(sh "$out/taskprolog.sh"); expect_rc 0 $? "TaskProlog runs and exits 0"
expect_match "$prolog" "^export GLOO_SOCKET_IFNAME=eth0$" "TaskProlog prints the export line"
envs=$(grep '^export ' "$out/ncclcheck.env" | sort); pl=$(printf '%s\n' "$prolog" | grep '^export ' | sort)
[ "$envs" = "$pl" ] && pass "TaskProlog and env file agree" || fail "TaskProlog '$pl' vs env '$envs'"

# a broken batch script: python without srun, Trainer numbers that disagree
printf '#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\npython3 train.py\n' >"$tmp/bad.sbatch"
printf 'trainer = Trainer(devices=4, num_nodes=1)\n' >"$tmp/bad.py"
out2=$("$NCCLCHECK" config --check "$tmp/bad.sbatch" --check "$tmp/bad.py")
expect_rc 1 $? "the launcher check refuses a broken script"
expect_match "$out2" "launch\.sbatch\.no_srun" "python without srun"
expect_match "$out2" "launch\.devices_mismatch" "--ntasks-per-node 8 vs devices=4"
expect_match "$out2" "launch\.nodes_mismatch" "--nodes 2 vs num_nodes=1"
js=$("$NCCLCHECK" config --check "$tmp/bad.sbatch" --json | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["exit_code"], sorted(f["id"] for f in d["findings"]))')
expect_match "$js" "^1 .*launch\.sbatch\.no_srun" "--check --json"

# --json: the recommendation and the outputs as data
js=$("$NCCLCHECK" config --from "$tmp/h200.json" --nodes 2 --torchrun --json |
	"$PY" -c 'import json,sys; d=json.load(sys.stdin); r=d["recommendation"]; print(r["nodes"], r["gpus_per_node"], [f["name"] for f in d["files"]])')
expect_match "$js" "^2 2 \['torchrun-node0.sh', 'torchrun-node1.sh', 'torchrun-c10d.sh'\]" "config --json lists the outputs"
out2=$("$NCCLCHECK" config --from "$tmp/h200.json" --nodes 2 --torchrun --node-rank 1)
expect_match "$out2" "--node_rank=1" "--node-rank picks one node's script"
expect_no_match "$out2" "--node_rank=0" "and only that one"

# a node that followed the seeds' advice: config unsets it, and says why in each comment
"$PY" - "$FIXTURES/facts/gpu-h200x2.json" "$tmp/seedenv.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
f = d.get("facts", d)
f.setdefault("env", {}).update({"NCCL_ALGO": "Ring", "NCCL_PROTO": "Simple", "NCCL_DEBUG": "INFO",
                                "NCCL_LAUNCH_MODE": "PARALLEL", "NCCL_BLOCKING_WAIT": "1"})
json.dump(f, open(sys.argv[2], "w"))
EOF
env=$("$NCCLCHECK" config --from "$tmp/seedenv.json" --env)
expect_rc 0 $? "config on a node with the seeds' environment"
for v in NCCL_ALGO NCCL_PROTO NCCL_LAUNCH_MODE NCCL_BLOCKING_WAIT; do
	expect_match "$env" "^unset $v$" "unset $v"
done
expect_match "$env" "^# nccl\.env\.algo_forced: " "each line says which finding asks for it"
expect_no_match "$env" "^export NCCL_(ALGO|PROTO|LAUNCH_MODE|BLOCKING_WAIT)=" "none of it is exported"

# a cluster document ({nodes: [{name, facts}], findings}, as code-review-1 (e) shapes it)
cat >"$tmp/cluster.json" <<'EOF'
{"findings": [
  {"id": "net.bootstrap.master_mismatch", "severity": "error", "confidence": "high", "title": "NCCL on eth0",
   "fix": [], "evidence": [], "settings": [{"name": "NCCL_SOCKET_IFNAME", "value": "=eth1", "where": "env", "scope": "all"}]},
  {"id": "cluster.link.down", "severity": "error", "confidence": "high", "title": "gpu-b cannot reach gpu-a on eth1",
   "fix": [], "evidence": [], "settings": []}],
 "nodes": [{"name": "gpu-a", "facts": {"schema_version": 1, "gpus": [{"compute_capability": "8.0"}],
                                     "net": {"master": {"addr": "10.1.0.1", "port": 6001}}}},
           {"name": "gpu-b", "facts": {"schema_version": 1}}]}
EOF
out2=$("$NCCLCHECK" config --from "$tmp/cluster.json" --mpirun --env 2>/dev/null)
expect_rc 0 $? "config --from a cluster document"
expect_match "$out2" "--host gpu-a:1,gpu-b:1" "mpirun lists the cluster's nodes"
expect_match "$out2" "^export NCCL_SOCKET_IFNAME==eth1$" "the cluster's setting"
expect_match "$out2" "^export GLOO_SOCKET_IFNAME=eth1$" "Gloo's exact name from NCCL's =eth1"
expect_match "$out2" "-x MASTER_ADDR=10\.1\.0\.1 -x MASTER_PORT=6001" "rank 0 from the first node's facts"
"$NCCLCHECK" config --from "$tmp/cluster.json" 2>&1 >/dev/null | grep -q "1 error(s) remain"
expect_rc 0 $? "config warns about the cluster error no setting fixes"
out2=$("$NCCLCHECK" run --from "$tmp/cluster.json" -- touch "$tmp/started")
expect_rc 1 $? "run stops on the cluster's unfixed error"
expect_match "$out2" "cluster\.link\.down" "and shows it"
[ ! -e "$tmp/started" ] && pass "CMD did not start" || fail "CMD started"

# bad input
"$NCCLCHECK" config --from "$tmp/nope.json" 2>"$tmp/err"; expect_rc 2 $? "missing document"
echo '{"findings": [{"id": 1}], "facts": {}}' >"$tmp/bad.json"
"$NCCLCHECK" config --from "$tmp/bad.json" 2>"$tmp/err"; expect_rc 2 $? "malformed findings"
expect_match "$(cat "$tmp/err")" "not a usable ncclcheck document" "says why"
head -c 3000 /dev/urandom >"$tmp/junk.json"
"$NCCLCHECK" config --from "$tmp/junk.json" 2>/dev/null; expect_rc 2 $? "garbage document"
"$NCCLCHECK" config --from "$tmp/h200.json" --nodes 0 2>/dev/null; expect_rc 2 $? "--nodes 0"
"$NCCLCHECK" config --from "$tmp/h200.json" --master 'x;reboot' 2>"$tmp/err"; expect_rc 2 $? "--master with shell characters"
"$NCCLCHECK" config --from "$tmp/h200.json" --master 10.0.0.1:99999 2>/dev/null; expect_rc 2 $? "--master port out of range"
"$NCCLCHECK" config --from "$tmp/h200.json" --cloud ibm 2>/dev/null; expect_rc 2 $? "unknown --cloud"
"$NCCLCHECK" config --from "$tmp/h200.json" --node-rank 5 --nodes 2 2>/dev/null; expect_rc 2 $? "--node-rank beyond --nodes"
"$NCCLCHECK" config --from "$tmp/h200.json" --out /proc/nope 2>/dev/null; expect_rc 3 $? "unwritable --out"
"$NCCLCHECK" config --bogus 2>/dev/null; expect_rc 2 $? "unknown option"

# every cloud profile: nothing deprecated or unknown is exported (the unit test holds the table)
for c in generic autodl aws aliyun azure gcp oci; do
	env=$("$NCCLCHECK" config --from "$tmp/h200.json" --cloud "$c" --env)
	expect_rc 0 $? "--cloud $c"
	expect_no_match "$env" "^export (NCCL_ALGO|NCCL_PROTO|NCCL_BLOCKING_WAIT|NCCL_TIMEOUT|FI_EFA_USE_DEVICE_RDMA|NCCL_IB_DISABLE=0)" "--cloud $c writes no obsolete advice"
done
finish
