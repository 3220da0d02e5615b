#!/usr/bin/env bash
# The sbatch script that `ncclcheck config --sbatch` writes, submitted for real to the lab's Slurm
# (issue #12): its srun starts the gloo all-reduce job (em_job.py, ranks from SLURM_PROCID) on
# both nodes and the sum is checked, in healthy and in cloud-public-blocked (where the script's
# exports, NCCL/GLOO_SOCKET_IFNAME=eth1, are what makes it work; see config_lab_torch.sh).
# Two edits for CPU CI, made here rather than as a config option because no real user wants them:
#  - the '#SBATCH --gres=gpu:1' line is dropped: the lab's Slurm has no GPUs (no GresTypes), and
#    on a GPU cluster that line is right;
#  - 'python3' becomes /usr/bin/python3: the interpreter with Debian's torch, as in
#    config_lab_torch.sh (the test machine's PATH may put another python3 first).
# As there, each node's own name resolves to its public eth0 address in cloud-public-blocked, so
# that Gloo, like NCCL, would end up on eth0 without the recommendation.
. "$(dirname "$0")/lib_lab.sh"
for t in slurmctld slurmd munged srun sbatch; do
	command -v "$t" >/dev/null || { echo "SKIP: '$t' missing (scripts/deps.sh installs slurm-wlm munge)"; exit 77; }
done
/usr/bin/python3 -c 'import torch.distributed' 2>/dev/null ||
	{ echo "SKIP: /usr/bin/python3 has no torch (Debian python3-torch; scripts/deps.sh installs it)"; exit 77; }
lab_use q1
P=$LAB_PREFIX
JOB=$SRCDIR/tests/integration/em_job.py
for sc in healthy cloud-public-blocked; do
	"$NCCLCHECK" lab up --nodes 2 --scenario $sc --prefix $P --slurm --force >/dev/null 2>&1 ||
		{ fail "lab up --slurm $sc"; continue; }
	if [ $sc = cloud-public-blocked ]; then
		for i in 0 1; do sed -i "s/^10\.10\.0\.1$i\t/203.0.113.1$i\t/" /etc/netns/$P-n$i/hosts; done
	fi
	D=$LAB_TMP/$sc
	lx n1 "$NCCLCHECK" config --no-python --sbatch --out "$D" --nodes 2 --gpus-per-node 1 \
		--script "$JOB" >/dev/null
	expect_rc 0 $? "$sc: config --sbatch"
	s=$D/job.sbatch
	expect_match "$(cat "$s")" "^#SBATCH --nodes=2$" "$sc: --nodes=2 in the script"
	expect_match "$(cat "$s")" "^#SBATCH --ntasks-per-node=1$" "$sc: --ntasks-per-node=1"
	[ $sc = cloud-public-blocked ] &&
		expect_match "$(cat "$s")" "^export NCCL_SOCKET_IFNAME=eth1$" "$sc: the script exports NCCL_SOCKET_IFNAME=eth1"
	sed -e '/^#SBATCH --gres=/d' -e 's/ python3 / \/usr\/bin\/python3 /' "$s" >"$D/cpu.sbatch"
	out=$D/job.out
	timeout 150 "$NCCLCHECK" lab exec $P-n0 -- env EM_JOB_TIMEOUT=20 sbatch --wait \
		--output="$out" "$D/cpu.sbatch" >/dev/null
	expect_rc 0 $? "$sc: sbatch --wait of the generated script"
	got=$(cat "$out" 2>/dev/null)
	gloo=$([ $sc = healthy ] && echo '.*' || echo eth1)
	expect_match "$got" "rank 0/2 on $P-n0: .* OK GLOO_SOCKET_IFNAME=$gloo\$" "$sc: rank 0 in n0, sum right"
	expect_match "$got" "rank 1/2 on $P-n1: .* OK GLOO_SOCKET_IFNAME=$gloo\$" "$sc: rank 1 in n1, sum right"
	[ -s "$out" ] || echo "no job output" >&2
done
"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
