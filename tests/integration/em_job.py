"""A tiny real torch job for the config/run tests: one gloo all-reduce, result checked.

Ranks come from torchrun (env://) or, under srun / mpirun, from Slurm's / Open MPI's variables. EM_JOB_TIMEOUT bounds
init_process_group and the collective, so a job on a dead interface fails instead of hanging.
EM_JOB_ENV_OUT=FILE: the NCCL_* / GLOO_* variables the job ran with are written there (rank's
own file: FILE.RANK), for tests that check which environment a launcher gave it.
"""
import datetime
import os
import socket
import sys

import torch
import torch.distributed as dist

if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
    os.environ["RANK"] = os.environ["SLURM_PROCID"]
    os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
    os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")

if "RANK" not in os.environ and "OMPI_COMM_WORLD_RANK" in os.environ:
    os.environ["RANK"] = os.environ["OMPI_COMM_WORLD_RANK"]
    os.environ["WORLD_SIZE"] = os.environ["OMPI_COMM_WORLD_SIZE"]
    os.environ["LOCAL_RANK"] = os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", "0")

timeout = datetime.timedelta(seconds=float(os.environ.get("EM_JOB_TIMEOUT", "30")))
dist.init_process_group("gloo", timeout=timeout)
rank, world = dist.get_rank(), dist.get_world_size()
t = torch.tensor([float(rank + 1)] * 1024)
dist.all_reduce(t)
want = world * (world + 1) / 2
ok = bool((t == want).all())
print("rank %d/%d on %s: all_reduce %s (want %s) %s GLOO_SOCKET_IFNAME=%s"
      % (rank, world, socket.gethostname(), t[0].item(), want, "OK" if ok else "WRONG",
         os.environ.get("GLOO_SOCKET_IFNAME", "-")), flush=True)
out = os.environ.get("EM_JOB_ENV_OUT")
if out:
    with open("%s.%d" % (out, rank), "w") as f:
        for k in sorted(os.environ):
            if k.startswith(("NCCL_", "GLOO_")):
                f.write("%s=%s\n" % (k, os.environ[k]))
dist.barrier()
dist.destroy_process_group()
sys.exit(0 if ok else 1)
