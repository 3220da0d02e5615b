#!/bin/bash
# First look at the GPU machine: what the GPU scripts rely on (netns, iptables, tc, torch, NCCL copies).
. "$(dirname "$0")/env.sh"
set -x
uname -a; nproc; cat /etc/os-release | head -3
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,memory.total --format=csv
nvidia-smi topo -m
python3 -c 'import torch,sys; print(sys.executable, torch.__version__, torch.version.cuda, torch.cuda.nccl.version(), torch.cuda.device_count())'
python3 -c 'import lightning, pytorch_lightning; print(lightning.__version__, pytorch_lightning.__version__)'
python3 -c 'import torch, torch.distributed; torch.cuda.nccl.version(); print([l.split()[-1] for l in open("/proc/self/maps") if "nccl" in l][:3])'
ldconfig -p | grep -E 'nccl|cudnn|nvidia-ml|libcuda\.' | head
ls /usr/local/cuda*/version.json /usr/include/nccl.h 2>&1
ls /usr/lib/x86_64-linux-gnu/ | grep -E 'jansson|hwloc|cmocka|crypto'
which ip iptables tc iperf3 nc python3 cmake gcc
"$IP" netns add probe-a && "$IP" netns add probe-b && "$IP" link add pa type veth peer name pb && "$IP" link set pa netns probe-a && "$IP" link set pb netns probe-b && \
  "$IP" -n probe-a addr add 10.9.0.1/24 dev pa && "$IP" -n probe-b addr add 10.9.0.2/24 dev pb && "$IP" -n probe-a link set pa up && "$IP" -n probe-b link set pb up && "$IP" -n probe-a link set lo up
"$IP" netns exec probe-a ping -c1 -W1 10.9.0.2
"$IP" netns exec probe-a iptables -A INPUT -p tcp --dport 5000 -j DROP && "$IP" netns exec probe-a iptables -S
"$IP" netns exec probe-a tc qdisc add dev pa root tbf rate 100mbit burst 32kbit latency 400ms; echo tc=$?
"$IP" netns exec probe-a nvidia-smi -L
"$IP" netns del probe-a; "$IP" netns del probe-b
"$NCCLCHECK" --version
"$NCCLCHECK" node --no-python
ls /proc/driver/nvidia/ 2>&1; cat /proc/driver/nvidia/version 2>&1
