/*
 * The signature table (see sigs.h). Texts come from NCCL's, torch's, Lightning's and Slurm's
 * format strings (../shared/research/nccl-internals.md §2.3, §4; compat-data.md §5–7); where a
 * message changed between versions every variant is an anchor.
 */
#include "explain/sigs.h"

#include <string.h>

#include "util/xalloc.h"

#define RERUN_NCCL "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP"
#define RERUN_NCCL_ENV "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP,ENV"
#define RERUN_TORCH "TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO"
#define RERUN_HANG "TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 " \
	"TORCH_DISTRIBUTED_DEBUG=DETAIL NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,COLL"
#define FIX_GLOO_IFNAME "export GLOO_SOCKET_IFNAME=$(ip -o route get \"$MASTER_ADDR\" | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p')"

/*
 * The CUDA error strings (cudaGetErrorString of the runtime's cudaError_t, CUDA 12 and 13
 * headers) as NCCL quotes them ("Cuda failure 217 'peer access ...'") and torch prints them
 * ("CUDA error: peer access ..."), and what each means for a distributed job. Matched on the
 * line in order: a string that another contains comes after it.
 */
#define CUDA_FIX_XID "dmesg | grep -i xid   # on {node}: an Xid names the GPU fault; reset the GPU (nvidia-smi -r) or reboot, and exclude the node if it recurs"
#define KERNEL_FAULT_CAUSE "a kernel stopped on a fault of its own: a bug in the application's or an extension's " \
	"kernel, a build for another GPU, or a faulty GPU (then an Xid in the kernel log)"
#define KERNEL_FAULT_FIX "CUDA_LAUNCH_BLOCKING=1 python ...   # rerun: the traceback then names the kernel that faulted\n" \
	CUDA_FIX_XID
static const struct explain_sig_variant cuda_errors[] = {
{
	.when = "unknown error",
	.title = "a CUDA call failed with 'unknown error' (999): the GPU or driver of {node} is in a bad state",
	.cause = "error 999 is the driver failing without a reason: a GPU fault (an Xid), a GPU that fell off "
		"the bus, or on NVSwitch systems a fabric manager restarted while processes held the GPUs",
	.fix = CUDA_FIX_XID "\n"
		"systemctl status nvidia-fabricmanager   # on NVSwitch systems: running, and not restarted since the GPUs were last reset",
},
{
	.when = "operation not supported",
	.title = "a CUDA call is not supported here ('operation not supported', 801)",
	.cause = "the driver or the environment lacks a feature in use: cuMem (virtual memory management, NCCL's "
		"default since 2.19 and torch's expandable_segments) and memory pools are missing under vGPU, WSL, "
		"some containers and old drivers",
	.fix = "export NCCL_CUMEM_ENABLE=0   # to test: NCCL goes back to cudaMalloc and legacy IPC\n"
		"nvidia-smi   # the driver version: update it to the one the CUDA of this NCCL needs",
},
{
	.when = "API call is not supported in the installed CUDA driver",
	.title = "the NVIDIA driver is older than the CUDA that NCCL was built with ('API call is not supported in the installed CUDA driver')",
	.cause = "NCCL (or torch's wheel) calls a CUDA driver API the installed driver does not have: the driver "
		"predates the CUDA version in NCCL's 'NCCL version x+cudaY' line",
	.fix = "nvidia-smi   # 'CUDA Version' is the newest CUDA this driver supports: upgrade the driver, or use a NCCL/torch built for that CUDA",
},
{
	.when = "CUDA driver version is insufficient for CUDA runtime version",
	.title = "the NVIDIA driver is too old for the CUDA runtime in use",
	.cause = "the CUDA runtime linked into NCCL/torch needs a newer driver than the one loaded",
	.fix = "nvidia-smi   # 'CUDA Version' is the newest CUDA this driver supports: upgrade the driver, or install a build for that CUDA",
},
{
	.when = "peer access is not supported between these two devices",
	.title = "CUDA peer-to-peer access is not supported between two GPUs of {node} (217)",
	.cause = "the two GPUs cannot map each other's memory: consumer boards without P2P, GPUs on different "
		"PCIe root complexes, or a virtualised or IOMMU-translated PCIe path",
	.fix = "nvidia-smi topo -p2p r   # which GPU pairs support P2P reads\n"
		"export NCCL_P2P_DISABLE=1   # NCCL then copies through host memory (SHM); also disable the framework's own P2P paths (vLLM/SGLang: --disable-custom-all-reduce)",
},
{
	.when = "an illegal memory access was encountered",
	.title = "a GPU kernel made an illegal memory access (700) on {node}",
	.cause = "a kernel read or wrote outside its memory: a bug in the application or a kernel it launched, or "
		"collectives whose buffers or counts differ between ranks; after it the CUDA context is unusable",
	.fix = "CUDA_LAUNCH_BLOCKING=1 python ...   # rerun: the traceback then names the kernel that faulted\n" CUDA_FIX_XID,
},
{
	.when = "unspecified launch failure",
	.title = "a GPU kernel crashed on {node} ('unspecified launch failure', 719)",
	.cause = "a kernel faulted without a specific reason: an application bug or a GPU fault",
	.fix = CUDA_FIX_XID,
},
{
	.when = "no kernel image is available for execution on the device",
	.title = "this NCCL/torch build has no kernels for the GPU of {node} ('no kernel image is available', 209)",
	.cause = "the binary was compiled without {gpu_arch} (a GPU newer than the build, or a build "
		"trimmed to other architectures)",
	.fix = "python3 -c 'import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())'   # the build's architectures must include {gpu_arch}\n"
		"upgrade NCCL/torch to a build that lists {gpu_arch}",
},
/*
 * cudaErrorSymbolNotFound (500): a kernel the library looks up by name is not in the binary for
 * this GPU. NCCL looks its kernels up when it initialises a device (enqueue.cc); a libnccl built
 * with NVCC_GENCODE for other GPUs (NCCL's Makefile builds only the architectures NVCC_GENCODE
 * names) reports this, as does a libnccl from another build shadowing the one expected.
 */
{
	.when = "named symbol not found",
	.title = "a GPU kernel this NCCL/torch build looks up is missing for the GPU of {node} ('named symbol not found', 500)",
	.cause = "the library was compiled without code for {gpu_arch}: a NCCL built from source with "
		"NVCC_GENCODE for other GPUs (a cluster that had older GPUs), or another libnccl found "
		"first on the library path",
	.fix = "cuobjdump --list-elf $(ldconfig -p | awk '/libnccl.so.2 /{print $NF; exit}') | grep -o 'sm_[0-9]*' | sort -u   # the architectures this NCCL carries: {gpu_arch} must be one\n"
		"make -j src.build NVCC_GENCODE=\"-gencode=arch=compute_XX,code=sm_XX ...\"   # rebuild NCCL with this GPU's compute capability added (or use a released NCCL build)",
},
/* cudaErrorInvalidDeviceFunction (98): the kernel has no code for this GPU, as 209 */
{
	.when = "invalid device function",
	.title = "a GPU kernel of this NCCL/torch build cannot run on the GPU of {node} ('invalid device function', 98)",
	.cause = "the binary has no code for {gpu_arch}: a GPU older than the oldest architecture the build "
		"keeps (Kepler and Maxwell were dropped by recent NCCL and torch builds), or newer than the build",
	.fix = "python3 -c 'import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())'   # the build's architectures must include {gpu_arch}\n"
		"a torch/NCCL build for {gpu_arch}: an older release that still ships it, or from source with TORCH_CUDA_ARCH_LIST (torch) and NVCC_GENCODE (NCCL) naming it",
},
{
	.when = "too many resources requested for launch",
	.title = "a GPU kernel asked for more resources than {node}'s GPU has ('too many resources requested for launch', 701)",
	.cause = "the kernel needs more registers or shared memory per block than this GPU offers: a NCCL build "
		"that predates this GPU model",
	.fix = "upgrade NCCL to a release that supports this GPU (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
},
{
	.when = "all CUDA-capable devices are busy or unavailable",
	.title = "the GPUs of {node} are busy or unavailable to this process (46)",
	.cause = "the GPU is in an exclusive compute mode and another process holds it, or it is being reset",
	.fix = "nvidia-smi -q | grep -i 'compute mode'   # Exclusive_Process allows one process per GPU: sudo nvidia-smi -c DEFAULT\n"
		"nvidia-smi   # which process holds the GPU",
},
{
	.when = "no CUDA-capable device is detected",
	.title = "this process sees no GPU on {node} (100)",
	.cause = "CUDA_VISIBLE_DEVICES is empty or wrong, or the container was started without GPUs",
	.fix = "echo $CUDA_VISIBLE_DEVICES; nvidia-smi -L   # in the failing process's environment (docker run --gpus all)",
},
{
	.when = "initialization error",
	.title = "CUDA failed to initialise in this process on {node} (3)",
	.cause = "the driver could not set up a context: CUDA used in a forked child after the parent initialised "
		"it, or a driver and kernel module that do not match",
	.fix = "nvidia-smi   # does the driver answer at all?\n"
		"use the 'spawn' start method for worker processes that use CUDA",
},
{
	.when = "uncorrectable ECC error encountered",
	.title = "a GPU of {node} hit an uncorrectable ECC memory error (214)",
	.cause = "the GPU's memory returned corrupted data: the GPU needs a reset, and a replacement if it recurs",
	.fix = "nvidia-smi -q -d ECC,PAGE_RETIREMENT   # on {node}\n"
		"exclude {node} (srun --exclude={node}) until the GPU is reset or replaced",
},
{
	.when = "system has unsupported display driver / cuda driver combination",
	.title = "the CUDA user-space driver does not match the kernel driver on {node} (803)",
	.cause = "libcuda.so (often a container's cuda-compat package) and the loaded kernel module are of different "
		"driver versions",
	.fix = "cat /proc/driver/nvidia/version; ldconfig -p | grep libcuda   # the two versions must match; drop cuda-compat from LD_LIBRARY_PATH or update the driver",
},
{
	.when = "forward compatibility was attempted on non supported HW",
	.title = "CUDA forward compatibility is in use on a GPU that does not support it (804)",
	.cause = "the cuda-compat libraries (newer libcuda in a container) only work on data-centre GPUs",
	.fix = "drop the cuda-compat directory from LD_LIBRARY_PATH, or upgrade the host driver",
},
{
	.when = "out of memory",
	.title = "CUDA itself could not get GPU memory on {node} ('CUDA error: out of memory', 2)",
	.cause = "unlike torch's 'CUDA out of memory. Tried to allocate', this comes from CUDA, often at start-up "
		"when a context is created: the GPU is already full with another job, or every rank of the node "
		"made its context on GPU 0 because it never selected its own GPU",
	.fix = "nvidia-smi   # on {node}: several of this job's processes on GPU 0 mean a missing torch.cuda.set_device(int(os.environ['LOCAL_RANK']))\n"
		"nvidia-smi --query-compute-apps=pid,used_memory --format=csv   # another job's processes holding the GPUs",
},
{
	.when = "uncorrectable NVLink error",
	.title = "an uncorrectable NVLink error hit a GPU of {node} (220)",
	.cause = "an NVLink of the GPU (to a peer GPU or an NVSwitch) failed while a kernel used it: a fault of the "
		"link, the GPU or the switch tray, logged by the driver as Xid 74",
	.fix = "nvidia-smi nvlink -e -i <gpu>   # on {node}: the error counters of each link\n"
		CUDA_FIX_XID,
},
{
	/* cudaErrorContained: Hopper's error containment (Xid 94 contained, 95 uncontained) */
	.when = "Invalid access of peer GPU memory over nvlink or a hardware error",
	.title = "a GPU of {node} stopped a kernel for an invalid access to a peer GPU's memory over NVLink, or a hardware error (226)",
	.cause = "the GPU's error containment ended the kernel: it touched peer memory that is no longer mapped "
		"(a buffer freed, or a peer process gone, while a collective ran) or the GPU or NVLink failed",
	.fix = CUDA_FIX_XID "\n"
		"CUDA_LAUNCH_BLOCKING=1 python ...   # rerun: the traceback then names the kernel that faulted",
},
{
	.when = "CUDA driver is a stub library",
	.title = "this process loaded the CUDA driver's stub library instead of the real driver on {node} (34)",
	.cause = "a directory of stubs (the toolkit's lib64/stubs, meant only for linking) comes before the "
		"driver's libcuda.so.1 in LD_LIBRARY_PATH or an rpath",
	.fix = "echo \"$LD_LIBRARY_PATH\" | grep -o '[^:]*stubs[^:]*'   # remove this directory from LD_LIBRARY_PATH\n"
		"ldconfig -p | grep libcuda.so.1   # the real driver library, from the NVIDIA driver",
},
{
	.when = "PTX JIT compiler library not found",
	.title = "the driver's PTX compiler is missing on {node} (221)",
	.cause = "a kernel shipped only as PTX is compiled by the driver when it loads, and the driver's "
		"libnvidia-ptxjitcompiler is not there: a container started without the driver's compute "
		"libraries, or a partial driver install",
	.fix = "ldconfig -p | grep ptxjitcompiler   # must be found in the failing container\n"
		"docker run --gpus all -e NVIDIA_DRIVER_CAPABILITIES=compute,utility ...   # the NVIDIA container toolkit mounts it",
},
{
	.when = "the provided PTX was compiled with an unsupported toolchain",
	.title = "the NVIDIA driver of {node} is older than the CUDA that compiled this code (222)",
	.cause = "a kernel shipped as PTX (no binary for this GPU) is compiled by the driver when it loads, "
		"and a driver older than the CUDA that produced the PTX cannot",
	.fix = "nvidia-smi   # 'CUDA Version' is the newest CUDA this driver supports: upgrade the driver, or install a build for that CUDA",
},
{
	.when = "the launch timed out and was terminated",
	.title = "a GPU kernel on {node} ran into the driver's run-time limit and was killed (702)",
	.cause = "a GPU that drives a display (an X server, or Windows/WSL's TDR) kills kernels that run more "
		"than a few seconds; a collective waiting for a late peer runs that long",
	.fix = "nvidia-smi --query-gpu=index,display_active,display_mode --format=csv   # on {node}: train on GPUs without a display, or stop the display server on them",
},
{
	.when = "peer mapping resources exhausted",
	.title = "a GPU of {node} has no peer mappings left (711)",
	.cause = "without NVSwitch a GPU can map at most eight peer GPUs at once: a process group or framework "
		"enabling peer access among more than eight GPUs of the node",
	.fix = "nvidia-smi topo -m   # how the GPUs connect\n"
		"export NCCL_P2P_DISABLE=1   # to test: NCCL copies through host memory instead; or keep each process group within eight GPUs",
},
{
	.when = "MPS client failed to connect to the MPS control daemon",
	.title = "CUDA MPS is configured on {node} but its daemon does not answer (805)",
	.cause = "the process looked for an MPS control daemon (CUDA_MPS_PIPE_DIRECTORY, or the default pipe "
		"directory because one ran) that is not running or belongs to another user",
	.fix = "echo get_server_list | nvidia-cuda-mps-control   # on {node}: is the daemon up for this user?\n"
		"nvidia-cuda-mps-control -d   # start it, or unset CUDA_MPS_PIPE_DIRECTORY to run without MPS",
},
{
	.when = "device doesn't have valid Grid license",
	.title = "the virtual GPU of {node} has no valid NVIDIA license (102)",
	.cause = "an unlicensed vGPU limits CUDA; the licence client (nvidia-gridd) has no licence",
	.fix = "nvidia-smi -q | grep -i -A2 license   # on {node}: the status must be Licensed\n"
		"systemctl restart nvidia-gridd   # after fixing /etc/nvidia/gridd.conf",
},
{
	.when = "operation not permitted when stream is capturing",
	.title = "a call that CUDA-graph capture forbids ran while a stream was being captured (900)",
	.cause = "a CUDA graph (torch.cuda.graph, torch.compile's reduce-overhead mode, vLLM's and SGLang's "
		"graphs) recorded a synchronising call: a barrier, .item() or a CPU copy inside the captured "
		"region, another thread using the default stream, or an NCCL older than 2.9 (no graph support)",
	.fix = "python -c 'import torch; print(torch.cuda.nccl.version())'   # NCCL collectives can be captured from 2.9\n"
		"--enforce-eager   # vLLM (SGLang: --disable-cuda-graph): to confirm, run without graphs; then move the synchronising call out of the captured region",
},
{
	.when = "invalid resource handle",
	.title = "a CUDA handle was used where it does not belong on {node} ('invalid resource handle', 400)",
	.cause = "a stream, event or shared-memory handle of one GPU or process used from another: ranks of a "
		"node that never select their own GPU, or a handle made before a fork",
	.fix = "torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # in each rank before init_process_group\n"
		"CUDA_LAUNCH_BLOCKING=1 python ...   # rerun: the traceback then names the call",
},
{
	.when = "misaligned address",
	.title = "a GPU kernel faulted on {node} ('misaligned address', 716)",
	.cause = KERNEL_FAULT_CAUSE,
	.fix = KERNEL_FAULT_FIX,
},
{
	.when = "an illegal instruction was encountered",
	.title = "a GPU kernel faulted on {node} ('an illegal instruction was encountered', 715)",
	.cause = KERNEL_FAULT_CAUSE,
	.fix = KERNEL_FAULT_FIX,
},
{
	.when = "hardware stack error",
	.title = "a GPU kernel faulted on {node} ('hardware stack error', 714)",
	.cause = KERNEL_FAULT_CAUSE,
	.fix = KERNEL_FAULT_FIX,
},
{
	.when = "invalid program counter",
	.title = "a GPU kernel faulted on {node} ('invalid program counter', 718)",
	.cause = KERNEL_FAULT_CAUSE,
	.fix = KERNEL_FAULT_FIX,
},
{ .when = NULL },
};

const struct explain_sig explain_sigs[] = {
/* ---- NCCL: interfaces and bootstrap ------------------------------------------------------ */
{
	.id = "nccl.bootstrap.no_interface",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "no socket interface found" },
	.title = "NCCL found no usable socket interface for bootstrap",
	.cause = "NCCL_SOCKET_IFNAME (or NCCL_SOCKET_FAMILY) matches no interface that is up on this node: a typo, "
		"an interface that exists only on another node, a prefix that needs no '=', or (NCCL 2.28+) an "
		"interface that is down",
	.fix = "ip -o -4 addr show    # the interface names and addresses this node really has\n"
		EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL_ENV,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* bootstrap.cc: with NCCL_COMM_ID set, the bootstrap interface is the one whose subnet holds
	 * that address (ncclFindInterfaceMatchSubnet); NCCL_SOCKET_IFNAME is not consulted */
	.id = "nccl.bootstrap.comm_id_subnet",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "No usable listening interface found", "No interface found in the same subnet as remote address" },
	.title = "NCCL_COMM_ID is set but no local interface is in its subnet",
	.cause = "with NCCL_COMM_ID set NCCL bootstraps on the interface in the same subnet as that address "
		"(NCCL_SOCKET_IFNAME does not change it); this node has none: the hosts sit in different subnets",
	.fix = "unset NCCL_COMM_ID    # let torch pass the unique id through its TCPStore\n"
		"ip -o -4 addr show   # on every node: one address must share NCCL_COMM_ID's subnet, or NCCL_COMM_ID must differ per subnet (an address of the root each subnet reaches)",
	.rerun = RERUN_NCCL_ENV,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.socket.no_interface",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "NET/Socket : no interface found" },
	.title = "NCCL's socket transport found no IP interface",
	.cause = "the NET/Socket transport applies the same NCCL_SOCKET_IFNAME filter as bootstrap and found nothing",
	.fix = "ip -o -4 addr show\n" EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL_ENV,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.socket.family",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Address family not supported by protocol" },
	.also = "Socket creation failed",
	.title = "NCCL could not create a socket of the address family it chose",
	.cause = "NCCL_SOCKET_FAMILY or the chosen interface is IPv6 on one node and IPv4 on another, or the "
		"interface named in NCCL_SOCKET_IFNAME has no address of that family",
	.fix = "ip -o -4 addr show   # NCCL needs one IP interface that is up, even on one node; in a container run it with --network=host\n"
		"export NCCL_SOCKET_FAMILY=AF_INET\n" EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL_ENV,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* NCCL 2.27: NCCL_SOCKET_IFNAME matching nothing leaves an empty address (NVIDIA/nccl#1837) */
	.id = "nccl.socket.bad_family",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "is neither AF_INET(2) nor AF_INET6(10)" },
	.title = "NCCL connected to an empty address: NCCL_SOCKET_IFNAME={env:NCCL_SOCKET_IFNAME} matched no interface",
	.cause = "with NCCL_SOCKET_IFNAME naming an interface this node does not have, NCCL 2.27 goes on "
		"with an uninitialised address instead of failing, and the first connect reports its garbage family",
	.fix = "ip -o -4 addr show   # the interfaces this node really has\n" EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL_ENV,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.comm_id.invalid",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	/* socket.cc parsing NCCL_COMM_ID: getaddrinfo() failed, or no host:port form */
	.anchors = { "Invalid NCCL_COMM_ID", "error encountered when getting address info",
		     "No valid <IPv4_or_hostname>:<port> pair found", "No valid [IPv6]:port pair found" },
	.title = "NCCL_COMM_ID is malformed or does not resolve",
	.cause = "NCCL_COMM_ID must be <ipv4>:<port>, [<ipv6>]:<port> or <hostname>:<port>",
	.fix = "unset NCCL_COMM_ID    # torch does not need it\nexport NCCL_COMM_ID=10.0.0.1:29600   # the form NCCL accepts",
},
{
	.id = "nccl.bootstrap.truncated",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Message truncated : received" },
	.title = "NCCL bootstrap received a message of the wrong size",
	.cause = "the ranks speak different bootstrap protocols: almost always different NCCL versions on different "
		"nodes or containers (before 2.23 NCCL has no explicit version check)",
	.fix = "python -c 'import torch; print(torch.cuda.nccl.version())'   # on every node; make them equal\n"
		"pip install nvidia-nccl-cu12==<the version of rank 0>   # or the same container image everywhere",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.bootstrap.rank_count",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Bootstrap Root : mismatch in" },
	.title = "ranks passed different world sizes to NCCL",
	.cause = "two processes joined the same unique id with different nranks: WORLD_SIZE, --nnodes or "
		"--nproc-per-node differ between nodes; the others hang",
	.fix = "use the same --nnodes and --nproc-per-node (torchrun) or num_nodes/devices (Lightning) on every node",
},
{
	.id = "nccl.bootstrap.duplicate_rank",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "has already checked in" },
	.cap_after = "Bootstrap Root : ",
	.cap_stop = ",",
	.title = "two processes use the same NCCL rank ({})",
	.cause = "two processes claim the same rank: a duplicate RANK/NODE_RANK (--node-rank) on two nodes, or a "
		"reused unique id",
	.fix = "give every node its own rank: torchrun --node-rank=<0..N-1> (or export NODE_RANK=<0..N-1> for Lightning)",
},
{
	.id = "nccl.rank.invalid",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Invalid rank requested" },
	.cap_after = "Invalid rank requested : ",
	.title = "NCCL was given a rank outside the world ({})",
	.cause = "RANK >= WORLD_SIZE or WORLD_SIZE < 1: the launcher's rank/world arithmetic is wrong",
	.fix = "check RANK, WORLD_SIZE, NODE_RANK and --nproc-per-node on every node: RANK = NODE_RANK * nproc + LOCAL_RANK < WORLD_SIZE",
},
/* ---- NCCL: connections ------------------------------------------------------------------- */
{
	.id = "nccl.connect.refused",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	/* 2.12-2.20 also "socketStartConnect: Connect to X failed : Connection refused", and
	 * socketPollConnect's "returned 111(Connection refused)" */
	.anchors = { "Connection refused, exceeded", "exceeded retries (", "failed : Connection refused",
		     "(Connection refused)", "failed with error Connection refused" },
	.unless = "ibv_",	/* a verbs call failing with that errno is RDMA's, not a socket's */
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL's connection to {} was refused until it gave up",
	.cause = "nothing listened at the address a peer advertised: the peer process died or never started, it "
		"advertised an address of the wrong interface (docker0, lo), or a firewall REJECTs the port",
	.fix = EXPLAIN_FIX_IFNAME "\n"
		"sudo sysctl -w net.ipv4.ip_local_port_range='50000 51000'   # then open 50000-51000/tcp between the nodes",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.connect.timeout",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Connection timed out, exceeded", "exceeded timeouts (", "failed : Connection timed out",
		     "(Connection timed out)", "failed with error Connection timed out" },
	.unless = "ibv_",	/* a verbs call failing with that errno is RDMA's, not a socket's */
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL's connection to {} timed out until it gave up",
	.cause = "SYNs to that address are dropped: a firewall or security group DROPs NCCL's ephemeral ports, or "
		"the address belongs to an interface (public IP, docker0) the other node cannot reach",
	.fix = EXPLAIN_FIX_IFNAME "\n"
		"sudo sysctl -w net.ipv4.ip_local_port_range='50000 51000'   # then allow 50000-51000/tcp between the nodes",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.connect.no_route",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "No route to host, exceeded", "(No route to host)", "failed : No route to host",
		     "failed with error No route to host" },
	.unless = "ibv_",	/* a verbs call failing with that errno is RDMA's, not a socket's */
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL has no route to {}",
	.cause = "the peer's advertised address is in a network this node cannot reach (ARP fails or an ICMP "
		"host-unreachable came back): wrong interface, or a REJECT rule",
	.fix = EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.connect.unreachable",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Network is unreachable" },
	.unless = "gloo" SIG_UNTIL "c10d",	/* Gloo's and torch's store have their own rows */
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL found the network of {} unreachable",
	.cause = "this node has no route to the subnet of the address the peer advertised: the ranks bootstrap on "
		"interfaces in different subnets",
	.fix = EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* misc/socket.cc: "socketStartConnect: Connect to %s failed : %s" with EADDRNOTAVAIL, which
	 * connect() returns when no ephemeral port is left (or the source address vanished) */
	.id = "nccl.connect.no_port",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "failed : Cannot assign requested address" },
	.also = "onnect",
	.unless = "Call to bind",	/* nccl.bind.cannot_assign */
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL could not open a connection to {}: no local port or address left (EADDRNOTAVAIL)",
	.cause = "connect() found no free ephemeral port (many connections opened at once, as in all-to-all at "
		"scale, or sockets piling up in TIME_WAIT) or the local address it would use is gone",
	.fix = "sysctl net.ipv4.ip_local_port_range   # on every node: a narrow range runs out first\n"
		"ss -s   # many sockets in TIME_WAIT or established point to port exhaustion",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* misc/socket.cc: "socketStartConnect: Connect to %s failed : %s" with ECONNABORTED; the NCCL
	 * maintainer on NVIDIA/nccl#1515: a bug of NCCL's error handling, "most likely a secondary
	 * effect" of an earlier connect failure (2.24.3: "Avoid 'Software caused connection abort'
	 * errors on retries") */
	.id = "nccl.connect.aborted",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_SYMPTOM,
	.anchors = { "Software caused connection abort" },
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL's connection to {} was aborted (ECONNABORTED)",
	.cause = "the socket was aborted while NCCL retried a failed connect; the first failure (a refused or "
		"unreachable peer, a peer that died, a wrong interface) is the real cause",
	.fix = "read the first NCCL WARN of every rank, before this line: it names the connect that failed first\n"
		EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* NCCL <= 2.5 (include/socket.h): "Call to connect failed : <strerror>", 2.3/2.4 also
	 * "Call to connect timeout : <strerror>"; the strerror says why, as in today's messages */
	.id = "nccl.connect.failed_old",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Call to connect failed", "Call to connect timeout" },
	.title = "NCCL could not connect to a peer (an older NCCL's socket error)",
	.cause = "a bootstrap or socket-transport connection failed; the error after the colon says why",
	.fix = EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Connection refused",
			.title = "NCCL's connection to a peer was refused (an older NCCL's socket error)",
			.cause = "nothing listened at the address a peer advertised: the peer process died or never "
				"started, it advertised an address of the wrong interface (docker0, lo), or a firewall "
				"REJECTs the port",
			.fix = EXPLAIN_FIX_IFNAME "\n"
				"sudo sysctl -w net.ipv4.ip_local_port_range='50000 51000'   # then open 50000-51000/tcp between the nodes",
		},
		{
			.when = "Connection timed out",
			.title = "NCCL's connection to a peer timed out (an older NCCL's socket error)",
			.cause = "SYNs to the peer's advertised address are dropped: a firewall or security group DROPs "
				"NCCL's ports, or the address belongs to an interface the other node cannot reach",
			.fix = EXPLAIN_FIX_IFNAME "\n"
				"sudo sysctl -w net.ipv4.ip_local_port_range='50000 51000'   # then allow 50000-51000/tcp between the nodes",
		},
		{
			.when = "No route to host",
			.title = "NCCL has no route to a peer (an older NCCL's socket error)",
			.cause = "the peer's advertised address is in a network this node cannot reach: the wrong "
				"interface, or a REJECT rule",
			.fix = EXPLAIN_FIX_IFNAME,
		},
		{ .when = NULL },
	},
},
{
	.id = "nccl.connect.retrying",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "retrying (", "Call to connect returned" },
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL keeps retrying its connection to {}",
	.cause = "a few retries while peers start are normal; retries that go on mean the peer's address is "
		"filtered or wrong, and NCCL will give up after about 60 s of refusals (much longer on timeouts)",
	.fix = EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.socket.closed_by_peer",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Connection closed by remote peer" },
	.cap_after = "remote peer ",
	.title = "the NCCL peer {} closed its connection",
	.cause = "the remote process exited or crashed (read that rank's log first: its own error is the cause), or "
		"a middlebox reset the connection",
	.fix = "find the first rank that failed (the earliest error in its log) and fix that error",
	.rerun = RERUN_NCCL,
},
{
	.id = "nccl.socket.reset",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "failed : Connection reset by peer", "failed: Connection reset by peer", "Broken pipe" },
	.unless = "store->get",
	.title = "an NCCL socket was reset by its peer",
	.cause = "the peer process died mid-transfer or the network dropped the connection (MTU black hole, idle "
		"timeout of a NAT or load balancer)",
	.fix = "find the rank that died first and fix its error; if none died, check the path MTU: ping -M do -s 8972 <peer>\n"
		"if the resets keep coming from the same node: exclude that node (srun --exclude=<node>) and check its network",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.socket.progress_error",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "socket progress error" },
	.title = "NCCL's socket transport failed mid-transfer",
	.cause = "a peer died or the network broke during a collective",
	.fix = "find the rank that died first; if none did, test the link between the nodes under load",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.socket.wrong_type",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_WARN_ONLY,
	/* "socketFinalizeAccept[ from X]: wrong type 3 != 1"; 2.32 ATTN (misc/crypt.cc): "Wrong socket
	 * type from X (peer 3 != expected 1 -- peer connected to wrong NCCL socket)" */
	.anchors = { ": wrong type ", "Wrong socket type from" },
	.title = "a foreign connection reached an NCCL socket",
	.cause = "a peer connected to the wrong NCCL socket: two jobs share addresses, or a stale unique id was reused",
	.fix = "run one job per set of nodes, and start every rank of a job from the same launch",
},
{
	/* NCCL 2.32 ATTN (misc/socket.cc): a connection whose magic is not this job's is dropped */
	.id = "nccl.socket.magic_mismatch",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Socket magic mismatch from", "socket magic mismatch" },
	.cap_after = "ismatch from ",
	.cap_stop = " ,(",
	.title = "NCCL dropped a connection from {} that does not belong to this job (socket magic mismatch)",
	.cause = "something that is not a rank of this communicator connected to an NCCL port: a port scanner or "
		"health check, a rank of another job reusing the address, ranks started with different "
		"NCCL_SOCKET_MAGIC, or a peer that encrypts (NCCL 2.32 TLS: its ClientHello carries no magic) "
		"talking to one that does not; harmless alone, a hang when the real peer is the one dropped",
	.fix = "env | grep NCCL_SOCKET_MAGIC   # on every node: unset, or the same value everywhere\n"
		"ss -tnp | grep <the address the line names>   # which process connects from there",
	.rerun = RERUN_NCCL,
},
{
	/* NCCL 2.32 TLS (misc/socket.cc, ncclCrypt): peers that disagree about the pre-shared key */
	.id = "nccl.tls.handshake",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "TLS handshake from", "did not use the pre-shared key", "built without TLS support but a pre-shared key" },
	.title = "NCCL's TLS handshake between ranks failed: the ranks do not agree on encryption",
	.cause = "NCCL 2.32 encrypts its sockets when the application sets a pre-shared key; a peer without the same "
		"key, a peer that does not encrypt, or an NCCL built without TLS (libssl.so.3 missing) is rejected",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # every rank must run NCCL 2.32+ with TLS\n"
		"ldconfig -p | grep -E 'libssl.so.3|libcrypto.so.3'   # NCCL loads them at run time; give every rank the same key",
	.rerun = RERUN_NCCL,
},
{
	/* NCCL 2.32 ATTN (misc/crypt.cc): a connection that ended before NCCL's hello; an ATTN, not an
	 * error: NCCL resets it and keeps accepting */
	.id = "nccl.socket.closed_before_hello",
	.sev = SEV_INFO, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_BENIGN,
	.anchors = { "closed before socket hello", "Handshake receive from" },
	.cap_after = "eer ",
	.cap_stop = " ",
	.title = "a connection to an NCCL port closed before NCCL's hello: NCCL dropped it and kept listening",
	.cause = "something connected to an NCCL listening port and left without a word: a port scan, a load "
		"balancer or health check, a TCP reachability test (ncclcheck cluster's port tests do this), "
		"or a peer that died while connecting; harmless unless the ranks then wait for that peer",
	.fix = "ss -tnp | grep <the address the line names>   # which process connects from there, if it repeats",
	.rerun = RERUN_NCCL,
},
{
	.id = "nccl.accept.failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Accept failed", "TryAccept: exceeded error retry count" },
	.unless = "Interrupted system call",	/* nccl.accept.eintr */
	.title = "NCCL could not accept connections",
	.cause = "accept() kept failing: the network interface flapped, or the process ran out of file descriptors",
	.fix = "ulimit -n 1048576   # in the shell that launches training\nip -s link   # look for an interface going down",
	.rerun = RERUN_NCCL,
},
{
	/* misc/socket.cc 2.18.1-2.27.2: socketTryAccept retries EAGAIN only, so a signal that
	 * interrupts accept() fails the connection; 2.27.3 also retries EINTR (read in its source) */
	.id = "nccl.accept.eintr",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Accept failed: Interrupted system call" },
	.title = "a signal interrupted NCCL's accept() and NCCL gave up (EINTR)",
	.cause = "a signal reached the rank while NCCL waited in accept(); NCCL before 2.27.3 treats the "
		"interrupted call as a failure instead of retrying it",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # before 2.27.3 an interrupted accept is fatal: upgrade NCCL\n"
		"look for what signals the ranks (profilers and samplers, timers, a launcher's health checks)",
	.rerun = RERUN_NCCL,
},
{
	/* proxy.cc 2.12.7-2.16.1: the proxy service thread returned on any poll() failure, EINTR
	 * included; 2.16.2 retries EINTR ("Make service thread polling resistant to EINTR", its
	 * release commit, read in the diff) */
	.id = "nccl.proxy.poll_failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "[Proxy Service] Poll failed" },
	.title = "NCCL's proxy service thread stopped: its poll() failed",
	.cause = "the thread that serves NCCL's proxy requests returns when poll() fails; the ranks of that "
		"process then wait for it forever; 'Interrupted system call' is a signal (a profiler, a timer) "
		"that NCCL before 2.16.2 did not retry",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # before 2.16.2 an interrupted poll stops the proxy: upgrade NCCL\n"
		"look for what signals the ranks (profilers and samplers, timers, a launcher's health checks)",
	.rerun = RERUN_NCCL,
},
{
	.id = "nccl.bind.address_in_use",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Call to bind failed" },
	.also = "Address already in use",
	.title = "NCCL could not bind its fixed port: address already in use",
	.cause = "NCCL binds a fixed port only for NCCL_COMM_ID (or NCCL_RAS_ADDR): another process or a "
		"previous run still holds it",
	.fix = "ss -ltnp | grep <the NCCL_COMM_ID port>   # and stop the old process\nunset NCCL_COMM_ID",
},
{
	/* misc/ipcsocket.cc: the proxy's Unix socket (cuMem handle exchange, 2.19+) is an abstract
	 * name "/tmp/nccl-socket-<rank>-<hash>", per network namespace */
	.id = "nccl.uds.bind",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "UDS: Binding to socket" },
	.cap_after = "Binding to socket ",
	.cap_stop = " ",
	.title = "NCCL could not bind its proxy's Unix socket {}",
	.cause = "NCCL names the abstract Unix socket its proxy uses for cuMem handles by rank and a hash; "
		"another communicator in the same network namespace already holds that name (a second "
		"communicator of the same rank, or containers sharing the host's network)",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # NCCL 2.20.3 gives every communicator of a process the same name: upgrade to 2.20.5 or later\n"
		"ss -xlp | grep nccl-socket   # which process holds the name",
},
{
	.id = "nccl.bind.cannot_assign",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Call to bind failed" },
	.also = "Cannot assign requested address",
	.title = "NCCL could not bind: the address is not on this node",
	.cause = "NCCL_COMM_ID names an IP that rank 0's node does not have",
	.fix = "export NCCL_COMM_ID=<an IP of rank 0's node>:<port>   # or unset NCCL_COMM_ID",
},
{
	/* graph/xml.cc getPciPath: a GPU's or NIC's PCI path is missing from /sys, so topology
	 * detection fails */
	.id = "nccl.topo.sysfs",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Could not find real path of /sys/" },
	.cap_after = "real path of ",
	.cap_stop = " ",
	.title = "NCCL could not find a device's PCI path in /sys ({}): it cannot detect the topology",
	.cause = "NCCL reads the GPUs' and NICs' PCI tree from /sys; inside a sandbox or VM that hides or fakes it "
		"(gVisor, WSL, a masked or partial /sys mount, some virtual NICs) the path does not resolve",
	.fix = "ls -l /sys/class/pci_bus/   # in the failing container: the host's PCI buses must be listed (run it with the host's /sys)\n"
		"export NCCL_TOPO_FILE=/path/to/topo.xml   # where /sys cannot be exposed: a topology file (the cloud provider's for the VM type)",
},
{
	.id = "nccl.proxy.failed",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	.anchors = { "Failed to execute operation", "Proxy Call to rank", "Error encountered progressing operation=" },
	.title = "NCCL's proxy thread failed to set up a connection",
	.cause = "a follow-on error: the socket or IB error just before it in the same rank's log is the cause",
	.fix = "read the NCCL WARN line before this one in the same rank's log",
	.rerun = RERUN_NCCL,
},
/* ---- NCCL: networks, IB, plugins --------------------------------------------------------- */
{
	.id = "nccl.net.not_found",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Failed to initialize any NET plugin", "Error: network " },
	.title = "NCCL_NET names a network this node does not have",
	.cause = "NCCL_NET forces a transport (IB, a plugin) that is not available here, e.g. NCCL_NET=IB on a "
		"machine without InfiniBand/RoCE",
	.fix = "unset NCCL_NET    # let NCCL choose (it falls back to Socket)\nexport NCCL_NET=Socket   # or force TCP sockets",
	.rerun = RERUN_NCCL_ENV,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.ib.no_device",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "NET/IB : No device found" },
	.title = "NCCL found no InfiniBand/RoCE device and uses TCP sockets",
	.cause = "no active IB port (or NCCL_IB_HCA filtered them all); NCCL falls back to NET/Socket, which is "
		"fine on Ethernet-only clouds",
	.fix = "nothing to do on Ethernet-only nodes; on IB nodes: ibv_devinfo, and map /dev/infiniband into the container",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.ib.no_libibverbs",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Failed to open libibverbs", "Count not open libibverbs" },
	.title = "NCCL could not load libibverbs and uses TCP sockets",
	.cause = "rdma-core is not installed (common in containers); NCCL falls back to NET/Socket",
	.fix = "apt-get install -y libibverbs1 ibverbs-providers   # only if the nodes have InfiniBand/RoCE",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.ib.no_ip_interface",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "NET/IB : No IP interface found" },
	.title = "NCCL's IB transport found no IP interface for its out-of-band socket",
	.cause = "NCCL_SOCKET_IFNAME matches no interface, so IB cannot exchange its connection info",
	.fix = EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL_ENV,
	.check = EXPLAIN_CHECK_NODE,
},
/*
 * IB/RoCE async events and work-completion status codes (ibv_wc_status): every form NCCL printed,
 * "Got completion with error 12, opcode 0, len 0, vendor err 129" (<= 2.11), "Got completion from
 * peer <ip> with error 12, ..." (2.12-2.19), "... with status=12 opcode=0 len=0 vendor err 129 ..."
 * (2.20+) and the named status of 2.30+ ("status=IBV_WC_RETRY_EXC_ERR(12)", NVIDIA/nccl#2219).
 * Async events come first: a failing port explains the completion errors after it.
 */
{
	/* NVIDIA/nccl#905 (maintainer: "a flapping link"), #394 (GID table change, RoCE), #230.
	 * Formats: "Got async event : <ibv_event_type_str>" (<= 2.22); since 2.23 (net_ib common.cc)
	 * "async fatal event: <str>" for the device, "Got non-fatal async event: port error(10)",
	 * "GID table changed". */
	.id = "nccl.ib.async_event",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Got async event : port error", "Got async event : GID table change",
		     "Got async event : local catastrophic error", "Got async event : port flap",
		     "non-fatal async event: port error", "async fatal event: ",
		     "Got async error event: port error" },
	/* 2.28's "NET/IB : mlx5_0:1 GID table changed" has no "async event" words: see nccl.ib.gid_changed */
	.cap_after = "Got async event : " SIG_UNTIL "async fatal event: " SIG_UNTIL "Got async error event: ",
	.title = "the IB/RoCE port of {node} reported '{}': that node's link or HCA is failing",
	.cause = "NCCL's async thread got a port event from the HCA: 'port error' is the link going down "
		"(a flapping cable, port or switch port), 'GID table change' is the RoCE address of the port "
		"changing under a running job, 'local catastrophic error' is the HCA itself; every rank that "
		"talks through that port then fails or hangs (completion errors that follow are consequences)",
	.fix = "exclude {node} from the job (srun --exclude={node}, or drain it) and rerun without it\n"
		"ibstat; ibqueryerrors   # on {node}: port state and link-down / symbol-error counters; reseat or replace the cable or HCA",
	.check = "ncclcheck node   (on that node: RDMA devices, port state and rate)",
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "port error",
			.title = "the IB/RoCE port of {node} went down (async event 'port error'): that node's link is failing",
			.cause = "the HCA reported its port leaving the active state: a flapping or bad cable, transceiver "
				"or switch port; every rank that talks through that port then fails or hangs (completion "
				"errors that follow are consequences)",
			.fix = "exclude {node} from the job (srun --exclude={node}, or drain it) and rerun without it\n"
				"ibstat; ibqueryerrors   # on {node}: port state and link-down / symbol-error counters; reseat or replace the cable or transceiver",
		},
		{
			.when = "GID table change",
			.title = "the RoCE address of a port on {node} changed under the running job (async event 'GID table change')",
			.cause = "the GID table is derived from the interface's IP addresses: something re-assigned the "
				"address of the RoCE interface (DHCP, NetworkManager, a CNI plugin, a bond fail-over) while "
				"NCCL was using it; connections on the old GID then time out",
			.fix = "ip -o addr show; journalctl -u NetworkManager | tail   # on {node}: what changed the address of the RoCE interface; give it a static address\n"
				"show_gids   # on {node}: the GID index NCCL uses must keep its IPv4 address for the whole job",
		},
		{
			.when = "local catastrophic error",
			.title = "the HCA of {node} reported a catastrophic error (async event 'local catastrophic error')",
			.cause = "the device itself failed (hardware, firmware or a PCIe error); every queue pair on it is "
				"lost and the ranks of that node fail",
			.fix = "exclude {node} from the job (srun --exclude={node}, or drain it) and rerun without it\n"
				"dmesg | grep -iE 'mlx5|health|pcie'   # on {node}: the HCA's health report; update its firmware or replace it",
		},
		{ .when = NULL },
	},
},
{
	/* IBV_EVENT_QP_FATAL / QP_REQ_ERR / QP_ACCESS_ERR / CQ_ERR (ibv_event_type_str strings):
	 * NCCL 2.23+ prints "async fatal event on QP (<ptr>) ...: <str>", older ones
	 * "Got async event : <str>". A queue pair's own error; completion errors follow. */
	.id = "nccl.ib.async_qp_error",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "async fatal event on QP", "async fatal event on CQ",
		     "Got async event : local access violation work queue error",
		     "Got async event : invalid request local work queue error",
		     "Got async event : local work queue catastrophic error", "Got async event : CQ error" },
	.title = "an IB queue pair on {node} went into error (async QP event)",
	.cause = "the HCA put one of NCCL's queue pairs into the error state; the completion errors that follow "
		"on that connection are its consequences",
	.fix = "read the first completion error or port event near this line: it names the failing transfer\n"
		"ibstat; ibqueryerrors   # on {node}: port state and error counters",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "local access violation work queue error",
			.title = "an RDMA access to registered memory on {node} was refused (async QP event 'local access violation work queue error')",
			.cause = "a transfer through this queue pair touched memory it may not access: with GPU buffers "
				"the GPUDirect RDMA path (nvidia-peermem or DMA-BUF registration, ACS or the IOMMU on the "
				"PCIe path), or a peer that writes with keys of another registration (different NCCL "
				"versions or net plugins on the two ends)",
			.fix = "export NCCL_NET_GDR_LEVEL=0   # to confirm: without GPUDirect RDMA the error goes away (slower)\n"
				"lsmod | grep -E 'nvidia_peermem|nv_peer_mem'; sudo lspci -vvv | grep ACSCtl   # on {node}: GPUDirect module loaded, no SrcValid+ (ACS) on the PCIe bridges\n"
				"python3 -c 'import torch; print(torch.cuda.nccl.version())'   # on every node: the same NCCL and net plugin",
		},
		{
			.when = "invalid request local work queue error",
			.title = "the HCA of {node} rejected a request on an IB queue pair (async QP event 'invalid request local work queue error')",
			.cause = "the queue pair received a request it considers invalid (an opcode, length or address it "
				"does not accept): the two ends speak differently, different NCCL versions, net plugins or "
				"NCCL_IB_* settings, or the peer's buffers were released while traffic was in flight",
			.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # on every node: the same NCCL, the same net plugin (NET/Plugin lines) and the same NCCL_IB_* settings\n"
				"read the peer's log: an error or restart there comes first",
		},
		{
			.when = "local work queue catastrophic error",
			.title = "an IB queue pair on {node} hit a catastrophic error (async QP event 'local work queue catastrophic error')",
			.cause = "the queue pair failed on a transport error it could not report in a completion: usually a "
				"link or HCA failure on this node or the peer",
			.fix = "ibstat; ibqueryerrors   # on {node} and its peer: port state, link-down and symbol-error counters\n"
				"dmesg | grep -iE 'mlx5|infiniband'   # the HCA's own report",
		},
		{
			.when = "CQ error",
			.title = "an IB completion queue on {node} overflowed or failed (async event 'CQ error')",
			.cause = "the HCA could not post a completion (the completion queue overran or failed): a defect of "
				"the NCCL or net plugin in use, or an HCA fault",
			.fix = "upgrade NCCL and the net plugin to the current release\n"
				"dmesg | grep -iE 'mlx5|infiniband'   # on {node}: the HCA's own report",
		},
		{ .when = NULL },
	},
},
{
	/* The subnet events NCCL 2.23+ prints as "Got non-fatal async event: <str>(<n>)" (older:
	 * "Got async event : <str>"): the IB subnet manager re-swept the fabric or a port came back. */
	.id = "nccl.ib.async_event_nonfatal",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Got non-fatal async event", "Got async error event: ", "Got async event : port active",
		     "Got async event : SM change",
		     "Got async event : LID change", "Got async event : client reregistration",
		     "Got async event : P_Key change" },
	.unless = "port error",
	.title = "the IB fabric changed under the job on {node} (a non-fatal async event)",
	.cause = "the HCA reported a fabric event that does not break connections by itself; when errors follow "
		"in the same minute, the fabric event is where to look",
	.fix = "ibstat   # on {node}: port state and the subnet manager's LID\n"
		"ibdiagnet   # if errors follow: the fabric's own view (links, the subnet manager)",
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "port active",
			.title = "an IB/RoCE port of {node} came (back) up during the job (async event 'port active')",
			.cause = "a port returning to the active state in the middle of a job means it went down first: "
				"with a 'port error' before it, a flapping link",
			.fix = "ibqueryerrors   # on {node}: link-down counters; a port that flaps needs its cable or transceiver replaced\n"
				"exclude {node} (srun --exclude={node}) if the link keeps flapping",
		},
		{
			.when = "SM change",
			.title = "the IB subnet manager changed during the job (async event 'SM change')",
			.cause = "another subnet manager took over (fail-over or a restart): paths and LIDs may be "
				"reprogrammed, transfers in flight can time out",
			.fix = "journalctl -u opensm | tail   # or the UFM/SM logs: why the subnet manager changed\n"
				"ibdiagnet   # the fabric after the change",
		},
		{
			.when = "LID change",
			.title = "the LID of an IB port on {node} changed during the job (async event 'LID change')",
			.cause = "the subnet manager re-assigned the port's address: connections to the old LID break",
			.fix = "journalctl -u opensm | tail   # or the UFM/SM logs: why the subnet was re-swept\n"
				"ibstat   # on {node}: the port's LID now",
		},
		{
			.when = "client reregistration",
			.title = "the IB subnet manager asked {node}'s port to re-register (async event 'client reregistration')",
			.cause = "the subnet manager restarted or failed over and lost its registrations: a fabric event, "
				"harmless alone",
			.fix = "journalctl -u opensm | tail   # or the UFM/SM logs: why the subnet manager restarted",
		},
		{ .when = NULL },
	},
},
{
	/* status 12 = IBV_WC_RETRY_EXC_ERR. NVIDIA/nccl#426 (NCCL_IB_GID_INDEX=3 fixed it), #902 and
	 * #1170 (maintainer: the NICs cannot talk to each other: routing/fabric/RoCE configuration) */
	.id = "nccl.ib.retry_exceeded",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "with error 12,", "status=12 ", "IBV_WC_RETRY_EXC_ERR" },
	.also = "ompletion",
	.title = "IB/RoCE transport retry exceeded (completion status 12): the two NICs cannot reach each other",
	.cause = "status 12 means the sender got no acknowledgement within NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT. "
		"Right after start the NICs cannot talk at all: on RoCE a wrong GID index (a RoCE v1 or "
		"link-local GID), RoCE v2 traffic the switches do not route or filter, or a port down; in the "
		"middle of a run a failing link or a congested fabric",
	.fix = "show_gids   # on every node: the RoCE v2 GID that carries the node's IPv4 address\n"
		"export NCCL_IB_GID_INDEX=3   # the usual RoCE v2 IPv4 index; use the one show_gids shows\n"
		"ib_write_bw -d <hca> -x 3 <peer IP>   # perftest between the two nodes with the same GID index: it must pass before NCCL can\n"
		"export NCCL_IB_TIMEOUT=22   # only when the fabric is reachable but long or congested",
	.rerun = RERUN_NCCL,
},
{
	/* status 4 = IBV_WC_LOC_PROT_ERR. NVIDIA/nccl#928 (maintainer: "IB error 4 is usually due to
	 * ACS being enabled and breaking GPU Direct RDMA"; NCCL_NET_GDR_LEVEL=0 confirms), #214 */
	.id = "nccl.ib.local_protection",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "with error 4,", "status=4 ", "IBV_WC_LOC_PROT_ERR" },
	.also = "ompletion",
	.title = "IB local protection error (completion status 4): GPUDirect RDMA cannot reach GPU memory",
	.cause = "the NIC was refused access to a registered buffer; with GPU buffers this is PCI ACS (or "
		"an IOMMU) redirecting the NIC-to-GPU peer traffic, or a missing nvidia-peermem module",
	.fix = "sudo lspci -vvv | grep ACSCtl   # 'SrcValid+' on a PCIe bridge means ACS is on: disable it in the BIOS (or with setpci at boot)\n"
		"export NCCL_NET_GDR_LEVEL=0   # to confirm: without GPUDirect RDMA the error goes away (slower)\n"
		"lsmod | grep -E 'nvidia_peermem|nv_peer_mem'   # the GPUDirect kernel module must be loaded",
	.rerun = RERUN_NCCL,
},
{
	/* status 5 = IBV_WC_WR_FLUSH_ERR: the queue pair was already in error. NVIDIA/nccl#1353
	 * (maintainer: with vendor err 249, ACS or platform firmware) */
	.id = "nccl.ib.wr_flushed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_SYMPTOM,
	.anchors = { "with error 5,", "status=5 ", "IBV_WC_WR_FLUSH_ERR" },
	.also = "ompletion",
	.title = "IB work requests flushed (completion status 5): a consequence of an earlier error on the same connection",
	.cause = "status 5 is reported for every request still queued once a queue pair went into error; "
		"the first completion error with another status (or an async event) is the cause",
	.fix = "look above for the first completion error with another status, or a port event: fix that one\n"
		"sudo lspci -vvv | grep ACSCtl   # status 5 with vendor err 249 has been PCI ACS or platform firmware",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "vendor err 249",
		  .title = "IB work requests flushed (completion status 5, vendor err 249): ACS on the PCIe path or the server's firmware",
		  .cause = "status 5 follows an earlier failure of the queue pair (a completion error with another "
			"status, here or on the peer, is the cause when there is one); when it comes first with vendor "
			"err 249 NCCL's maintainers name two causes: ACS left on in the PCIe path between the GPUs and "
			"the NIC, which breaks GPUDirect RDMA, and outdated server platform firmware (BIOS/UEFI)",
		  .fix = "sudo lspci -vvv | grep ACSCtl   # 'SrcValid+' on a PCIe bridge means ACS is on: disable it in the BIOS (or with setpci at boot)\n"
			"export NCCL_NET_GDR_LEVEL=0   # to confirm: without GPUDirect RDMA the error goes away (slower)\n"
			"sudo dmidecode -s bios-version   # on {node}: update the server's BIOS/platform firmware to the vendor's latest (Dell: the maintainers' first suspect)" },
		{ .when = NULL },
	},
},
{
	/* status 10 = IBV_WC_REM_ACCESS_ERR: the responder refused an RDMA write into the memory
	 * region the requester named. NCCL writes into the peer's registered (GPU) buffer, so the
	 * peer's registration or its PCIe path is what is wrong, not this node. */
	.id = "nccl.ib.remote_access",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "with error 10,", "status=10 ", "IBV_WC_REM_ACCESS_ERR" },
	.also = "ompletion",
	.cap_after = "from peer ",
	.cap_stop = " ",
	.title = "IB remote access error (completion status 10): the peer {} refused the RDMA write into its buffer",
	.cause = "the remote NIC could not access the buffer it registered for NCCL: on that peer GPUDirect "
		"RDMA does not reach GPU memory (nvidia-peermem not loaded and no DMA-BUF, or ACS/IOMMU on its PCIe "
		"path), or the peer runs another NCCL whose registration differs",
	.fix = "export NCCL_NET_GDR_LEVEL=0   # to confirm: without GPUDirect RDMA the error goes away (slower)\n"
		"lsmod | grep -E 'nvidia_peermem|nv_peer_mem'; sudo lspci -vvv | grep ACSCtl   # on the peer: GPUDirect module loaded, ACS off (no SrcValid+)\n"
		"python3 -c 'import torch; print(torch.cuda.nccl.version())'   # on both nodes: the same NCCL",
	.rerun = RERUN_NCCL,
},
{
	/* status 13 = IBV_WC_RNR_RETRY_EXC_ERR: the peer had no receive posted for the retries */
	.id = "nccl.ib.rnr_retry",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "with error 13,", "status=13 ", "IBV_WC_RNR_RETRY_EXC_ERR" },
	.also = "ompletion",
	.title = "IB receiver-not-ready retries exceeded (completion status 13): the peer stopped receiving",
	.cause = "the peer posted no receive buffer for the whole RNR retry budget: its process is stuck, "
		"exiting or was killed (look at that rank's log first), rarely a fabric that delays its answers",
	.fix = "read the log of the peer rank first: the failure there (crash, OOM, another error) is the cause\n"
		"ibstat; ibqueryerrors   # on both nodes: port state and error counters",
	.rerun = RERUN_NCCL,
},
{
	/* The statuses without a row of their own, from ibv_wc_status (libibverbs verbs.h, the
	 * meanings of ibv_poll_cq(3)); NCCL prints the number ("with error N," <= 2.19, "status=N "
	 * 2.20-2.29) or, since 2.30, NCCL's ibvWcStatusStr name ("status=IBV_WC_REM_OP_ERR(11)").
	 * Statuses 3, 6, 14, 15, 17 and 18 belong to RD/EE or memory windows, which NCCL never uses. */
	.id = "nccl.ib.completion_error",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Got completion from peer", "Got completion with error" },
	/* status 5 is nccl.ib.wr_flushed's: one cause, one finding */
	.unless = "with error 5," SIG_UNTIL "status=5 " SIG_UNTIL "IBV_WC_WR_FLUSH_ERR",
	.cap_after = "status=",
	.cap_stop = " ",
	.title = "an InfiniBand transfer failed (status={})",
	.cause = "status 12 (retry exceeded) is a link or fabric problem, a dead peer or an NCCL_IB_TIMEOUT that "
		"is too small; status 5 (flush) is a follow-on error; status 4 (local protection) points at ACS/GPUDirect",
	.fix = "ibstat; ibv_devinfo   # port state and rate on both nodes\nexport NCCL_IB_TIMEOUT=22   # if the fabric is long or congested",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
#define IB_WC(n, name, t, c, f) \
		{ .when = "with error " #n ",", .title = t, .cause = c, .fix = f }, \
		{ .when = "status=" #n " ", .title = t, .cause = c, .fix = f }, \
		{ .when = "IBV_WC_" name "(", .title = t, .cause = c, .fix = f }
#define IB_FIX_SAME_NCCL "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # on both nodes: the same NCCL and the same net plugin (NET/Plugin lines), and the same NCCL_IB_* settings"
#define IB_FIX_GDR "export NCCL_NET_GDR_LEVEL=0   # to confirm: without GPUDirect RDMA the error goes away (slower)\n" \
	"lsmod | grep -E 'nvidia_peermem|nv_peer_mem'; sudo lspci -vvv | grep ACSCtl   # GPUDirect module loaded, and no SrcValid+ (ACS) on the PCIe bridges"
#define IB_FIX_HCA "dmesg | grep -iE 'mlx5|infiniband'; ibstat   # on {node}: HCA health, port state; update the HCA firmware and MLNX_OFED/rdma-core, or exclude the node"
		IB_WC(1, "LOC_LEN_ERR",
		      "IB local length error (completion status 1): a message did not fit the buffer posted for it",
		      "the receive posted for an incoming message was smaller than the message (or a send exceeded the "
		      "port's maximum): the two ends disagree on buffer sizes, almost always different NCCL versions, "
		      "net plugins or NCCL_BUFFSIZE/NCCL_IB_* settings between the ranks",
		      IB_FIX_SAME_NCCL),
		IB_WC(2, "LOC_QP_OP_ERR",
		      "IB local queue-pair operation error (completion status 2): the HCA rejected a work request",
		      "the work request broke a limit of the queue pair (scatter list, inline size, message size): an "
		      "HCA driver or firmware that does not support what this NCCL (or its net plugin) asks for",
		      IB_FIX_HCA "\n" IB_FIX_SAME_NCCL),
		IB_WC(7, "BAD_RESP_ERR",
		      "IB bad response (completion status 7): the peer's HCA answered with an unexpected transport opcode",
		      "the response that came back does not fit the request: a fabric that corrupts packets or an HCA "
		      "firmware fault on one of the two nodes",
		      "ibqueryerrors; ibdiagnet   # symbol and link errors on the path between the two nodes\n" IB_FIX_HCA),
		IB_WC(8, "LOC_ACCESS_ERR",
		      "IB local access error (completion status 8): an incoming RDMA write hit a buffer this NIC may not access",
		      "the NIC was refused access to the local registered buffer of an RDMA write with immediate: with GPU "
		      "buffers the GPUDirect RDMA path (nvidia-peermem or DMA-BUF, ACS or the IOMMU on the PCIe path)",
		      IB_FIX_GDR),
		IB_WC(9, "REM_INV_REQ_ERR",
		      "IB remote invalid request (completion status 9): the peer's HCA rejected what this node sent",
		      "the responder found the request invalid: an RDMA write outside the memory region the peer "
		      "registered, or an operation or length its queue pair does not accept; the two ends run different "
		      "NCCL versions, net plugins or NCCL_IB_* settings, or the peer's registration failed (its own log "
		      "has the first error)",
		      "read the peer's log first: an earlier error or a restart there invalidates its buffers\n" IB_FIX_SAME_NCCL),
		IB_WC(11, "REM_OP_ERR",
		      "IB remote operation error (completion status 11): the peer's HCA could not complete the operation",
		      "the responder failed to carry out a valid request, usually while writing into its own (GPU) "
		      "memory: GPUDirect RDMA on the peer (nvidia-peermem or DMA-BUF, ACS or the IOMMU on its PCIe path)",
		      IB_FIX_GDR "   # on the peer"),
		IB_WC(16, "REM_ABORT_ERR",
		      "IB remote abort (completion status 16): the peer aborted the operation",
		      "the responder aborted the operation in progress: its queue pair was torn down (the peer process "
		      "failed or exited) or its HCA failed",
		      "read the peer's log first: the failure there is the cause\n" IB_FIX_HCA),
		IB_WC(19, "FATAL_ERR",
		      "IB fatal error (completion status 19): the HCA reported a fatal transport error",
		      "a fatal error of the HCA itself (hardware or firmware): every queue pair on it fails",
		      "exclude {node} from the job (srun --exclude={node}) and rerun without it\n" IB_FIX_HCA),
		IB_WC(20, "RESP_TIMEOUT_ERR",
		      "IB response timeout (completion status 20): the peer did not answer in time",
		      "like status 12 the responder did not answer within NCCL_IB_TIMEOUT: the two NICs cannot reach each "
		      "other (routing, RoCE GID, a port down) or the fabric is congested",
		      "ib_write_bw -d <hca> <peer IP>   # perftest between the two nodes must pass before NCCL can\n"
		      "export NCCL_IB_TIMEOUT=22   # only when the fabric is reachable but long or congested"),
		IB_WC(21, "GENERAL_ERR",
		      "IB general error (completion status 21): the HCA reported an error it does not classify",
		      "a vendor-specific error: the 'vendor err' value on the line and the kernel log say which",
		      IB_FIX_HCA),
#undef IB_WC
		{ .when = NULL },
	},
},
{
	/* aws/aws-ofi-nccl#663: the security group needs inbound and outbound rules naming itself */
	.id = "nccl.ofi.av_insert",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Unable to insert remote address into address vector", "fi_av_insert failed" },
	.title = "EFA could not add a peer's address (address-vector insert failed)",
	.cause = "aws-ofi-nccl could not insert the peer's EFA address: EFA traffic between the instances is "
		"blocked (the security group must allow all traffic to and from itself, in both directions) or "
		"the peer's EFA device is not up",
	.fix = "aws ec2 describe-security-groups --group-ids <sg>   # needs an inbound AND an outbound rule: all traffic, source/destination = this same security group\n"
		"fi_info -p efa   # on both nodes: the EFA devices must be listed",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET FI_LOG_LEVEL=warn",
},
{
	/* aws-ofi-nccl platform-aws.cpp: FI_EHOSTUNREACH, which EFA returns when the security group
	 * drops the packets; the plugin prints this banner */
	.id = "nccl.ofi.security_group",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "the security group on either this instance or the peer instance" },
	.title = "EFA packets between the instances are dropped by a security group",
	.cause = "EFA traffic needs a security group that allows all traffic, inbound and outbound, to and from "
		"itself, on every instance of the job; a rule set for TCP ports only lets the TCP bootstrap pass and "
		"drops EFA's own traffic (aws-ofi-nccl reports FI_EHOSTUNREACH)",
	.fix = "aws ec2 authorize-security-group-ingress --group-id <sg> --protocol -1 --source-group <sg>   # all traffic from the group itself\n"
		"aws ec2 authorize-security-group-egress --group-id <sg> --ip-permissions 'IpProtocol=-1,UserIdGroupPairs=[{GroupId=<sg>}]'   # and to it",
},
#define OFI_FIX_DEVICES "fi_info -p efa   # inside the job's environment: the EFA devices libfabric sees\n" \
	"ls -l /dev/infiniband/   # every uverbs* device must be there and read-write for the job's user (docker run --device=/dev/infiniband/uverbs0 ...; Kubernetes: vpc.amazonaws.com/efa)"
{
	/* a failed completion of a transfer with a peer: the plugin prints the provider's own text
	 * (fi_cq_strerror; EFA's are libfabric's prov/efa/src/efa_errno.h), which names the cause */
	.id = "nccl.ofi.cq_error",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_VARIANT_CONF,
	.anchors = { "completed with error. RC:", "completed with error: err:", "Remote write completed with error",
		     "NET/OFI Request completed with error" },
	.title = "an aws-ofi-nccl transfer with a peer failed",
	.cause = "libfabric reported a failed send, receive or RDMA write; the provider's text in the parentheses "
		"says why, and a peer that died or restarted is the usual reason",
	.fix = "read the logs of the other ranks first: the one that failed first is the cause\n" OFI_FIX_DEVICES,
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET FI_LOG_LEVEL=warn",
	.variants = (const struct explain_sig_variant[]){
#define OFI_PEER_GONE(w) \
		{ .when = w, \
		  .title = "an aws-ofi-nccl transfer failed: the peer stopped answering (" w ")", \
		  .cause = "the EFA connection to the peer worked before and then broke: the peer process exited or " \
			"crashed, or its instance failed; the error here is a consequence", \
		  .fix = "read the logs of the other ranks: the first failure there (a Python error, an OOM kill, a node loss) is the cause" }
		OFI_PEER_GONE("Connection was reset by remote peer"),
		OFI_PEER_GONE("Unresponsive remote (was previously responsive)"),
		OFI_PEER_GONE("Unresponsive receiver (connection previously established)"),
#undef OFI_PEER_GONE
#define OFI_PEER_UNREACHED(w) \
		{ .when = w, \
		  .title = "an aws-ofi-nccl transfer failed: the peer was never reached (" w ")", \
		  .cause = "EFA never got an answer from the peer: a security group that does not allow all traffic " \
			"to and from itself, or a peer whose process or EFA device was not up", \
		  .fix = "aws ec2 describe-security-groups --group-ids <sg>   # needs an inbound AND an outbound rule: all traffic, source/destination = this same security group\n" \
			"read the peer's log: it must have started and initialised NCCL" }
		OFI_PEER_UNREACHED("Unreachable remote (never received a response)"),
		OFI_PEER_UNREACHED("Unresponsive receiver (reachable by EFA device but handshake failed)"),
#undef OFI_PEER_UNREACHED
		{ .when = NULL },
	},
},
{
	/* aws-ofi-nccl platform-aws.cpp: an instance type that requires GPUDirect RDMA found it off;
	 * the plugin then fails to initialise */
	.id = "nccl.ofi.gdr_disabled",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "GDR disabled on GDR-supported instance type" },
	.cap_after = "instance type ",
	.cap_stop = " ",
	.title = "aws-ofi-nccl found GPUDirect RDMA off on {}, where it is required",
	.cause = "the EFA provider did not offer GPU memory (FI_HMEM) to the plugin: FI_EFA_USE_DEVICE_RDMA=0, an "
		"EFA driver or libfabric too old for the instance, or GPU peer memory / DMA-BUF unavailable",
	.fix = "env | grep -E 'FI_EFA_USE_DEVICE_RDMA|FI_PROVIDER'   # FI_EFA_USE_DEVICE_RDMA must not be 0\n"
		"fi_info -p efa   # the EFA provider must be listed; install the EFA installer's libfabric and driver\n"
		"export OFI_NCCL_DISABLE_GDR_REQUIRED_CHECK=1   # only to run without GPUDirect RDMA meanwhile (slower)",
},
{
	/* aws-ofi-nccl platform-aws.c up to 1.13: on an EFA endpoint without 128-byte in-order
	 * aligned stores the plugin sets NCCL_PROTO=simple itself, and warns when the user's
	 * NCCL_PROTO allows LL/LL128 */
	.id = "nccl.ofi.nccl_proto",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "does not support 128 byte in-order aligned stores" },
	.title = "NCCL_PROTO allows LL/LL128 over an EFA endpoint that can corrupt them",
	.cause = "this instance's EFA endpoint does not guarantee 128-byte in-order aligned stores, which NCCL's "
		"LL and LL128 protocols rely on; the plugin would set NCCL_PROTO=simple, but the job's NCCL_PROTO "
		"overrides it, so results may be silently wrong",
	.fix = "unset NCCL_PROTO   # the plugin then sets NCCL_PROTO=simple itself; or export NCCL_PROTO=simple",
},
{
	/* NVIDIA/nccl#229 (maintainer: the OFI plugin did not initialise; libibverbs and the socket
	 * fallback messages after it are consequences) */
	.id = "nccl.ofi.no_provider",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	/* fi_getinfo() failing with -FI_ENODATA ("No data available"): no provider matched the hints */
	.anchors = { "Could not find any optimal provider", "Couldn't find any optimal provider",
		     "provider efa output empty list",
		     "fi_getinfo() call failed: No data available",
		     /* aws-ofi-nccl's plugin set-up when neither its RDMA nor its SENDRECV protocol found
		      * a provider */
		     "Unable to find a protocol that worked", "Insufficient Libfabric devices found" },
	.title = "aws-ofi-nccl found no EFA provider: NCCL falls back to TCP sockets (or fails)",
	.cause = "libfabric has no usable 'efa' provider in this process: the EFA software or driver is not "
		"installed, the container does not see the EFA devices, or LD_LIBRARY_PATH misses /opt/amazon/efa/lib",
	.fix = "fi_info -p efa   # must list the EFA devices; if empty: install the EFA software (aws-efa-installer) and pass the EFA devices into the container\n"
		"docker run --device=/dev/infiniband/uverbs0 ...   # one --device per /dev/infiniband/uverbs* on the host (Kubernetes: request vpc.amazonaws.com/efa from the EFA device plugin)\n"
		"export FI_PROVIDER=efa LD_LIBRARY_PATH=/opt/amazon/efa/lib:$LD_LIBRARY_PATH",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET FI_LOG_LEVEL=warn",
},
#define OFI_CAUSE_MEMLOCK "EFA pins every queue and buffer it uses, and the pinned memory counts against the " \
	"locked-memory limit (ulimit -l): a container or a batch system that keeps the default 64 KiB or 8 MiB " \
	"fails here; many processes on one device can also exhaust its resources"
#define OFI_FIX_MEMLOCK "ulimit -l   # in the job's environment: must be unlimited\n" \
	"docker run --ulimit memlock=-1:-1 ...   # containers; Slurm: PropagateResourceLimitsExcept=MEMLOCK and 'LimitMEMLOCK=infinity' in slurmd's unit; Kubernetes: the container runtime's default ulimits"
{
	/* aws-ofi-nccl's set-up of libfabric on a NIC (ofiutils, rdma and sendrecv protocols): every
	 * call's fi_strerror() is on the line; the text names the cause, the call does not */
	.id = "nccl.ofi.fabric_setup",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_VARIANT_CONF,
	.anchors = { "Couldn't create fabric.", "Couldn't open a fabric provider", "Couldn't create domain.",
		     "Couldn't open a fabric access domain", "Couldn't allocate endpoint.",
		     "Couldn't create completion queue", "Couldn't open CQ.", "Couldn't open AV." },
	.title = "aws-ofi-nccl could not set up libfabric on the EFA device (fabric, domain, endpoint or queue)",
	.cause = "the libfabric provider refused to open an object on the NIC; the error text after 'ERROR:' is "
		"its reason, and libfabric's own log says more",
	.fix = OFI_FIX_DEVICES,
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET FI_LOG_LEVEL=warn",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Cannot allocate memory",
		  .title = "aws-ofi-nccl could not set up libfabric on the EFA device: Cannot allocate memory",
		  .cause = OFI_CAUSE_MEMLOCK,
		  .fix = OFI_FIX_MEMLOCK },
		{ .when = "Permission denied",
		  .title = "aws-ofi-nccl could not set up libfabric on the EFA device: Permission denied",
		  .cause = "the process sees the EFA devices but may not open them: a container or cgroup device "
			"rule that lists /dev/infiniband/uverbs* without read-write access",
		  .fix = OFI_FIX_DEVICES },
		{ .when = "No such device",
		  .title = "aws-ofi-nccl could not set up libfabric on the EFA device: No such device",
		  .cause = "the EFA device libfabric listed is gone when the plugin opens it: the efa kernel "
			"module was unloaded or the device was reset, or the container lacks its device files",
		  .fix = "dmesg | grep -i efa   # a reset or a driver error of the EFA device\n" OFI_FIX_DEVICES },
		{ .when = NULL },
	},
},
{
	/* the same set-up, endpoint side (rdma protocol's rails, ofiutils' enable) */
	.id = "nccl.ofi.endpoint_setup",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_VARIANT_CONF,
	.anchors = { "Couldn't enable endpoint.", "Could not create Libfabric endpoint on rail",
		     "Could not create address vector on rail", "Couldn't bind EP-CQ.", "Couldn't bind EP-AV." },
	.title = "aws-ofi-nccl could not create a libfabric endpoint on the EFA device",
	.cause = "the libfabric provider refused to create or enable an endpoint (or its queue or address "
		"vector) on the NIC; the error text on the line, or the WARN before it, is its reason",
	.fix = OFI_FIX_DEVICES,
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET FI_LOG_LEVEL=warn",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Cannot allocate memory",
		  .title = "aws-ofi-nccl could not create a libfabric endpoint: Cannot allocate memory",
		  .cause = OFI_CAUSE_MEMLOCK,
		  .fix = OFI_FIX_MEMLOCK },
		{ .when = NULL },
	},
},
{
	/* fi_mr_regattr() of a buffer NCCL hands the plugin (host or GPU memory); the errno text is on
	 * the line only in the formats that print it */
	.id = "nccl.ofi.reg_mr",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_VARIANT_CONF,
	.anchors = { "Unable to register memory (type", "Couldn't register memory region with regattr",
		     "Could not register memory on", "CM: Unable to register memory",
		     "Local endpoint memory registration failed", "Could not register dummy buffer for flush",
		     "Failed to register memory for the control mailbox", "freelist extension registration failed" },
	.title = "aws-ofi-nccl could not register a buffer with the EFA device",
	.cause = "libfabric refused to register (pin) the memory: the locked-memory limit is too low for host "
		"buffers, or for GPU buffers the kernel cannot pin GPU memory for the NIC (no GPUDirect RDMA: "
		"nvidia-peermem not loaded, or an EFA driver without peer-memory or DMA-BUF support)",
	.fix = "ulimit -l   # in the job's environment: must be unlimited\n"
		"lsmod | grep -E 'nvidia_peermem|efa'   # GPU buffers: the GPUDirect RDMA module and the EFA driver must be loaded",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET FI_LOG_LEVEL=warn",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Cannot allocate memory",
		  .title = "aws-ofi-nccl could not register a buffer with the EFA device: Cannot allocate memory",
		  .cause = OFI_CAUSE_MEMLOCK,
		  .fix = OFI_FIX_MEMLOCK },
		{ .when = "Bad address",
		  .title = "aws-ofi-nccl could not register a buffer with the EFA device: Bad address",
		  .cause = "the kernel could not pin the buffer for the NIC; for GPU memory this is GPUDirect RDMA "
			"missing: nvidia-peermem is not loaded, or the EFA driver has neither peer-memory nor DMA-BUF "
			"support for this GPU driver",
		  .fix = "lsmod | grep -E 'nvidia_peermem|efa'   # both must be loaded for GPU buffers\n"
			"sudo modprobe nvidia_peermem   # or reinstall the EFA software (aws-efa-installer) after the GPU driver, so its driver supports GPUDirect RDMA" },
		{ .when = NULL },
	},
},
{
	/* aws-ofi-nccl loads CUDA itself (dlopen of libcuda/libcudart, the driver's entry points) */
	.id = "nccl.ofi.cuda",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Failed to find CUDA Runtime library", "Failed to find CUDA Driver library",
		     "NET/OFI CUDA initialization failed", "Failed to query CUDA driver version",
		     "Failed to query CUDA runtime version", "Insufficient driver to use CUDA function",
		     "No CUDA driver entry point functions available", "Failed to load CUDA runtime symbol" },
	.title = "aws-ofi-nccl could not load or use CUDA",
	.cause = "the plugin opens the CUDA driver and runtime on its own: libcuda.so or libcudart.so is not on "
		"the library path (a container started without the NVIDIA runtime, a CPU-only node), or the GPU "
		"driver is older than the CUDA the plugin was built for",
	.fix = "nvidia-smi   # the driver and the CUDA version it supports, inside the container\n"
		"ldconfig -p | grep -E 'libcuda.so|libcudart.so'   # both must be found; start containers with --gpus all (the NVIDIA container runtime)",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Insufficient driver",
		  .title = "aws-ofi-nccl needs a newer GPU driver for a CUDA function",
		  .cause = "the GPU driver is older than the CUDA runtime the plugin was built with, so a driver "
			"entry point it needs is missing",
		  .fix = "nvidia-smi   # 'CUDA Version' is the newest CUDA the driver supports: upgrade the driver or use a plugin and CUDA build no newer than it" },
		{ .when = NULL },
	},
},
{
	/* GIN (NCCL's GPU-initiated networking through the plugin) loads GDRCopy itself
	 * (libgdrapi.so, the gdrdrv module) and needs 2.5 for forced PCIe copies */
	.id = "nccl.ofi.gdrcopy",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Failed to initialize GDRCopy", "GIN requires GDRCopy 2.5+", "Failed to resolve libgdrapi.so symbol",
		     "Failed to resolve GDRCopy v2 API" },
	.title = "aws-ofi-nccl's GPU-initiated networking (GIN) could not use GDRCopy",
	.cause = "GIN needs the GDRCopy library (libgdrapi.so, 2.5 or newer) and its gdrdrv kernel module: the "
		"library is missing or older, or the module is not loaded on this node",
	.fix = "lsmod | grep gdrdrv; ldconfig -p | grep libgdrapi   # both must be there; install GDRCopy 2.5 or newer (library and gdrdrv module)",
},
{
	/* the plugin's own settings (OFI_NCCL_*), rejected where it reads or combines them */
	.id = "nccl.ofi.param",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "set to invalid value", "Invalid value for OFI_NCCL_", "Invalid value for EAGER_MAX_SIZE",
		     "Unable to find plugin protocol", "endpoint_per_communicator() != 0 are not supported together",
		     "NCCL_OFI_NIC_DUP_CONNS set on platform", "No viable endpoint found for TCP provider" },
	.also = "NET/OFI ",	/* "set to invalid value" alone is too common a phrase */
	.title = "aws-ofi-nccl rejected one of its settings (OFI_NCCL_*)",
	.cause = "an OFI_NCCL_* environment variable has a value the plugin cannot parse or use; the line names it",
	.fix = "env | grep -E '^(OFI_NCCL|NCCL_OFI)_'   # unset the one the line names, or give it a valid value (the plugin's README lists them)",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Unable to find plugin protocol",
		  .title = "aws-ofi-nccl: OFI_NCCL_PROTOCOL names no protocol it has",
		  .cause = "OFI_NCCL_PROTOCOL accepts RDMA or SENDRECV only",
		  .fix = "unset OFI_NCCL_PROTOCOL   # the plugin picks the protocol for the provider; or export OFI_NCCL_PROTOCOL=RDMA (or SENDRECV)" },
		{ .when = "EAGER_MAX_SIZE",
		  .title = "aws-ofi-nccl: OFI_NCCL_EAGER_MAX_SIZE is larger than OFI_NCCL_MIN_STRIPE_SIZE",
		  .cause = "the RDMA protocol needs the eager message limit no larger than the minimum stripe size",
		  .fix = "unset OFI_NCCL_EAGER_MAX_SIZE OFI_NCCL_MIN_STRIPE_SIZE   # the defaults fit; or keep EAGER_MAX_SIZE <= MIN_STRIPE_SIZE" },
		{ .when = "endpoint_per_communicator",
		  .title = "aws-ofi-nccl: an endpoint per communicator is not supported with a domain per thread",
		  .cause = "OFI_NCCL_ENDPOINT_PER_COMM=1 is set where the plugin uses a domain per thread (set by "
			"OFI_NCCL_DOMAIN_PER_THREAD or by the platform for this instance type)",
		  .fix = "unset OFI_NCCL_ENDPOINT_PER_COMM" },
		{ .when = "NIC_DUP_CONNS",
		  .title = "aws-ofi-nccl: OFI_NCCL_NIC_DUP_CONNS is set on an instance with GPUDirect RDMA",
		  .cause = "duplicating connections over a NIC is meant only for instances without GPUDirect RDMA",
		  .fix = "unset OFI_NCCL_NIC_DUP_CONNS" },
		{ .when = "TCP provider",
		  .title = "aws-ofi-nccl found no usable interface for libfabric's TCP provider",
		  .cause = "with the tcp provider the plugin drops loopback, excluded (OFI_NCCL_EXCLUDE_TCP_IF, "
			"default lo,docker0) and IPv6 (unless OFI_NCCL_USE_IPV6_TCP=1) interfaces, and none was left",
		  .fix = "ip -br addr   # the interfaces and their addresses\n"
			"export OFI_NCCL_EXCLUDE_TCP_IF=lo   # exclude fewer interfaces; or export OFI_NCCL_USE_IPV6_TCP=1 on an IPv6-only network" },
		{ .when = NULL },
	},
},
{
	/* the rdma protocol writes the topology it built for NCCL to a file NCCL_TOPO_FILE names:
	 * mkstemp() of OFI_NCCL_TOPO_FILE_TEMPLATE (default /tmp/aws-ofi-nccl-topo-XXXXXX) up to
	 * 1.14, memfd_create() after */
	.id = "nccl.ofi.topo_file",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Failed to create NCCL topology file from template", "Failed to create anonymous topology file",
		     "Failed to write NCCL topology", "Failed to write topology to NCCL topology file",
		     "Unable to flush NCCL topology file", "Failed to open NCCL topology file using file descriptor" },
	.title = "aws-ofi-nccl could not write the topology file it passes to NCCL",
	.cause = "the plugin writes the GPU-NIC topology it detected to a temporary file for NCCL: /tmp (or the "
		"directory of OFI_NCCL_TOPO_FILE_TEMPLATE) is full, read-only or missing, the template lacks its "
		"XXXXXX, or a sandbox forbids memfd_create in newer releases",
	.fix = "df -h /tmp; ls -ld /tmp   # writable and not full, inside the container\n"
		"export OFI_NCCL_TOPO_FILE_TEMPLATE=/dev/shm/aws-ofi-nccl-topo-XXXXXX   # releases that use a template: a writable place",
},
{
	.id = "nccl.ib.reg_mr",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "ibv_reg_mr" },
	.also = "failed",
	.title = "NCCL could not register memory with the IB device",
	.cause = "the locked-memory limit is too low (ulimit -l) or GPUDirect RDMA is unavailable",
	.fix = "ulimit -l unlimited   # or LimitMEMLOCK=infinity / docker --ulimit memlock=-1",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* misc/ibvwrap.cc: "Call to <verb> failed" / "... failed with error <strerror>" for the verbs
	 * NCCL opens a device and creates its queues with (ibv_modify_qp and ibv_reg_mr have rows) */
	.id = "nccl.ib.verbs_call",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Call to ibv_open_device failed", "Call to ibv_create_cq failed", "Call to ibv_create_qp failed",
		     "Call to ibv_alloc_pd failed", "Call to ibv_query_port failed", "Call to ibv_query_gid failed",
		     "Call to ibv_create_comp_channel failed", "Call to ibv_get_device_list failed" },
	.cap_after = "Call to ",
	.cap_stop = " ",
	.title = "an InfiniBand verbs call inside NCCL failed ({})",
	.cause = "NCCL could not set up the RDMA device: the device is not usable from this process, or a "
		"resource limit was hit",
	.fix = "ibv_devinfo   # in the failing process's environment: the devices and their port state\n"
		"ulimit -l   # must be unlimited (or very large) where NCCL runs",
	.rerun = RERUN_NCCL,
	.check = "ncclcheck node   (on that node: RDMA devices, port state and rate)",
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Cannot allocate memory",
			.title = "an InfiniBand verbs call ran out of lockable memory ({}: Cannot allocate memory)",
			.cause = "queues and registrations pin memory, and the locked-memory limit (ulimit -l) of this "
				"process is too small: the default 64 KB or 8 MB, an mpirun or a container that does not "
				"inherit the limit",
			.fix = "ulimit -l   # in the job's own environment (mpirun ... sh -c 'ulimit -l'): must print unlimited\n"
				"echo '* soft memlock unlimited' | sudo tee -a /etc/security/limits.conf; echo '* hard memlock unlimited' | sudo tee -a /etc/security/limits.conf   # then log in again; containers: docker run --ulimit memlock=-1",
		},
		{
			.when = "ibv_open_device",
			.title = "NCCL could not open the InfiniBand device (ibv_open_device failed)",
			.cause = "the HCA is listed but this process may not open it: a container without the RDMA device "
				"files (/dev/infiniband/uverbs*), missing permissions, or a user-space driver (libmlx5) that "
				"does not match the kernel's",
			.fix = "ls -l /dev/infiniband   # in the container: the uverbs devices must be there and readable\n"
				"docker run --device=/dev/infiniband --cap-add=IPC_LOCK ...   # or the RDMA device plugin in Kubernetes",
		},
		{ .when = NULL },
	},
},
{
	/* transport/p2p.cc (p2p.cu before 2.8): "failed to open CUDA IPC handle : <code> <string>" */
	.id = "nccl.p2p.ipc_open",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	/* p2p.cc: "failed to peer with device N(=busid): <code> <string>" from cudaDeviceEnablePeerAccess */
	.anchors = { "failed to open CUDA IPC handle", "failed to peer with device", "failed to get CUDA IPC handle",
		     /* p2p.cc 2.8+: exporting the local buffer over legacy CUDA IPC (without cuMem) */
		     "cudaIpcGetMemHandle failed" },
	.title = "NCCL could not open a peer GPU's memory through CUDA IPC",
	.cause = "the P2P transport maps the peer GPU's buffer with cudaIpcOpenMemHandle; the CUDA error on the "
		"line says why it failed",
	.fix = "nvidia-smi topo -p2p r   # which GPU pairs support P2P\n"
		"export NCCL_P2P_DISABLE=1   # to test it: NCCL copies through host memory instead",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "peer access is not supported",
			.title = "CUDA peer access is not supported between the GPUs NCCL paired for P2P",
			.cause = "NCCL chose its P2P transport for two GPUs that cannot map each other's memory: consumer "
				"boards, GPUs under different PCIe root complexes or a virtualised PCIe path, often with "
				"processes that see different CUDA_VISIBLE_DEVICES so NCCL cannot check the pair",
			.fix = "nvidia-smi topo -p2p r   # which GPU pairs support P2P reads\n"
				"export NCCL_P2P_DISABLE=1   # NCCL copies through host memory (SHM) instead",
		},
		{ .when = NULL },
	},
},
{
	/* net_ib/connect.cc: NCCL reads the RoCE type of a GID from sysfs to pick the index */
	.id = "nccl.ib.roce_sysfs",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "failed in ncclIbRoceGetVersionNum" },
	.title = "NCCL could not read the RoCE GID types from sysfs: it cannot choose a GID index",
	.cause = "NCCL reads /sys/class/infiniband/<dev>/ports/<port>/gid_attrs/types/<index> to find the RoCE v2 "
		"GID; inside a container (or with a restricted /sys) that file is missing or unreadable",
	.fix = "ls /sys/class/infiniband/*/ports/*/gid_attrs/types/   # inside the container: must be readable; run with the host's /sys (or the RDMA device plugin)\n"
		"export NCCL_IB_GID_INDEX=<index>   # only as a workaround: the RoCE v2 index show_gids lists on the host",
	.rerun = RERUN_NCCL_ENV,
},
{
	/* DMA-BUF registration refused (older kernels, open-vs-proprietary driver, NIC driver without
	 * dmabuf): NCCL_DMABUF_ENABLE=0 makes NCCL register through nvidia-peermem instead */
	.id = "nccl.ib.dmabuf",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "ibv_reg_dmabuf_mr" },
	.also = "failed",
	.title = "the NIC refused a DMA-BUF registration of GPU memory (ibv_reg_dmabuf_mr failed)",
	.cause = "NCCL saw DMA-BUF support on the GPU and tried to register GPU memory through it, but the kernel, "
		"the RDMA driver (MLNX_OFED/rdma-core) or the GPU driver in use cannot do DMA-BUF",
	.fix = "export NCCL_DMABUF_ENABLE=0   # register through nvidia-peermem instead (load it: sudo modprobe nvidia-peermem)\n"
		"uname -r; ofed_info -s   # DMA-BUF needs Linux 5.12+, an rdma-core/OFED with dmabuf and the open GPU kernel module",
	.rerun = RERUN_NCCL,
},
{
	/* graph/paths.cc / topo.cc: GPUDirect RDMA is decided per HCA; "Disabled" means no peer-memory
	 * module and no DMA-BUF. NCCL <= 2.22.3 only looks for nv_peer_mem (NVIDIA/nccl#1676). */
	.id = "nccl.ib.gdr_disabled",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "GPU Direct RDMA Disabled for HCA" },
	.unless = "NET/Socket",	/* sockets never do GPUDirect RDMA */
	.title = "GPUDirect RDMA is disabled on {node}: inter-node traffic is staged through host memory (slow)",
	.cause = "NCCL found neither a loaded peer-memory module (nvidia-peermem / nv_peer_mem) nor usable DMA-BUF "
		"for the HCA, so every transfer goes GPU -> host -> NIC; on one node only, that node lacks the module",
	.fix = "sudo modprobe nvidia-peermem; lsmod | grep -E 'nvidia_peermem|nv_peer_mem'   # on {node}: the peermem module must be loaded\n"
		"ls /sys/kernel/mm/memory_peers/   # nv_mem appears once the module is loaded",
	.rerun = RERUN_NCCL,
},
{
	/* wrap_ibv_modify_qp (misc/ibvwrap.cc) prints the errno; NCCL 2.27+ follows it with a HINT:
	 * ETIMEDOUT "NICs are not cross-rail connected ... NCCL_CROSS_NIC=0", EINVAL "the incorrect
	 * GID index is forced by NCCL_IB_GID_INDEX ... =-1". ENODEV: a GID whose netdev the container
	 * does not have; NCCL 2.26.2 skips GIDs a container cannot query (NVIDIA/nccl#1573). */
	.id = "nccl.ib.modify_qp",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "ibv_modify_qp failed" },
	.title = "NCCL could not bring up an IB queue pair",
	.cause = "wrong RoCE GID index or the two ports are in different subnets",
	.fix = "show_gids   # pick the RoCE v2 GID with an IPv4 address\nexport NCCL_IB_GID_INDEX=3",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Connection timed out",
			.title = "a queue pair between two NICs timed out (ibv_modify_qp: Connection timed out): the two HCAs cannot reach each other",
			.cause = "ETIMEDOUT on the queue pair means the two ports never answered each other: NCCL paired "
				"HCAs on different rails (NCCL's own hint), NCCL_IB_HCA lists a port that is not on the other "
				"nodes' network, or on RoCE the GID index picked a link-local or RoCE v1 GID",
			.fix = "export NCCL_CROSS_NIC=0   # NCCL's own advice: keep traffic on one rail (NIC i talks to NIC i)\n"
				"export NCCL_IB_HCA=<the HCAs wired to the fabric, e.g. mlx5_0,mlx5_1>   # when some listed ports are not connected to the other nodes' network: leave them out\n"
				"show_gids   # on RoCE: a link-local (fe80::) or RoCE v1 GID times out the same way; force the RoCE v2 index with an IPv4 address: export NCCL_IB_GID_INDEX=<it>\n"
				"ib_write_bw -d <hca> <peer IP>   # between the two HCAs the log names: it fails the same way when they cannot reach each other",
		},
		{
			.when = "Invalid argument",
			.title = "the RoCE queue pair was refused (ibv_modify_qp: Invalid argument): the GID index NCCL uses is not valid on this port",
			.cause = "EINVAL when the queue pair is moved to RTR means the GID index (NCCL_IB_GID_INDEX={env:NCCL_IB_GID_INDEX}) "
				"names no usable GID of the port: an index forced for another node or image, a RoCE v1 or "
				"link-local GID, or (in a container) a GID table the container does not see",
			.fix = "unset NCCL_IB_GID_INDEX   # NCCL 2.21+ picks the RoCE v2 GID of the interface itself (NCCL_IB_GID_INDEX=-1 means the same)\n"
				"show_gids   # on every node: the index whose GID carries the node's IPv4 address and says v2; set that one if you must force it",
		},
		{
			.when = "No such device",
			.title = "the RoCE queue pair was refused (ibv_modify_qp: No such device): the GID index names a GID this container cannot use",
			.cause = "ENODEV means the GID's network device is not in this network namespace: a GID index forced "
				"with NCCL_IB_GID_INDEX={env:NCCL_IB_GID_INDEX} (often 0, a link-local RoCE v1 GID) or picked from a "
				"GID table the container sees only in part",
			.fix = "unset NCCL_IB_GID_INDEX   # let NCCL pick the RoCE v2 GID of the interface; NCCL 2.26.2+ also skips GIDs a container cannot query (NVIDIA/nccl#1573)\n"
				"show_gids   # inside the container: the RoCE v2 index with the pod's IPv4 address, if one must be forced\n"
				"export NCCL_IB_HCA=^<the HCA of the failing queue pair>   # when the container cannot use that HCA at all (an OFED in the image that does not match the host's driver): NCCL uses the others, or sockets (NCCL_IB_DISABLE=1)",
		},
		{ .when = NULL },
	},
},
{
	/* graph/topo.cc and transport/net_ib.cc of 2.24.3-2.25.1: NIC fusion failing to build a
	 * virtual NIC is fatal; 2.26.2 logs it at INFO ("...and failed. vProps=...") and goes on */
	.id = "nccl.net.merge_failed",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Tried merging multiple devices together and failed. Try",
		     "Trying to merge multiple devices together with different link_layer" },
	.title = "NCCL's NIC fusion could not merge the NICs it chose (e.g. IB and RoCE ports together)",
	.cause = "NCCL 2.24+ fuses NICs under one PCI switch into a virtual NIC; ports of different link layers "
		"(InfiniBand and RoCE) cannot be fused, and in 2.24-2.25 the failure ends init",
	.fix = "export NCCL_NET_MERGE_LEVEL=LOC   # no NIC fusion: NCCL's own advice in the message\n"
		"export NCCL_IB_HCA=<the HCAs of one link type>   # or select NICs of only one link layer (ibv_devinfo shows link_layer)",
	.rerun = RERUN_NCCL,
},
{
	/* graph/topo.h: the NET device id the search wants is not in the topology (NVIDIA/nccl#1748:
	 * NIC fusion in 2.26; NVIDIA-NeMo/Speech#13996: a newer NCCL, 2.27.3, solved it) */
	.id = "nccl.net.id_not_found",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Could not find NET with id" },
	.title = "NCCL's topology has no network device it expects (Could not find NET with id)",
	.cause = "NCCL's topology search refers to a NIC the topology does not hold: NICs that differ between "
		"nodes (NCCL_IB_HCA, a missing or down port on one node) or an NCCL defect in the release in use",
	.fix = "ibv_devinfo | grep -E 'hca_id|state'   # on every node: the same HCAs, all PORT_ACTIVE\n"
		"python3 -c 'import torch; print(torch.cuda.nccl.version())'   # the reporter of NVIDIA-NeMo/Speech#13996 fixed it by upgrading NCCL to 2.27.3",
	.rerun = RERUN_NCCL,
},
{
	.id = "nccl.net.device_count_mismatch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Detected mixed local Net device counts" },
	.title = "nodes see different numbers of network devices",
	.cause = "heterogeneous NICs, or NCCL_IB_HCA differs between nodes",
	.fix = "make NCCL_IB_HCA and the NIC set equal on every node\nexport NCCL_IGNORE_NET_MISMATCH=1   # only if the mix is intended",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* aws-ofi-nccl: "EFA provider requires at least libfabric version 1.22.0." (newer plugins
	 * refuse older libfabric; EFA installer upgrades it) */
	.id = "nccl.ofi.libfabric_old",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "requires at least libfabric version" },
	.cap_after = "libfabric version ",
	.cap_stop = " .\n" SIG_UNTIL ". ",
	.title = "the aws-ofi-nccl plugin needs a newer libfabric than the one it loaded",
	.cause = "the OFI plugin was built for a newer libfabric than the one on the library path (an old EFA "
		"installer, or a container that ships its own libfabric ahead of /opt/amazon/efa/lib)",
	.fix = "fi_info --version   # the libfabric the job loads\n"
		"export LD_LIBRARY_PATH=/opt/amazon/efa/lib:$LD_LIBRARY_PATH   # the host's EFA libfabric first; or upgrade the EFA installer",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET FI_LOG_LEVEL=warn",
},
{
	/* plugin/net.cc: a libnccl-net*.so was found but its ABI is not one this NCCL accepts, or its
	 * init failed; NCCL then tries the next network */
	.id = "nccl.plugin.unusable",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Failed to initialize NET plugin", "External network plugin" },
	.unless = "plugin IB",	/* NCCL's internal IB "plugin" fails to start on every node without IB */
	.title = "an NCCL network plugin is installed but does not work with this NCCL",
	.cause = "NCCL found a libnccl-net*.so (aws-ofi-nccl, a SHARP or gIB plugin) whose interface version or "
		"dependencies do not fit this NCCL, or whose init failed (its devices or libraries are missing); "
		"NCCL falls back to another network, often TCP sockets, or fails when NCCL_NET demands it",
	.fix = "export NCCL_NET_PLUGIN=none   # to test: the internal IB/Socket transports only\n"
		"ls -l $(ldconfig -p | grep -o '/[^ ]*libnccl-net[^ ]*')   # the plugin found; install the release built for this NCCL version",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
},
{
	/* plugin_open.cc prints dlerror(): a plugin linked against another NCCL or libfabric */
	.id = "nccl.plugin.symbol",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	/* the rare literal is the anchor: "/Plugin: " alone is on every benign "NET/Plugin: Could
	 * not find" line, and each anchor hit costs a search for the other literal */
	.anchors = { "undefined symbol" },
	.also = "/Plugin: ",
	.cap_after = "undefined symbol: ",
	.cap_stop = " ,",
	.title = "an NCCL plugin could not be loaded: undefined symbol {}",
	.cause = "the plugin library was built against another version of a library it needs (libfabric, "
		"CUDA, NCCL's plugin headers) than the one this process loads, so NCCL ignores it",
	.fix = "ldd $(ldconfig -p | grep -o '/[^ ]*libnccl-net[^ ]*' | head -1)   # which libraries the plugin resolves; install the plugin built for them\n"
		"export NCCL_NET_PLUGIN=none   # to test without the plugin",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
},
{
	/* plugin_open.cc prints dlerror(): a library under the plugin is older than the one it was
	 * linked with (libfabric needs libefa.so.1 from a newer rdma-core, the EFA installer's) */
	.id = "nccl.ofi.plugin_load",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "not found (required by" },
	.also = "/Plugin: ",
	.cap_after = "version `",
	.cap_stop = "'",
	.title = "the NCCL network plugin could not be loaded: symbol version {} not found",
	.cause = "the plugin or the libfabric under it needs a newer library than the one found first: typically "
		"libefa.so.1 or libibverbs.so.1 of the distribution's rdma-core ahead of the one the EFA/OFED "
		"installer ships, so NCCL runs without the plugin (TCP sockets) or fails",
	.fix = "ldd /opt/amazon/efa/lib/libfabric.so.1 | grep -E 'libefa|libibverbs'   # which rdma-core libraries it resolves\n"
		"export LD_LIBRARY_PATH=/opt/amazon/efa/lib:$LD_LIBRARY_PATH   # the installer's rdma-core and libfabric first; or reinstall the EFA software so rdma-core matches",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
},
{
	.id = "nccl.plugin.absent",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "NET/Plugin: Could not find", "NET/Plugin : Plugin load returned", "Failed to find libnccl-net", "No plugin found" },
	/* a path 2.27.3 mangled is nccl.plugin.path_mangled: the user asked for a plugin */
	.unless = "Could not find: libnccl-net-/" SIG_UNTIL "Could not find: libnccl-net-.",
	.title = "benign: no external NCCL network plugin (libnccl-net.so) is installed",
	.cause = "NCCL looks for an optional plugin and uses its internal IB/Socket transports without one; this "
		"line is not the failure",
	.fix = "nothing to do",
},
{
	/* plugin/plugin_open.cc of 2.27.3: a name that does not start with "lib" and end in ".so" is
	 * only tried as "libnccl-<type>-<name>.so", so a path becomes "libnccl-net-/opt/x.so.so"
	 * (2.26 tried the name as given first and listed it first) */
	.id = "nccl.plugin.path_mangled",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Could not find: libnccl-net-/", "Could not find: libnccl-net-.",
		     "Could not find: libnccl-tuner-/", "Could not find: libnccl-tuner-.",
		     "Could not find: libnccl-profiler-/", "Could not find: libnccl-profiler-." },
	.cap_after = "Could not find: ",
	.cap_stop = " ",
	.title = "NCCL did not load the plugin given by a path: it looked for {}",
	.cause = "the plugin variable (NCCL_NET_PLUGIN, NCCL_TUNER_PLUGIN, NCCL_PROFILER_PLUGIN) holds a path, "
		"and this NCCL only tried 'libnccl-<type>-<path>.so'; the plugin is not loaded and NCCL "
		"falls back to its internal transport or tuner",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # NCCL 2.27.3 mangles plugin paths; 2.27.5 restores them\n"
		"export NCCL_NET_PLUGIN=libnccl-net-XXX.so   # the plugin's file name, its directory in LD_LIBRARY_PATH: a lib*.so name is opened as given",
},
{
	.id = "nccl.env.echo",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "NCCL_P2P_LEVEL set by environment", "NCCL_NET_GDR_LEVEL set by environment", "NCCL_IB_DISABLE set by environment" },
	.title = "benign: NCCL echoes an environment setting",
	.cause = "lines '<NAME> set by environment to <value>' only confirm that NCCL read a variable",
	.fix = "nothing to do",
},
{
	/* graph/connect.cc (NCCL_MIN/MAX_NCHANNELS, the older NCCL_MIN/MAX_NRINGS) and
	 * graph/tuning.cc getNthreads (NCCL_NTHREADS, NCCL_LL128_NTHREADS): a value out of range is
	 * clamped and the job goes on; a WARN up to 2.26, INFO since */
	.id = "nccl.env.out_of_range",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "User asked for a maximum of", "User asked for a minimum of", "Invalid NCCL_NTHREADS",
		     "Invalid NCCL_LL128_NTHREADS" },
	.title = "an NCCL channel or thread-count setting is out of range: NCCL uses the nearest valid value",
	.cause = "NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS (NCCL_MIN_NRINGS / NCCL_MAX_NRINGS) or NCCL_NTHREADS / "
		"NCCL_LL128_NTHREADS is below the minimum, above the maximum or not a multiple of the warp size (32); "
		"NCCL clamps it, so the tuning meant by it does not apply",
	.fix = "env | grep -E 'NCCL_(MIN|MAX)_N(CHANNELS|RINGS)|NCCL_(LL128_)?NTHREADS'   # the setting the line names\n"
		"unset NCCL_MIN_NCHANNELS NCCL_MAX_NCHANNELS NCCL_NTHREADS NCCL_LL128_NTHREADS   # or set a value in range",
},
/* ---- NCCL: devices, memory, topology ----------------------------------------------------- */
{
	/* graph/xml.h: "Attribute %s of node %s not found" while NCCL reads its topology XML:
	 * NVIDIA/nccl#379 (an injected file, fewer GPUs than it describes; fixed in 2.8),
	 * aws/aws-ofi-nccl#785 (the plugin's static p5 XML with a subset of the GPUs; >= 1.11
	 * generates it) */
	.id = "nccl.topo.xml_attribute",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Attribute " },
	.also = " of node ",
	.cap_after = "Attribute ",
	.title = "NCCL's topology lacks an attribute ({}): an injected topology file does not describe this run",
	.cause = "NCCL read a topology XML that does not describe the machine as used: NCCL_TOPO_FILE (in the "
		"environment or /etc/nccl.conf), or a net plugin's static file (aws-ofi-nccl before 1.11 shipped "
		"p4d/p5 XMLs), with a subset of the GPUs or on another machine type; NCCL before 2.8 also failed "
		"on a valid file when fewer GPUs than it describes were used",
	.fix = "unset NCCL_TOPO_FILE   # and remove it from /etc/nccl.conf and ~/.nccl.conf: rerun on NCCL's own detection\n"
		"export NCCL_TOPO_DUMP_FILE=/tmp/topo.xml   # rerun: NCCL writes what it detected, the base for a file that matches\n"
		"upgrade aws-ofi-nccl to 1.11 or later where it is in use: it then writes the topology for the GPUs in use",
	.rerun = RERUN_NCCL,
},
{
	/* graph/xml.cc ncclTopoGetXmlFromFile: fopen of NCCL_TOPO_FILE failed; NCCL returns success
	 * and goes on with its own detection (a WARN in 2.7-2.26, INFO since) */
	.id = "nccl.topo.file_unreadable",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Could not open XML topology file" },
	.cap_after = "topology file ",
	.cap_stop = " ",
	.title = "NCCL could not open the topology file NCCL_TOPO_FILE={}: it ignores it and detects the topology itself",
	.cause = "NCCL_TOPO_FILE (in the environment or /etc/nccl.conf) names a file this process cannot read: a "
		"path of the host that is not mounted into the container, a typo, or its permissions; NCCL then "
		"uses what /sys and NVML show, which in a VM can hide the real PCI and NVLink layout (slower "
		"rings, or other graphs than the nodes that read the file)",
	.fix = "ls -l \"$NCCL_TOPO_FILE\"   # on {node}, inside the job's container: the file must exist and be readable\n"
		"mount the file into the container (docker run -v /path/topo.xml:/path/topo.xml:ro), or unset NCCL_TOPO_FILE where it is not meant to apply",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV",
},
{
	/* graph/xml.cc xmlLoadSub and its loaders: NCCL's own XML reader only reads files, the
	 * topology (NCCL_TOPO_FILE, or /var/run/nvidia-topologyd/virtualTopology.xml when it is
	 * there) and the graph (NCCL_GRAPH_FILE); a malformed file, another version of the format or
	 * one without its top element stops init */
	.id = "nccl.topo.xml_parse",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "XML Parse", "XML Mismatch : ", "XML Topology has wrong version", "system node not found in XML",
		     "XML parser is limited to" },
	.title = "NCCL could not read a topology XML file: it is malformed or of another format version",
	.cause = "NCCL parses the file NCCL_TOPO_FILE names (or, unset, /var/run/nvidia-topologyd/virtualTopology.xml "
		"when a cloud image provides it) and NCCL_GRAPH_FILE; a file edited by hand, cut short, written by "
		"a tool for another NCCL release (the version attribute of <system> or <graphs> must be the one "
		"this NCCL reads) or without a <system> element stops init",
	.fix = "echo $NCCL_TOPO_FILE $NCCL_GRAPH_FILE; ls -l /var/run/nvidia-topologyd/virtualTopology.xml   # which file NCCL read\n"
		"xmllint --noout \"$NCCL_TOPO_FILE\"   # a parse error shows the line\n"
		"export NCCL_TOPO_DUMP_FILE=/tmp/topo.xml   # rerun without NCCL_TOPO_FILE: NCCL writes a file of this release's format to start from",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV",
},
{
	/* graph/xml.cc ncclTopoGetXmlGraphFromFile (fatal) and search.cc's import of NCCL_GRAPH_FILE:
	 * a hand-made channel layout that names GPUs this run does not have */
	.id = "nccl.topo.graph_file",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Could not open XML graph file", "XML Graph has wrong version", "XML Import Channel" },
	.title = "NCCL_GRAPH_FILE cannot be used here: NCCL cannot open it, or it was made for another release or machine",
	.cause = "NCCL_GRAPH_FILE forces the rings and trees NCCL would search for; a path missing in the container, "
		"a file of another format version, or a layout naming GPUs this run does not use (another machine "
		"type, fewer GPUs, another CUDA_VISIBLE_DEVICES) stops init",
	.fix = "ls -l \"$NCCL_GRAPH_FILE\"   # on {node}, inside the job's container\n"
		"unset NCCL_GRAPH_FILE   # let NCCL search the graphs itself; NCCL_GRAPH_DUMP_FILE=/tmp/graph.xml writes what it found, in this release's format",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV",
},
{
	/* graph/xml.cc ncclTopoDumpXmlToFile: fopen(..., "w") of NCCL_TOPO_DUMP_FILE or
	 * NCCL_GRAPH_DUMP_FILE failed; NCCL skips the dump and goes on */
	.id = "nccl.topo.dump_file",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "not dumping topology" },
	.cap_after = "Unable to open ",
	.cap_stop = ",",
	.title = "NCCL could not write its topology dump to {}: the job goes on without it",
	.cause = "NCCL_TOPO_DUMP_FILE or NCCL_GRAPH_DUMP_FILE names a path this process cannot create: a directory "
		"that does not exist in the container, or one it may not write; nothing else is affected",
	.fix = "export NCCL_TOPO_DUMP_FILE=/tmp/nccl_topo.xml NCCL_GRAPH_DUMP_FILE=/tmp/nccl_graph.xml   # a writable path on {node}",
},
{
	/* graph/topo.cc ncclTopoForceMerge (2.26+): NCCL_NET_FORCE_MERGE lists NIC groups to fuse
	 * into one virtual NIC; a name that matches no NIC, too many NICs, or NICs that do not share
	 * a PCI switch or CPU (ncclTopoMakeVnic) stop init */
	.id = "nccl.net.force_merge",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Please specify a valid NCCL_NET_FORCE_MERGE", "TOPO/NET : Only matched", "Specified fused NIC",
		     "Fusing NET devices from different NUMA domains" },
	.title = "NCCL could not merge the NICs NCCL_NET_FORCE_MERGE lists",
	.cause = "NCCL_NET_FORCE_MERGE names groups of NICs to fuse into one virtual NIC; a name that matches no NIC "
		"of this node (another node type, a NIC down or missing), more NICs than the net plugin can fuse, "
		"or NICs under different CPUs (NUMA domains) stop init; NCCL_NET_MERGE_LEVEL=SYS merging NICs "
		"of different CPUs fails the same way",
	.fix = "ibv_devinfo -l; nvidia-smi topo -m   # on {node}: the NICs there and which CPU each hangs off\n"
		"unset NCCL_NET_FORCE_MERGE NCCL_NET_MERGE_LEVEL   # let NCCL merge ports itself, or list only NICs of this node that share a CPU",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV",
},
{
	/* graph/topo.cc ncclTopoGetMergePolicy (2.30): only ALL and RAIL are known */
	.id = "nccl.net.merge_policy",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "NCCL_NET_MERGE_POLICY: unknown value" },
	.title = "NCCL_NET_MERGE_POLICY has a value NCCL does not know: it merges NICs with ALL",
	.cause = "NCCL_NET_MERGE_POLICY takes ALL or RAIL; any other value is ignored and NCCL merges "
		"eligible ports regardless of their rail (RAIL keeps each virtual NIC within one rail)",
	.fix = "export NCCL_NET_MERGE_POLICY=RAIL   # or ALL, or unset it: the same on every node",
},
{
	.id = "nccl.cuda.oom",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Cuda failure" },
	.also = "out of memory",
	.title = "NCCL ran out of GPU memory",
	.cause = "NCCL's buffers did not fit: the model already filled the GPU, or two ranks share one GPU",
	.fix = "export NCCL_BUFFSIZE=2097152 NCCL_NCHANNELS_PER_NET_PEER=1   # smaller NCCL buffers\n"
		"nvidia-smi   # is another process on the same GPU?",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* NCCL's alloc.h: "Failed to CUDA calloc %ld bytes" (2.x; "CUDA calloc async" in newer ones)
	 * when cudaMalloc of its own buffers fails: the GPU is already full */
	.id = "nccl.cuda.calloc",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Failed to CUDA calloc", "Failed to CUDA malloc", "Failed to CUDA host alloc", "Failed to malloc " },
	.cap_after = "Failed to ",
	.cap_stop = "\n",
	.title = "NCCL could not allocate memory for its buffers ({})",
	.cause = "NCCL allocates its communication buffers when a communicator is created or a new peer is "
		"connected; this allocation failed because the GPU was full: the model, the framework's memory pool "
		"(vLLM/SGLang reserve a fraction of the GPU up front) or another process already took it",
	.fix = "nvidia-smi   # on the failing node: what else holds the GPU\n"
		"lower the framework's reservation (vLLM --gpu-memory-utilization 0.85, SGLang --mem-fraction-static) or the batch size\n"
		"export NCCL_BUFFSIZE=2097152 NCCL_NCHANNELS_PER_NET_PEER=1   # smaller NCCL buffers",
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "host alloc",
		  .title = "NCCL could not allocate pinned host memory ({})",
		  .cause = "cudaHostAlloc of NCCL's host buffers failed: the node (or the container's memory limit) is "
			"out of memory, or pinned memory is capped",
		  .fix = "free -g; cat /sys/fs/cgroup/memory.max   # on {node}: host memory and the container's limit\n"
			"export NCCL_BUFFSIZE=2097152   # smaller NCCL buffers, fewer pinned bytes" },
		{ .when = "Failed to malloc",
		  .title = "NCCL could not allocate host memory ({})",
		  .cause = "malloc failed inside NCCL: the node or the container's memory limit is exhausted (other "
			"processes, data loader workers, a memory leak)",
		  .fix = "free -g; cat /sys/fs/cgroup/memory.max; dmesg | grep -i -e oom -e 'out of memory'   # on {node}" },
		{ .when = NULL },
	},
},
{
	/* misc/nvmlwrap.cc "nvmlInit_v2() failed: <nvmlErrorString>", os/linux.cc "Failed to open
	 * libnvidia-ml.so.1": NCCL reads the topology through NVML, so init fails without it */
	.id = "nccl.nvml.init",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	/* NCCL <= 2.8's nvmlwrap.h: "NVML failure '<nvmlErrorString>'" */
	.anchors = { "nvmlInit_v2() failed", "nvmlInit() failed", "Failed to open libnvidia-ml", "NVML failure '" },
	.title = "NCCL could not use NVML, the driver's management library",
	.cause = "NCCL asks NVML for the GPUs and their links during init: libnvidia-ml.so.1 is missing from the "
		"process's environment (a container started without the NVIDIA runtime or --gpus) or cannot talk to "
		"the loaded driver",
	.fix = "nvidia-smi   # in the same environment as the job: it uses NVML too and fails the same way\n"
		"docker run --gpus all ...   # containers: the NVIDIA container toolkit mounts libnvidia-ml.so.1 (Kubernetes: the GPU device plugin)",
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "version mismatch",
		  .title = "NVML reports a driver/library version mismatch: the driver was upgraded without a reboot",
		  .cause = "the user-space driver libraries on disk are newer than the kernel module still loaded: "
			"every CUDA and NVML call fails until the module is reloaded",
		  .fix = "cat /proc/driver/nvidia/version; ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.*   # on {node}: the loaded module and the libraries differ\n"
			"sudo reboot   # or stop every GPU process and reload: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia" },
		{ .when = "Insufficient Permissions",
		  .title = "NVML refused access: insufficient permissions on the GPU devices",
		  .cause = "the process may not open /dev/nvidia*: a container or user without access to the devices",
		  .fix = "ls -l /dev/nvidia*   # on {node}: the job's user must be able to open them (docker --gpus, or the video group)" },
		{ .when = NULL },
	},
},
{
	/* misc/nvmlwrap.cc: "nvmlDeviceGetHandleByPciBusId() failed: <nvmlErrorString>" and the other
	 * per-device calls: NCCL maps each CUDA device to its NVML device during topology detection */
	.id = "nccl.nvml.device",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "nvmlDeviceGetHandleByPciBusId", "nvmlDeviceGetHandleByIndex", "nvmlDeviceGetMinorNumber",
		     "nvmlDeviceGetPciInfo", "nvmlDeviceGetCudaComputeCapability", "nvmlDeviceGetNvLink" },
	.also = "failed",
	.title = "NCCL could not query a GPU through NVML",
	.cause = "NVML could not answer for a GPU that CUDA sees: the container or cgroup exposes a different set "
		"of GPUs to NVML than to CUDA (NVIDIA_VISIBLE_DEVICES against CUDA_VISIBLE_DEVICES), or the GPU is in "
		"a bad state",
	.fix = "nvidia-smi -L; echo $CUDA_VISIBLE_DEVICES $NVIDIA_VISIBLE_DEVICES   # on {node}, inside the job's container: the same GPUs both ways\n"
		"sudo dmesg | grep -i -e xid -e 'fallen off'   # a GPU in a bad state",
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "GPU is lost",
		  .title = "NVML reports a GPU lost: it fell off the bus",
		  .cause = "the driver lost the GPU (an Xid 79, a PCIe or power fault); every process on it fails "
			"until the node is reset",
		  .fix = "sudo dmesg | grep -i -e xid -e 'fallen off'   # on {node}\n"
			"drain {node} and reset the GPU (nvidia-smi -r, or reboot); exclude it from the job meanwhile" },
		{ .when = "Not Found",
		  .title = "NVML does not see a GPU that CUDA uses: the container exposes different GPUs to each",
		  .cause = "NCCL looked up a CUDA device's PCI bus id in NVML and NVML has no such GPU: the container "
			"runtime gave the process GPUs through device files that NVML is not allowed to see, or "
			"CUDA_VISIBLE_DEVICES names GPUs outside NVIDIA_VISIBLE_DEVICES",
		  .fix = "nvidia-smi -L; echo $CUDA_VISIBLE_DEVICES $NVIDIA_VISIBLE_DEVICES   # inside the container: the same GPUs both ways\n"
			"docker run --gpus '\"device=0,1\"' ...   # expose the GPUs through the NVIDIA runtime, not only --device=/dev/nvidiaN" },
		{ .when = NULL },
	},
},
{
	/* graph/xml.cc ncclTopoGetXmlFromGpu: NVML gave no handle for a GPU, so NCCL does not look
	 * for NVLinks; 2.7's form is "No NVML, trying to use CUDA instead" (the device index). Only
	 * 2.7-2.18.1 get here: from 2.18.3 on the failed lookup stops init (nccl.nvml.device) */
	.id = "nccl.nvml.no_handle",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "No NVML device handle", "No NVML, trying to use CUDA instead" },
	.title = "NCCL could not reach a GPU through NVML: it does not detect NVLink, and GPU pairs fall back to PCIe or host memory",
	.cause = "NCCL finds NVLinks through NVML; NVML is not usable in this process (libnvidia-ml.so.1 missing: a "
		"container started without the NVIDIA runtime's 'utility' capability) or does not know the GPU CUDA "
		"uses (different GPU sets for NVML and CUDA, a GPU in a bad state), so NVLink-connected GPUs look "
		"unconnected: slow intra-node traffic, and graphs that differ from nodes where NVML works",
	.fix = "nvidia-smi topo -m   # on {node}, inside the job's container: NVML must work and show the NV# links\n"
		"docker run --gpus all -e NVIDIA_DRIVER_CAPABILITIES=compute,utility ...   # the NVIDIA runtime mounts libnvidia-ml.so.1 with 'utility'",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* misc/argcheck.cc: a collective's buffer lives on another GPU than the communicator's */
	.id = "nccl.buffer.device_mismatch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "mismatchs with NCCL device", "mismatches with NCCL device" },
	.cap_after = "allocated on ",
	.cap_stop = SIG_UNTIL " mismatch",
	.title = "a collective was given a tensor on another GPU than its communicator's ({})",
	.cause = "each rank's communicator is bound to one GPU (the current device when it was created); the "
		"tensor passed to the collective was allocated on another one: the process did not call "
		"torch.cuda.set_device before creating tensors, or moves them with .cuda() / 'cuda' (device 0)",
	.fix = "torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # first thing in every process, before any tensor or init_process_group\n"
		"tensor = tensor.to(f'cuda:{int(os.environ[\"LOCAL_RANK\"])}')   # not .cuda() / 'cuda' before set_device",
},
{
	/* include/checks.h "Thread creation failed: <what()>" (2.2x+), older SYSCHECK "Call to
	 * pthread_create failed : Resource temporarily unavailable" */
	.id = "nccl.thread.create",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Thread creation failed", "pthread_create failed" },
	.title = "NCCL could not start one of its threads",
	.cause = "creating a thread failed (EAGAIN: 'Resource temporarily unavailable'): the process or container "
		"hit its limit on processes/threads (a Kubernetes or systemd pids limit, ulimit -u), which data "
		"loader workers and OpenMP threads use up first",
	.fix = "cat /sys/fs/cgroup/pids.max /sys/fs/cgroup/pids.current; ulimit -u   # on {node}, in the job's environment\n"
		"raise the limit (docker run --pids-limit=-1, the pod's pid limit, ulimit -u unlimited) or lower num_workers / OMP_NUM_THREADS",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* graph/paths.cc: NVML says P2P is off between two GPUs the topology links by NVLink */
	.id = "nccl.p2p.nvlink_disabled",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "P2P is disabled between NVLINK connected GPUs" },
	.cap_after = "connected GPUs ",
	.cap_stop = ".",
	.title = "NVML reports P2P disabled between NVLink-connected GPUs {}",
	.cause = "NCCL found NVLink between the two GPUs but the driver reports peer access off: a failed NVLink, an "
		"NVSwitch system whose fabric manager is not running, or a GPU in a bad state",
	.fix = "nvidia-smi nvlink -s; nvidia-smi topo -p2p r   # on {node}: inactive links and the driver's P2P verdict per pair\n"
		"systemctl status nvidia-fabricmanager   # NVSwitch systems (HGX/DGX): it must run, at the driver's version\n"
		"export NCCL_IGNORE_DISABLED_P2P=1   # NCCL's own escape hatch, only to keep running while the hardware is checked",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* net_ib.cc: ibv_open_device() of an HCA that NCCL listed (or NCCL_IB_HCA named) failed */
	.id = "nccl.ib.open_device",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "NET/IB : Unable to open device" },
	.cap_after = "open device ",
	.cap_stop = " \t,",
	.title = "NCCL could not open the RDMA device {}",
	.cause = "the HCA is listed in /sys but cannot be opened here: a container without its /dev/infiniband "
		"node (or without IPC_LOCK), a device that is down or being reset, or an HCA set that differs between "
		"the hosts (NCCL_IB_HCA naming a device this node does not have)",
	.fix = "ibv_devinfo -d {}   # on {node}: state PORT_ACTIVE; in a container: --device=/dev/infiniband --cap-add=IPC_LOCK\n"
		"export NCCL_IB_HCA=^{}   # to run without it meanwhile (every node the same setting)",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* error 802: NVIDIA/nccl-tests#264 (enabling nvidia-fabricmanager fixed it), pytorch#35710 */
	.id = "cuda.system_not_ready",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "system not yet initialized", "cudaErrorSystemNotReady", "CUDA_ERROR_SYSTEM_NOT_READY" },
	.title = "CUDA reports 'system not yet initialized': the NVSwitch fabric manager is not running",
	.cause = "CUDA error 802: on NVSwitch systems (HGX/DGX A100, H100, H200, B200) CUDA does not start until "
		"nvidia-fabricmanager has set up the fabric; it is not installed, not enabled after a reboot, "
		"or its version differs from the driver's",
	.fix = "sudo systemctl enable --now nvidia-fabricmanager   # on {node}; its version must equal the driver's\n"
		"systemctl status nvidia-fabricmanager; journalctl -u nvidia-fabricmanager | tail   # why it is not running\n"
		"nvidia-smi -q | grep -i -A2 fabric   # 'State: Completed' once the fabric is up",
},
{
	/* nvidia-fabricmanager refuses to start when its version is not the driver's, exactly; then
	 * CUDA on NVSwitch systems reports "system not yet initialized" */
	.id = "gpu.fabricmanager.version",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "fabric manager NVIDIA GPU driver interface version" },
	.cap_after = "interface version ",
	.cap_stop = " ",
	.title = "nvidia-fabricmanager {} does not match the loaded NVIDIA driver: it refuses to start and the NVSwitch fabric stays down",
	.cause = "the fabric manager must be exactly the driver's version (same branch and build); after a driver "
		"update, an unpinned package or a driver container that bundles another nvidia-fabricmanager, it "
		"aborts and CUDA on NVSwitch systems fails with 'system not yet initialized'",
	.fix = "cat /proc/driver/nvidia/version; nv-fabricmanager --version   # the two versions must be equal\n"
		"sudo apt-get install nvidia-fabricmanager-<branch>=<the driver version>   # install the nvidia-fabricmanager of exactly the driver's version (or the driver of the FM's), then: sudo systemctl restart nvidia-fabricmanager",
},
{
	/* systemd's and the fabric manager's own lines when the service does not stay up */
	.id = "gpu.fabricmanager.failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "Fabric Manager failed to initialize", "nvidia-fabricmanager.service: Main process exited",
		     "nvidia-fabricmanager.service: Failed with result", "Failed to start NVIDIA fabric manager" },
	.title = "the NVIDIA fabric manager does not run: the NVSwitch fabric stays down",
	.cause = "on NVSwitch systems (HGX/DGX) CUDA and NCCL need nvidia-fabricmanager; it exits when its version "
		"differs from the driver's, when the NVSwitch devices are not visible (a VM or container without "
		"them), or when a GPU or NVSwitch is in a bad state; CUDA then reports 'system not yet initialized'",
	.fix = "sudo journalctl -u nvidia-fabricmanager -n 50; sudo tail -50 /var/log/fabricmanager.log   # on {node}: why it stopped\n"
		"cat /proc/driver/nvidia/version; nv-fabricmanager --version   # the two versions must be equal\n"
		"sudo systemctl restart nvidia-fabricmanager   # once fixed; nvidia-smi -q | grep -A2 -i fabric shows State: Completed",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* mnnvl.cc (2.27.3+, where MNNVL init failure became fatal): FABRIC memory handles could not be
	 * allocated, exported or imported, i.e. IMEX is not set up for this process */
	.id = "nccl.mnnvl.imex",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "is available but not working on this system", "is available but not supported on this system" },
	.also = "MNNVL",
	.title = "multi-node NVLink (MNNVL) is there but not usable: the IMEX set-up is missing",
	.cause = "on GB200/GB300 NVL systems NCCL shares GPU memory across trays with FABRIC handles, which need "
		"the IMEX daemon running on every node of the NVLink domain and an IMEX channel device "
		"(/dev/nvidia-caps-imex-channels/channel0) inside the job's container; without them NCCL 2.27.3+ "
		"stops at init",
	.fix = "sudo systemctl status nvidia-imex; nvidia-imex-ctl -N   # on {node}: the daemon runs and every node of the domain is connected\n"
		"ls /dev/nvidia-caps-imex-channels   # inside the container: channel0 must be there (Kubernetes: the IMEX channel from the DRA driver / ComputeDomain)\n"
		"export NCCL_MNNVL_ENABLE=0   # only to run without multi-node NVLink meanwhile (traffic then uses the network)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* net_ib common.cc (2.28+): the port's GID table changed while NCCL used it (RoCE link flap,
	 * an address change on the interface) */
	.id = "nccl.ib.gid_changed",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	/* 2.23.4-2.28.2 print the same event (IBV_EVENT_GID_CHANGE, 18) as "unknown event type (18)" */
	.anchors = { "GID table changed", "unknown event type (18)" },
	.unless = "Got async event",
	.cap_after = "NET/IB : ",
	.cap_stop = " ",
	.title = "the RoCE address table of {} changed under the running job: the link flapped or its address changed",
	.cause = "the GID NCCL uses belongs to the interface's IP address; when the link goes down and up or the "
		"address is changed (DHCP, NetworkManager, a link flap), the GID goes away and the connections on it fail",
	.fix = "sudo dmesg -T | grep -i -e mlx5 -e 'link down' -e 'link up'   # on {node}: the flap and when it happened\n"
		"show_gids; ip addr   # the RoCE v2 GID must keep its IPv4 address for the whole job (static addressing)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* net_ib (2.2x INFO, NCCL_IB_WARN_RAIL_LOCAL): a connection joins NICs of different indices on
	 * the two nodes, i.e. it crosses rails */
	.id = "nccl.ib.rail_mismatch",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "mismatched physical devices between local" },
	.cap_after = "between local ",
	.cap_stop = ".",
	.title = "NCCL connects NICs of different rails between the nodes: local {}",
	.cause = "the two nodes number their NICs differently (another NCCL_IB_HCA order, an HCA missing or down on "
		"one node, a different PCI layout), so a connection joins NIC i on one node to NIC j on the other; "
		"on rail-optimised fabrics that traffic crosses the spine (slower), on rail-only fabrics it has no route",
	.fix = "ibv_devinfo -l; nvidia-smi topo -m   # on both nodes: the same HCAs, in the same order, near the same GPUs\n"
		"export NCCL_IB_HCA==mlx5_0,mlx5_1   # the same explicit list on every node ('=' for exact names)",
},
{
	/* graph/paths.cc (INFO): NVML says P2P is not OK between two PCIe-connected GPUs; NCCL copies
	 * through host memory for that pair instead */
	.id = "nccl.p2p.nvml_disabled",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "P2P is disabled between connected GPUs" },
	.cap_after = "connected GPUs ",
	.cap_stop = ".",
	.title = "the driver reports P2P disabled between GPUs {}: NCCL copies through host memory there",
	.cause = "NVML says these PCIe-connected GPUs cannot read or write each other's memory: GeForce boards, "
		"ACS or an IOMMU on the PCIe path, or a BIOS setting; NCCL uses shared memory for the pair, which "
		"works but is slower, and a hang elsewhere is not this pair's P2P",
	.fix = "nvidia-smi topo -p2p rw   # which GPU pairs the driver allows P2P between\n"
		"sudo lspci -vvv | grep -i 'ACSCtl'   # ACS redirect on the bridges blocks P2P (see the IOMMU/ACS fix when a hang shows)",
},
{
	/* net_ib connect.cc: two HCAs of different link layers (InfiniBand and RoCE/Ethernet) paired */
	.id = "nccl.ib.incompatible_devices",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Attempted to connect incompatible devices", "device is incompatible with the local",
		     "Attempted to merge incompatible devices" },
	.title = "NCCL paired NICs of different link types (InfiniBand with RoCE/Ethernet)",
	.cause = "the HCAs NCCL uses include ports of both link layers (or the nodes' HCA sets differ), and a "
		"connection joined an InfiniBand port with an Ethernet one, which cannot talk",
	.fix = "ibv_devinfo | grep -E 'hca_id|link_layer'   # on every node: which HCAs are InfiniBand and which Ethernet\n"
		"export NCCL_IB_HCA==mlx5_0,mlx5_1   # on every node: only the HCAs of one link type ('=' for exact names)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* libibverbs: a provider named by /etc/libibverbs.d is not installed. Noise for absent hardware
	 * (libibverbs lists every provider), fatal for the HCAs the node has: mlx5 is Mellanox/NVIDIA's */
	.id = "nccl.ib.provider_missing",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "couldn't load driver 'libmlx5", "couldn't load driver 'mlx5" },
	.title = "libibverbs could not load the mlx5 provider: NCCL cannot use Mellanox/NVIDIA HCAs here",
	.cause = "rdma-core's user-space driver for ConnectX HCAs (libmlx5) is missing from this image or host, "
		"so ibv_open_device fails and NCCL falls back to TCP sockets (or fails with NCCL_IB_DISABLE unset "
		"and NCCL_NET=IB); on a node without ConnectX HCAs the warning is harmless",
	.fix = "apt-get install ibverbs-providers libibverbs1   # in the image (RHEL: rdma-core libibverbs), or the MLNX_OFED/DOCA user space\n"
		"ibv_devinfo   # afterwards: the mlx5_* devices with state PORT_ACTIVE",
},
{
	/* NVIDIA/nccl#976 (maintainer: nv-fabricmanager restarted while processes held GPU resources;
	 * reboot), #1488 (stop/start of the fabric manager; only a reboot or GPU reset clears it) */
	.id = "nccl.cuda.nvls",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Cuda failure" },
	.also = "nvls.cc",
	.title = "an NVLink SHARP (NVLS) CUDA call failed: the NVSwitch fabric state of {node} is broken",
	.cause = "NVLS buffers are multicast objects that the fabric manager sets up; 'invalid argument' from "
		"nvls.cc with 3 or more GPUs usually means nvidia-fabricmanager was stopped or restarted while "
		"processes held GPU resources, which only a GPU reset or a reboot clears",
	.fix = "systemctl status nvidia-fabricmanager   # on {node}: running, and not restarted since the GPUs were last reset\n"
		"sudo reboot   # or stop every GPU process and run nvidia-smi -r: after a fabric-manager restart the GPUs must be reset\n"
		"export NCCL_NVLS_ENABLE=0   # meanwhile: run without NVLS (a slightly slower all-reduce)",
},
{
	/* NCCL's own advice in the message; pytorch/ao#3841, pytorch#182888 (no IMEX channel) */
	.id = "nccl.cuda.nvls_multicast",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Failed to bind NVLink SHARP", "(NVLS) Multicast memory" },
	.title = "NCCL could not bind NVLS multicast memory: this node's fabric does not allow multicast",
	.cause = "CUDA refused the multicast bind (error 401 and similar): the NVSwitch / IMEX set-up of this "
		"node, VM or container does not support NVLink SHARP multicast",
	.fix = "export NCCL_NVLS_ENABLE=0   # NCCL's own advice: run without NVLink SHARP\n"
		"systemctl status nvidia-fabricmanager; ls /dev/nvidia-caps-imex-channels   # NVLS needs a healthy fabric manager (and an IMEX channel inside containers)",
},
{
	/* transport/nvls.cc ncclNvlsInit (2.30): NVLS needs one rank per GPU; with NCCL_NVLS_ENABLE=1
	 * and two ranks on one GPU (MPS, or processes that all picked cuda:0) init stops */
	.id = "nccl.nvls.multi_rank_gpu",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "multiple ranks using the same NVML device" },
	.title = "NCCL_NVLS_ENABLE=1 with several ranks on one GPU: NVLink SHARP cannot run like that",
	.cause = "NCCL_NVLS_ENABLE=1 forces NVLink SHARP, which needs each rank on its own GPU; two or more ranks of "
		"this communicator use the same GPU: processes that did not select their GPU (all on cuda:0), a "
		"CUDA_VISIBLE_DEVICES that gives every process the same GPU, or GPU sharing through MPS",
	.fix = "torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # each process on its own GPU, before init_process_group\n"
		"unset NCCL_NVLS_ENABLE   # where ranks share a GPU on purpose (MPS): NCCL then leaves NVLS off by itself",
},
{
	/* NVIDIA/nccl#1838: SHM over cuMem host memory between GPUs without P2P (2.27); the reporter's
	 * NCCL_CUMEM_HOST_ENABLE=0 avoids it (SHM falls back to /dev/shm) */
	.id = "nccl.known_bug.cumem_host_no_p2p",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "peer access is not supported between these two devices" },
	.also = "shm.cc",
	.title = "NCCL's SHM transport failed on cuMem host memory between GPUs without peer access (a known NCCL 2.27 issue)",
	.cause = "with cuMem host allocations (the default since 2.24) the SHM transport imports host memory "
		"through CUDA, which fails between GPUs that have no P2P access (e.g. L4s on PCIe)",
	.fix = "export NCCL_CUMEM_HOST_ENABLE=0   # SHM uses /dev/shm again\n"
		"nvidia-smi topo -p2p r   # the GPU pairs without P2P are the ones that hit this path",
},
{
	.id = "nccl.cuda.failure",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Cuda failure" },
	.unless = "out of memory",
	.cap_after = "Cuda failure ",
	.title = "a CUDA call inside NCCL failed: {}",
	.cause = "the CUDA error inside NCCL; 'invalid device ordinal' means a bad LOCAL_RANK, driver errors mean a "
		"broken GPU or driver",
	.fix = "nvidia-smi; python -c 'import torch; print(torch.cuda.device_count())'   # on the failing node",
	.check = EXPLAIN_CHECK_NODE,
	.variants = cuda_errors,
},
{
	/* os/linux.cc: mkstemp/open/fallocate failing with EACCES: /dev/shm not writable (a read-only
	 * or root-owned mount, a non-root user in a restricted pod) */
	.id = "nccl.shm.permission",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "shared memory segment", "failed to create shared memory file", "shm_open" },
	.also = "ermission denied",
	.title = "NCCL may not create files in /dev/shm (Permission denied)",
	.cause = "/dev/shm exists but this user may not write it: mounted read-only, owned by another user without "
		"the sticky world-writable mode, or blocked by SELinux/AppArmor in the container; size is not the problem",
	.fix = "ls -ld /dev/shm; mount | grep /dev/shm   # must be drwxrwxrwt and rw\n"
		"sudo chmod 1777 /dev/shm   # or mount a writable tmpfs there (Kubernetes: emptyDir medium: Memory)\n"
		"export NCCL_SHM_DISABLE=1   # only to get going: intra-node traffic then uses sockets or P2P",
},
{
	/* ENOENT: no /dev/shm at all (minimal containers, some HPC images), or the attaching process
	 * lives in another IPC/mount namespace than the one that created the segment */
	.id = "nccl.shm.missing",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "shared memory segment", "failed to create shared memory file" },
	.also = "No such file or directory",
	.title = "NCCL's shared-memory file does not exist for this process (No such file or directory)",
	.cause = "either /dev/shm is not mounted in this container, or two ranks NCCL believes are on one host run "
		"in containers that do not share /dev/shm, so one cannot open the segment the other created",
	.fix = "mount | grep /dev/shm   # in every container: a tmpfs must be mounted there\n"
		"docker run --ipc=host ...   # ranks of one host in separate containers must share the IPC namespace and /dev/shm\n"
		"export NCCL_SHM_DISABLE=1   # if the containers cannot share /dev/shm",
},
{
	/* shmutils.cc: "unlink shared memory %s failed, error: %s"; ENOENT means someone else
	 * removed the file first (NCCL user guide, troubleshooting: systemd's RemoveIPC) */
	.id = "nccl.shm.removed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "unlink shared memory" },
	.also = "No such file or directory",
	.title = "NCCL's shared-memory file in /dev/shm was removed while the job ran",
	.cause = "something deleted NCCL's segment before NCCL did: systemd-logind's RemoveIPC=yes (the default) "
		"removes a user's /dev/shm files when the user has no login session left, which is the case for jobs "
		"started by Slurm or by mpirun over ssh; also a /dev/shm cleanup job, or another container sharing it",
	.fix = "grep -i RemoveIPC /etc/systemd/logind.conf   # on every node: RemoveIPC=no, then systemctl restart systemd-logind (NCCL's troubleshooting guide)\n"
		"loginctl enable-linger <user>   # or keep the job's user logged in for systemd",
},
{
	.id = "nccl.shm.create",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	/* 2.4-2.7 (include/shm.h): "Call to posix_fallocate failed : No space left on device" */
	.anchors = { "Error while creating shared memory segment", "failed to extend", "Call to posix_fallocate failed" },
	.unless = "ermission denied",
	.title = "NCCL could not create its shared-memory segment in /dev/shm",
	.cause = "/dev/shm is too small (docker's default is 64 MB) or not writable",
	.fix = "docker run --ipc=host ...   # or --shm-size=16g; in Kubernetes mount an emptyDir medium: Memory at /dev/shm\n"
		"df -h /dev/shm",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "sys.no_space",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "No space left on device" },
	.title = "no space left on a device",
	.cause = "in a container this is usually /dev/shm (NCCL shared memory, DataLoader workers); otherwise a full disk",
	.fix = "df -h /dev/shm /tmp .\ndocker run --ipc=host ...   # or --shm-size=16g",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.duplicate_gpu",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Duplicate GPU detected", "Multiple Ranks are using the same GPU" },
	.title = "two ranks use the same GPU",
	.cause = "each process must call torch.cuda.set_device(LOCAL_RANK) before init; or CUDA_VISIBLE_DEVICES "
		"shows one GPU to several ranks; or the launcher (Ray, Slurm, mpirun) gave two processes one GPU",
	.fix = "{launcher_gpu}\n"
		"torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # before init_process_group\n"
		"init_process_group('nccl', device_id=torch.device('cuda', int(os.environ['LOCAL_RANK'])))",
},
{
	.id = "nccl.version.mismatch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Mismatched NCCL version detected" },
	.cap_after = "detected : ",
	.title = "NCCL versions differ between ranks ({})",
	.cause = "different libnccl versions on different nodes or containers cannot form one communicator",
	.fix = "python -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'   # on every node\n"
		"install the same torch / nvidia-nccl wheel (or image) on every node",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.socket.truncated",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "message truncated : receiving" },
	.title = "NCCL received a socket message of the wrong size",
	.cause = "ranks disagree on a collective's size or on tuning variables (NCCL_PROTO, NCCL_ALGO, "
		"NCCL_BUFFSIZE) between nodes",
	.fix = "env | grep ^NCCL_   # on every node: make them identical\nmake every rank call the same collectives with the same sizes",
	.rerun = RERUN_HANG,
},
{
	.id = "nccl.ring.no_loop",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	/* graph/rings.cc ncclBuildRings checks both on the rings the ranks' next[] pointers make */
	.anchors = { "does not loop back", "does not contain rank" },
	.title = "NCCL built an inconsistent ring",
	.cause = "ranks computed different topologies: different NCCL_* settings or GPU counts per node",
	.fix = "env | grep ^NCCL_   # on every rank: the settings that shape the topology (NCCL_IB_HCA, "
		"NCCL_CUMEM_ENABLE, NCCL_P2P_LEVEL, NCCL_NVLS_ENABLE...) must be identical; set on some "
		"ranks only, they give those ranks another graph\n"
		"use the same number of GPUs per node",
	.rerun = RERUN_NCCL,
},
{
	.id = "nccl.no_transport",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "No transport found for rank", "No transport found !" },
	.title = "NCCL has no transport between two ranks",
	.cause = "P2P, SHM and NET are all disabled or unusable for a pair (e.g. NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 "
		"and no network)",
	.fix = "unset NCCL_P2P_DISABLE NCCL_SHM_DISABLE NCCL_NET",
	.rerun = RERUN_NCCL_ENV,
},
{
	.id = "nccl.algo.unavailable",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	/* graph/tuning.cc parseList (2.24+): "All entries except the first must have a prefix" is a
	 * malformed list ("ring;tree" instead of "ring,tree" or "allreduce:tree") */
	.anchors = { "No algorithm/protocol available", "Unrecognized element token", "Unrecognized prefix token",
		     "All entries except the first must have a prefix" },
	.title = "NCCL_ALGO / NCCL_PROTO rule out every algorithm",
	.cause = "NCCL_ALGO or NCCL_PROTO is too restrictive or malformed",
	.fix = "unset NCCL_ALGO NCCL_PROTO",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "must have a prefix",
		  .title = "NCCL_ALGO / NCCL_PROTO is malformed: a ';'-separated entry after the first lacks its 'function:' prefix",
		  .cause = "the lists are comma-separated ('Ring,Tree'); ';' starts a per-collective entry that must "
			"name its collective ('allreduce:Tree'), so 'Ring;Tree' is refused and init stops",
		  .fix = "export NCCL_ALGO='Ring,Tree'   # one list, commas; per collective: NCCL_ALGO='Ring;allreduce:Tree'\n"
			"unset NCCL_ALGO NCCL_PROTO   # or let NCCL choose" },
		{ .when = NULL },
	},
},
{
	/* transport.cc ncclTransportCollNetCheck (init.cc before 2.9: "using <net> instead") and
	 * graph/tuning.cc before 2.19 with NCCL_ALGO=COLLNET: CollNet (IB SHARP through a net plugin)
	 * was asked for and failed to set up on some rank; NCCL goes on without it */
	.id = "nccl.collnet.unavailable",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Cannot initialize CollNet", "ignoring NCCL_ALGO=COLLNET" },
	.title = "NCCL could not set up CollNet (IB SHARP): it runs without in-network reductions",
	.cause = "NCCL_COLLNET_ENABLE=1 (or NCCL_ALGO=CollNet) asks for reductions in the InfiniBand switches, which "
		"need a CollNet net plugin (the SHARP plugin of HPC-X / nccl-rdma-sharp-plugins), SHARP-capable "
		"switches and the SHARP aggregation manager on the subnet manager; on a rank where any of them is "
		"missing, or SHARP resources ran out, NCCL falls back to its own rings and trees",
	.fix = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET python ... 2>&1 | grep -i -e collnet -e sharp   # rerun: whether the SHARP plugin loaded, on every node\n"
		"export NCCL_COLLNET_ENABLE=0   # where IB SHARP is not available: no fallback warning, the same performance",
},
{
	/* scheduler/symmetric_sched.cc (2.28): NCCL_SYM_KERNEL names a symmetric-memory kernel that
	 * cannot run this collective; without the variable the message is an internal error */
	.id = "nccl.symk.kernel_forced",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "no symmetric kernel available for function" },
	.also = "NCCL_SYM_KERNEL was set to",
	.title = "NCCL_SYM_KERNEL forces a symmetric kernel that cannot run this collective",
	.cause = "NCCL_SYM_KERNEL restricts the kernels NCCL may use on symmetric (window-registered) buffers; none "
		"of those it names fits this collective, data type or size, so the call fails",
	.fix = "unset NCCL_SYM_KERNEL   # let NCCL pick the kernel",
},
{
	/* devcomm/devcomm_v22902.cc, v22907.cc (2.30): a program built against an older nccl.h
	 * asks for GIN (device-initiated network) resources the running libnccl lays out differently */
	.id = "nccl.devcomm.compiled_old",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "The application was compiled with too old version of NCCL" },
	.title = "the program's device kernels were built against an older NCCL than the libnccl it runs with",
	.cause = "the application or an extension uses NCCL's device API (GIN device kernels) and was compiled "
		"with the headers of an older NCCL; those kernels must be rebuilt for the NCCL that runs them: a pip "
		"or container upgrade of libnccl without rebuilding the extension, or LD_LIBRARY_PATH picking "
		"another libnccl",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'; ldconfig -p | grep libnccl   # which libnccl the process loads\n"
		"rebuild the application or extension against the nccl.h of the NCCL it runs with, or install the NCCL version it was built with",
},
/* ---- NCCL: the return codes torch reports ------------------------------------------------ */
{
	.id = "nccl.error.system",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	.anchors = { "nhandled system error", "ncclSystemError" },
	.title = "NCCL failed with 'unhandled system error'",
	.cause = "a system call failed inside NCCL; on multi-node runs this is almost always the network "
		"(interface, firewall), and the NCCL WARN line names the call",
	.fix = EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.error.internal",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	.anchors = { "please report this issue to the NCCL", "ncclInternalError", "NCCL Error 3: internal error",
		     "internal error, NCCL version" },	/* before 2.18: no "please report" */
	.title = "NCCL failed with 'internal error'",
	.cause = "despite the text this is rarely an NCCL bug: on cloud machines it is usually the wrong network "
		"interface or a blocked port; the NCCL WARN line before it says which",
	.fix = EXPLAIN_FIX_IFNAME "\n"
		"rerun with NCCL_DEBUG=WARN: NCCL 2.18 reports most failures as 'internal error - please report' (NVIDIA/nccl-tests#275); the WARN line names the real one",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.error.remote",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	.anchors = { "remote process exited or there was a network error", "ncclRemoteError" },
	.title = "NCCL failed with 'remote process exited or there was a network error'",
	.cause = "a peer died (its own log has the real error) or a connection to it failed",
	.fix = "find the rank whose log shows the earliest error and fix that\n" EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.error.cuda",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	.anchors = { "nhandled cuda error", "ncclUnhandledCudaError" },
	.title = "NCCL failed with 'unhandled cuda error'",
	.cause = "a CUDA call inside NCCL failed; the 'Cuda failure' WARN line names it",
	.fix = "nvidia-smi   # on the failing node\n"
		"dmesg | grep -i xid   # on that node: a GPU or driver fault; if one node keeps failing, exclude it (srun --exclude=<node>) and check it",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "nccl.error.invalid_usage",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	/* torch before 1.9 printed "NCCL error in: <file>:<line>, invalid usage, NCCL version x" */
	.anchors = { "invalid usage (run with NCCL_DEBUG=WARN", "ncclInvalidUsage", "invalid usage, NCCL version" },
	.title = "NCCL failed with 'invalid usage'",
	.cause = "NCCL rejected how it was called: duplicate GPUs, mismatched versions or ranks; the NCCL WARN line says which",
	.fix = "rerun with NCCL_DEBUG=WARN to see the reason\n"
		"torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # before init_process_group; the commonest invalid usage at init is two ranks on one GPU: check CUDA_VISIBLE_DEVICES on every node",
	.rerun = "NCCL_DEBUG=WARN",
},
/*
 * nccl-tests prints the NCCL it was compiled against in its header. NCCL 1.x is the single-node
 * library NCCL 2.0 (2017) replaced, and the 1.x line got no releases since: a test built on it
 * measures an old library whose CUDA errors on current drivers and GPUs say nothing about them.
 */
{
	.id = "nccl.version.nccl1",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "NCCL Tests compiled with NCCL 1." },
	.cap_after = "compiled with NCCL ",
	.title = "nccl-tests was compiled against NCCL {}: the NCCL 1 library that NCCL 2 replaced, not the NCCL the jobs use",
	.cause = "the tests were built with NCCL_HOME pointing at a NCCL 1.x build; NCCL 1 has no "
		"multi-process or multi-node support and no releases since 2017, so its failures do not "
		"test this machine's NCCL",
	.fix = "ls /usr/lib/x86_64-linux-gnu/libnccl.so.2* /usr/local/nccl*/lib 2>/dev/null   # find the NCCL 2 installation (NVIDIA's libnccl2/libnccl-dev packages, or a release build)\n"
		"make -C nccl-tests clean; make -C nccl-tests NCCL_HOME=<the NCCL 2 prefix>   # rebuild the tests against NCCL 2, then rerun",
},
/* ---- torch c10d / ProcessGroupNCCL / elastic --------------------------------------------- */
{
	.id = "torch.store.client_timeout",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "The client socket has timed out after", "client socket has timed out after", "connect() timed out" },
	.cap_after = "trying to connect to (",
	.cap_stop = ")",
	.title = "no rank could reach the TCPStore at ({})",
	.cause = "the rendezvous address MASTER_ADDR:MASTER_PORT is unreachable from this node: wrong MASTER_ADDR, "
		"rank 0 not started (or crashed), or a firewall on MASTER_PORT",
	.fix = "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from this node, while rank 0 runs\n"
		"export MASTER_ADDR=<rank-0 private IP reachable from every node>",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "connect() timed out",	/* torch 1.x's TCPStore client, without the address */
		  .title = "this rank could not reach the TCPStore at MASTER_ADDR:MASTER_PORT (torch 1.x: 'connect() timed out')",
		  .cause = "the rendezvous address MASTER_ADDR:MASTER_PORT is unreachable from this node: wrong "
			"MASTER_ADDR, rank 0 not started (or crashed), or a firewall on MASTER_PORT",
		  .fix = "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from this node, while rank 0 runs\n"
			"export MASTER_ADDR=<rank-0 private IP reachable from every node>" },
		{ .when = NULL },
	},
},
{
	/* torch's tcp:// rendezvous handler: init_method without a port */
	.id = "torch.init_method.no_port",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "using tcp:// rendezvous: port number missing" },
	.title = "init_method='tcp://...' has no port",
	.cause = "torch's tcp:// rendezvous needs host and port (tcp://10.0.0.1:29500); without the port it cannot start",
	.fix = "dist.init_process_group('nccl', init_method=f'tcp://{os.environ[\"MASTER_ADDR\"]}:{os.environ[\"MASTER_PORT\"]}', rank=rank, world_size=world_size)",
},
{
	.id = "torch.store.connect_refused",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "The client socket has failed to connect to", "TCP client failed to connect" },
	.also = "refused",
	.cap_after = "connect to ",
	.cap_stop = " ",
	.title = "the TCPStore at {} refused connections",
	.cause = "rank 0 is not listening (yet) on MASTER_PORT: started later, crashed, or MASTER_ADDR points at "
		"the wrong host",
	.fix = "start rank 0 first and check it is alive; nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "[localhost]",
		  .title = "this rank looked for the TCPStore on itself (MASTER_ADDR=localhost), and nothing listens there",
		  .cause = "with MASTER_ADDR=localhost every node connects to its own loopback: only the rank-0 node "
			"finds the store; on the others nothing listens (refused) and the job waits",
		  .fix = "export MASTER_ADDR=<the private address of the node that runs rank 0>   # the same on every node, never localhost across nodes" },
		{ .when = "[127.",
		  .title = "this rank looked for the TCPStore on a loopback address, and nothing listens there",
		  .cause = "MASTER_ADDR (or the rendezvous endpoint) resolved to 127.x: a host name mapped to 127.0.1.1 "
			"in /etc/hosts, or localhost; every node then connects to itself",
		  .fix = "export MASTER_ADDR=<the private address of the node that runs rank 0>   # an address, not a name /etc/hosts maps to 127.0.1.1\n"
			"getent hosts \"$MASTER_ADDR\"   # on every node: it must print the rank-0 node's private address" },
		{ .when = NULL },
	},
},
{
	/* c10d's socket.cpp: "The client socket has failed to connect to [host]:port (errno: N - text)."
	 * -- the errno says why (refused has its own row); c10d retries until its timeout, so these
	 * are warnings that name what to fix before the timeout error arrives */
	.id = "torch.store.connect_failed",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NET | SIG_SYMPTOM,	/* below a named cause (gai) */
	.anchors = { "The client socket has failed to connect to" },
	.unless = "refused",
	.cap_after = "connect to ",
	.cap_stop = " ",
	.title = "the TCPStore client cannot connect to {}",
	.cause = "a rank cannot open a connection to MASTER_ADDR:MASTER_PORT; the errno on the line says why",
	.fix = "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from the failing node",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "errno: 113",
			.title = "the TCPStore at {} is unreachable (errno 113, no route to host)",
			.cause = "the host answers that no route leads there: a firewall that REJECTs the port (or ICMP "
				"host-unreachable), or MASTER_ADDR is an address of a network this node is not on",
			.fix = "ip route get \"$MASTER_ADDR\"; nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from the failing node\n"
				"sudo firewall-cmd --list-all; sudo iptables -S | grep -i reject   # on the rank-0 node: allow MASTER_PORT from the other nodes",
		},
		{
			.when = "errno: 110",
			.title = "connecting to the TCPStore at {} timed out (errno 110)",
			.cause = "SYNs to MASTER_ADDR:MASTER_PORT get no answer: a firewall or security group that DROPs the "
				"port, or an address the other nodes cannot reach (a public or docker address)",
			.fix = "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from the failing node\n"
				"export MASTER_ADDR=<rank-0 node's address on the network the nodes share>   # on every node",
		},
		{
			.when = "errno: 101",
			.title = "the network of the TCPStore at {} is unreachable from this node (errno 101)",
			.cause = "this node has no route to MASTER_ADDR's network: MASTER_ADDR is an address on a network "
				"this node is not attached to",
			.fix = "ip route get \"$MASTER_ADDR\"   # from the failing node: no route\n"
				"export MASTER_ADDR=<rank-0 node's address on the network the nodes share>   # on every node",
		},
		{
			.when = "errno: 99",
			.title = "this node cannot use a local address to reach the TCPStore at {} (errno 99)",
			.cause = "EADDRNOTAVAIL: no local address can be bound for that destination (an IPv6 or link-local "
				"MASTER_ADDR without a usable interface, or the ephemeral ports are exhausted)",
			.fix = "ip -o addr show; ip route get \"$MASTER_ADDR\"   # the local address that should be used\n"
				"sysctl net.ipv4.ip_local_port_range; ss -s   # ephemeral ports left",
		},
		{ .when = NULL },
	},
},
{
	.id = "torch.store.ipv6_noise",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "97 - Address family not supported by protocol" },
	.title = "benign: torch tried IPv6 for the TCPStore first",
	.cause = "c10d tries every address of MASTER_ADDR; an IPv6 failure followed by a working IPv4 connection is harmless",
	.fix = "nothing to do (export MASTER_ADDR=<IPv4 address> silences it)",
},
{
	.id = "torch.store.gai",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "(gai error" },
	.cap_after = "addresses of (",
	.cap_stop = ")",
	.title = "torch cannot resolve the rendezvous host ({})",
	.cause = "MASTER_ADDR (or the c10d endpoint) is a host name this node cannot resolve",
	.fix = "export MASTER_ADDR=<rank-0 IP address>   # an IP avoids DNS entirely",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.store.port_in_use",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "failed to listen on any local network address", "Address already in use" },
	.unless = "Call to bind" SIG_UNTIL "UDS: " SIG_UNTIL "EADDRNOTAVAIL",	/* NCCL's own binds, not torch's store */
	.title = "MASTER_PORT is already in use on the rank-0 node",
	.cause = "another job or a leftover process of a previous run still listens on MASTER_PORT",
	.fix = "ss -ltnp 'sport = :29500'   # find and stop the old process (use your MASTER_PORT)\n"
		"export MASTER_PORT=$((20000 + RANDOM % 20000))   # or pick another port on every node",
},
{
	/* torch 2.4+: "... failed to listen on any local network address. port: 29500, useIpv6: 0,
	 * code: -99, name: EADDRNOTAVAIL": the store binds MASTER_ADDR itself */
	.id = "torch.store.addr_not_local",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "EADDRNOTAVAIL" },
	.also = "listen",
	.title = "the rank-0 node cannot listen on MASTER_ADDR: that address is not one of its own",
	.cause = "the process that hosts the store (rank 0, or torchrun's agent with node rank 0) binds "
		"MASTER_ADDR, and this host has no such address: rank 0 was started on another host than "
		"MASTER_ADDR names, or MASTER_ADDR is a public/NAT address the host does not carry",
	.fix = "ip -o addr | grep \"$MASTER_ADDR\"   # on the node started with rank 0 / --node-rank=0: it must list MASTER_ADDR\n"
		"export MASTER_ADDR=<the private address of the node that runs rank 0>   # the same on every node",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.store.wait_clients",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "waiting for clients" },
	.cap_after = "seconds waiting for clients. ",
	.cap_stop = " ",
	.title = "rank 0 timed out waiting for the other ranks to join the TCPStore ({} joined)",
	.cause = "the other nodes never reached MASTER_ADDR:MASTER_PORT: not started, a different MASTER_ADDR/PORT, "
		"a firewall on MASTER_PORT, or WORLD_SIZE larger than the processes launched",
	.fix = "start every node with the same MASTER_ADDR, MASTER_PORT, --nnodes and --nproc-per-node\n"
		"nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from every other node",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* torch < 2.0 (_store_based_barrier in distributed_c10d.py): every rank adds itself to a
	 * store key after init_process_group and waits for world_size of them */
	.id = "torch.store.barrier_timeout",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "store based barrier" },
	.also = "Timed out",
	.cap_after = "(world_size=",
	.cap_stop = SIG_UNTIL ", timeout",
	.title = "not every rank reached init_process_group's store barrier (world_size={})",
	.cause = "torch counts the ranks that finished init_process_group in the rendezvous store: a worker_count "
		"below world_size means ranks that never got there (crashed earlier, not launched, or pointed at "
		"another MASTER_ADDR/MASTER_PORT); above world_size, another run (a restarted or concurrent job) "
		"shares the same MASTER_ADDR:MASTER_PORT store",
	.fix = "read the log of the ranks that are missing first: an earlier error there is the cause\n"
		"start every node with the same MASTER_ADDR, MASTER_PORT, --nnodes and --nproc-per-node\n"
		"export MASTER_PORT=<a port no other job uses>   # when worker_count is above world_size: another run shares the store",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* torch < 2.2's TCPStore client: "RuntimeError: Socket Timeout" alone (a get or connect that
	 * waited past the store timeout) */
	.id = "torch.store.socket_timeout",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "Socket Timeout" },
	.unless = "ncclUniqueId" SIG_UNTIL "NcclUniqueId",
	.title = "a rank timed out talking to the rendezvous store (Socket Timeout)",
	.cause = "the TCPStore at MASTER_ADDR:MASTER_PORT did not answer in time: rank 0 was not up yet (or "
		"crashed), another rank was slower to arrive than the store timeout, or the port is filtered between "
		"the nodes",
	.fix = "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from every other node, while rank 0 runs\n"
		"read rank 0's log first: an error there before the timeout is the cause\n"
		"init_process_group(..., timeout=datetime.timedelta(minutes=30))   # when ranks legitimately start far apart",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* torch 2.4+ at exit without destroy_process_group(): a warning, not the failure */
	.id = "torch.pg.not_destroyed",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "process group has NOT been destroyed" },
	.title = "benign: the script exited without dist.destroy_process_group()",
	.cause = "torch 2.4 and later warn when a process exits with its process group alive; the warning is "
		"printed on every exit path, the failure (if any) is elsewhere in the log",
	.fix = "dist.destroy_process_group()   # at the end of the script: silences it and lets pending work finish",
},
{
	/* gloo/transport/tcp/pair.cc: a message longer than the buffer the receiver posted */
	.id = "torch.gloo.size_mismatch",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "op.preamble.length <= op.nbytes" },
	.title = "Gloo received a message larger than the buffer its rank posted",
	.cause = "two ranks disagree on a collective's size or order on the Gloo (CPU) group: a rank-dependent "
		"branch, tensors of different shapes (all_gather of unequal sizes), or different torch versions",
	.fix = "export TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun: torch checks every collective and names the rank, op and shapes that differ\n"
		"python -c 'import torch; print(torch.__version__)'   # on every node: one torch",
	.rerun = RERUN_TORCH,
},
{
	/* gloo's tcp pair/unbound_buffer: a send or recv waited the whole process-group timeout */
	.id = "torch.gloo.timeout",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "for send operation to complete", "for recv operation to complete" },
	.also = "Timed out waiting",
	.title = "a Gloo collective timed out: a peer rank never took part",
	.cause = "the CPU (Gloo) side of a collective waited the whole timeout for a peer: that rank is stuck, "
		"crashed, or took another code path; or the Gloo connection's interface does not reach it",
	.fix = "read the other ranks' logs for an earlier error or a rank that stopped printing\n"
		"dist.monitored_barrier(timeout=datetime.timedelta(seconds=60))   # on a Gloo group: names the ranks that did not arrive\n"
		"export GLOO_SOCKET_IFNAME=<the NIC with the nodes' own addresses>   # on every node, if the ranks are alive",
	.rerun = RERUN_TORCH,
},
{
	/* torch 2.4+ defaults the TCPStore to libuv; builds without it (Windows, some source builds) */
	.id = "torch.store.libuv",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "use_libuv was requested but PyTorch was build without libuv support",
		     "use_libuv was requested but PyTorch was built without libuv support" },
	.title = "the TCPStore asked for libuv, which this torch build lacks",
	.cause = "torch 2.4 made libuv the TCPStore's default backend; a build without libuv (Windows, some "
		"source builds) must be told to use the old one",
	.fix = "export USE_LIBUV=0   # on every node, before the launcher (or init_method='env://?use_libuv=False')",
},
{
	.id = "torch.store.unique_id",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "retrieving ncclUniqueId from [0]", "retrieving NcclUniqueId from [0]" },
	.cap_after = "got error: ",
	.title = "a rank could not get NCCL's unique id from rank 0 ({})",
	.cause = "rank 0 crashed or hung before publishing the NCCL unique id, or the TCPStore connection broke; "
		"rank 0's own log has the cause",
	.fix = "read rank 0's log for its first error and fix that",
	.rerun = RERUN_TORCH,
},
{
	.id = "torch.store.reset",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "Connection reset by peer" },
	.unless = "failed",
	.title = "the TCPStore connection to rank 0 was reset",
	.cause = "rank 0 (which hosts the TCPStore) exited or crashed; its log has the cause",
	.fix = "read rank 0's log for its first error and fix that",
	.rerun = RERUN_TORCH,
},
{
	/* NVIDIA/nccl#296 (maintainer: tensors of different sizes or collectives in a different order) */
	.id = "nccl.collective.mismatch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	/* net_ib.cc: the receiver posted a buffer of another size than the sender's message */
	.anchors = { "Mismatched collective detected", "collective mismatch error, local size",
		     "collective mismatch error local size" },
	.title = "NCCL saw ranks call different collectives (or different sizes) at the same point",
	.cause = "the ranks issued collectives in a different order or with different counts; NCCL only notices "
		"some of these, the rest hang",
	.fix = "export TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun: torch checks every collective and names the rank, op and shapes that differ\n"
		"make every rank call the same collectives in the same order with the same sizes (rank-dependent branches, uneven last batches)",
	.rerun = RERUN_HANG,
},
{
	/* init.cc (2.4-2.5): the kernel's watchdog saw a peer wait for a collective this rank never
	 * posted (ncclDevSuspectedMismatch): a suspicion, NCCL does not stop the job */
	.id = "nccl.collective.suspected_mismatch",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "may be caused by a collective mismatch around rank" },
	.cap_after = "mismatch around rank ",
	.cap_stop = ".",
	.title = "NCCL suspects a collective mismatch around rank {}: the job hangs there",
	.cause = "NCCL's kernels waited long for data that rank should have sent: it called a different collective, "
		"a different size, or none (a rank-dependent branch, an uneven last batch), or it is stuck elsewhere",
	.fix = "export TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun: torch checks every collective and names the rank, op and shapes that differ\n"
		"py-spy dump --pid <pid of that rank>   # if it is stuck outside NCCL: where it is",
	.rerun = RERUN_HANG,
},
/* ---- Huawei Ascend's HCCL (torch_npu, vllm-ascend): its own log lines, "[ERROR] HCCL(pid,..." */
{
	/* hccl_socket.cc: "listen on ip[A] and specific port[16666] fail. Please check the port status
	 * and whether the port is been using by other process." */
	.id = "hccl.listen_failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "and specific port[" },
	.also = "listen on ip[",
	.cap_after = "specific port[",
	.cap_stop = "]",
	.title = "HCCL could not listen on port {}: another process holds it, or the address is not this host's",
	.cause = "HCCL binds a fixed port on the address it was given; a process of an earlier or parallel run "
		"still holding the port (on the same NPUs), or an HCCL_IF_IP that is not an address of this host, "
		"makes the bind fail, and the ranks that wait for it time out later",
	.fix = "ss -ltnp 'sport = :{}'   # on that host: which process holds the port (an old run: stop it)\n"
		"ip -br addr   # the address in 'listen on ip[...]' must be this host's (HCCL_IF_IP)",
},
{
	/* EI0006 "Getting socket times out", hccl_socket_manager.cc "wait socket establish timeout ...
	 * timeout[120]": HCCL_CONNECT_TIMEOUT (120 s by default) passed before the peers connected */
	.id = "hccl.connect_timeout",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "wait socket establish timeout", "Getting socket times out", "Communication_Error_Get_Socket" },
	.title = "HCCL's connections between ranks timed out (EI0006): a rank was late, stuck, or could not be reached",
	.cause = "HCCL waits HCCL_CONNECT_TIMEOUT (120 s by default) for the other ranks to connect; a rank that "
		"failed earlier, reached the collective much later (model loading, graph compilation), or whose "
		"NPU network is down leaves the others waiting",
	.fix = "grep -n 'ERROR' <every rank's log> | head   # the earliest error in the cluster is the cause; the others wait for it\n"
		"export HCCL_CONNECT_TIMEOUT=1200   # on every rank, the same value, when ranks reach the collective far apart\n"
		"hccn_tool -i <npu> -link -g; hccn_tool -i <npu> -net_health -g   # on each host: the NPU NICs' link and reachability",
},
{
	/* ras/rasnet.cc (2.24+ INFO): RAS gave up on a peer connection after its long timeouts */
	.id = "nccl.ras.peer_lost",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "RAS keep-alive timeout error", "RAS connect retry timeout", "RAS init timeout error",
		     "RAS send stuck timeout error" },
	.cap_after = "connection with ",
	.cap_stop = " ,<",
	.title = "NCCL's RAS lost contact with {}: that peer stopped answering, or the network between the nodes did",
	.cause = "RAS keeps a connection to other ranks' processes and gives up after long timeouts (tens of "
		"seconds) without a reply: that process is frozen or dead, its node went down, or the link between "
		"the nodes fails; when several ranks name one address, it is that node",
	.fix = "ncclras   # on any node of a running job (NCCL 2.24+): which ranks RAS sees as dead or missing\n"
		"ping -c 5 {}; ssh {} 'dmesg | tail'   # is that node up, and what did its kernel say",
},
{
	/* ras.cc (2.24+): NCCL's RAS found a peer of another NCCL version */
	.id = "nccl.version.peer_mismatch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "NCCL version mismatch with remote peer" },
	.cap_after = "remote peer ",
	.title = "the ranks run different NCCL versions: remote peer {}",
	.cause = "the nodes load different NCCL libraries (another container image, another torch wheel, an "
		"LD_LIBRARY_PATH or LD_PRELOAD that picks a system NCCL on some nodes); mixed versions are not "
		"supported and fail or hang in set-up",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # on every node: must print the same\n"
		"NCCL_DEBUG=INFO python ... 2>&1 | grep 'NCCL version'   # the library each node really loads",
	.check = "ncclcheck cluster   (on every node at once: compares the NCCL, CUDA and driver versions of the nodes)",
},
{
	/* enqueue.cc: no algorithm/protocol can run this collective; with NCCL_ALGO/NCCL_PROTO set the
	 * message names them and NCCL returns invalid usage */
	.id = "nccl.env.algo_unavailable",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "no algorithm/protocol available" },
	.title = "NCCL found no algorithm/protocol that can run a collective here",
	.cause = "with neither NCCL_ALGO nor NCCL_PROTO set this is NCCL's own internal error: a collective, data "
		"type or topology its tuning does not cover (an NCCL too old for the GPUs or the operation)",
	.fix = "env | grep -E '^NCCL_'   # on every node: any setting that restricts NCCL (NCCL_ALGO, NCCL_PROTO, NCCL_*_DISABLE)\n"
		"pip install -U nvidia-nccl-cu12   # or nvidia-nccl-cu13: a newer NCCL",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "was set to",
		  .title = "NCCL has no algorithm/protocol left for a collective: NCCL_ALGO / NCCL_PROTO exclude every one that works here",
		  .cause = "NCCL_ALGO or NCCL_PROTO force choices (NVLS, CollNet, Tree, LL128...) that this system, "
			"this collective or this data type cannot use; NCCL then fails with invalid usage",
		  .fix = "unset NCCL_ALGO NCCL_PROTO   # on every node: let NCCL choose; force them only to test a suspicion\n"
			"env | grep -E '^NCCL_(ALGO|PROTO)='   # where they are set (a container image, a launcher script)" },
		{ .when = NULL },
	},
},
{
	/* misc/cudawrap.cc (2.14+): NCCL_CUDA_PATH names no libcuda */
	.id = "nccl.env.cuda_path",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Failed to find CUDA library in" },
	.also = "NCCL_CUDA_PATH=",
	.cap_after = "NCCL_CUDA_PATH=",
	.cap_stop = ")",
	.title = "NCCL_CUDA_PATH={} holds no CUDA driver library",
	.cause = "NCCL_CUDA_PATH tells NCCL where libcuda.so is; the directory given has none, so NCCL cannot use CUDA",
	.fix = "unset NCCL_CUDA_PATH   # NCCL finds the driver's libcuda.so.1 itself\n"
		"ldconfig -p | grep libcuda.so.1   # where the driver's library really is",
},
{
	/* init.cc: a non-blocking communicator used before ncclCommGetAsyncError said ncclSuccess */
	.id = "nccl.nonblocking.in_progress",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Attempt to use communicator before the previous operation returned ncclSuccess" },
	.title = "a non-blocking NCCL communicator was used before its previous operation finished",
	.cause = "with NCCL's non-blocking mode (torch: init_process_group(device_id=...) or "
		"TORCH_NCCL_USE_COMM_NONBLOCKING=1) every call must wait until the communicator is ready; a "
		"framework or extension that issues NCCL calls on that communicator itself does not",
	.fix = "export TORCH_NCCL_USE_COMM_NONBLOCKING=0   # to test: blocking mode\n"
		"pip install -U torch   # code that drives the communicator itself must poll ncclCommGetAsyncError until ncclSuccess",
},
{
	/* bootstrap.cc (2.23+): NCCL_OOB_NET_IFNAME matched nothing; NCCL ignores it */
	.id = "nccl.env.oob_ifname",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "no device found matching NCCL_OOB_NET_IFNAME=" },
	.cap_after = "NCCL_OOB_NET_IFNAME=",
	.cap_stop = ",",
	.title = "NCCL_OOB_NET_IFNAME={} matches no network device: NCCL ignores it",
	.cause = "NCCL_OOB_NET_IFNAME picks the device of NCCL's out-of-band bootstrap over the network plugin "
		"(with NCCL_OOB_NET_ENABLE=1); a name no device has is ignored and the default is used",
	.fix = "ibv_devices; ip -br link   # the device names this node has\n"
		"unset NCCL_OOB_NET_IFNAME   # or set it to one of them, on every node",
},
{
	/* Lightning-AI/pytorch-lightning#19106 (log_dict keys differ), modelscope/ms-swift#9443 */
	.id = "torch.collective.mismatch",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Detected mismatch between collectives on ranks" },
	.title = "ranks called different collectives at the same point (torch's DETAIL check)",
	.cause = "TORCH_DISTRIBUTED_DEBUG=DETAIL compares a fingerprint of every collective across ranks; the "
		"ones named differ in op, shape or dtype, so without the check this would hang",
	.fix = "make every rank call the same collectives in the same order with the same shapes: the two fingerprints show which rank diverged\n"
		"look at rank-dependent code before it: metrics logged only on some ranks (log_dict with different keys), a branch on the data, uneven last batches",
},
{
	.id = "torch.watchdog.timeout",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	/* torch 2.2+ also prints "Timeout at NCCL work: N, last enqueued NCCL work: N, last completed
	 * NCCL work: N-1" per rank */
	.anchors = { "Watchdog caught collective operation timeout", "Timeout at NCCL work:" },
	.cap_after = "WorkNCCL(",
	.cap_stop = SIG_UNTIL ") ran",
	.title = "a collective timed out in the watchdog ({})",
	.cause = "a collective did not finish within the process-group timeout: a rank never called it "
		"(diverging code, a crashed or slower rank), or the network between the nodes stalls",
	.fix = "compare the SeqNum of every rank: the rank with the lowest SeqNum is the one that diverged\n"
		"export TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1   # flight recorder for the next hang\n"
		"dist.init_process_group(..., timeout=timedelta(minutes=60))   # when one rank is legitimately busy while the others wait (rank-0-only checkpointing or evaluation, preprocessing, slow loading)",
	.rerun = RERUN_HANG,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.comm.aborted",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "NCCL communicator was aborted", "Some NCCL operations have failed or timed out" },
	.title = "torch aborted the NCCL communicator",
	.cause = "a follow-on of an earlier failure (watchdog timeout or NCCL error) on this or another rank",
	.fix = "find the first watchdog timeout or NCCL error across all ranks' logs",
	.rerun = RERUN_HANG,
},
{
	.id = "torch.watchdog.heartbeat",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "Heartbeat monitor timed out", "watchdog got stuck for", "watchdog thread got stuck" },
	.title = "torch's NCCL watchdog itself got stuck",
	.cause = "a CUDA or NCCL call blocked the watchdog thread (a hung GPU, a hung NCCL abort)",
	.fix = "nvidia-smi   # on the stuck node; look for Xid errors: dmesg | grep -i xid\n"
		"export TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC=1200   # only if the job is legitimately slow",
	.rerun = RERUN_HANG,
},
{
	.id = "torch.nccl.no_gpu",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "ProcessGroupNCCL is only supported with GPUs", "No CUDA GPUs are available" },
	.title = "the NCCL backend found no GPU",
	.cause = "torch sees no CUDA device: a CPU-only torch build, CUDA_VISIBLE_DEVICES empty, or no driver in the container",
	.fix = "python -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())'\n"
		"docker run --gpus all ...   # containers need the GPUs passed in\n"
		"echo \"LD_LIBRARY_PATH=$LD_LIBRARY_PATH\" >> ~/.deepspeed_env   # launchers over ssh/pdsh (deepspeed, mpirun) do not pass your shell's environment: forward LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES (mpirun -x LD_LIBRARY_PATH)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "cuda.invalid_ordinal",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "nvalid device ordinal" },
	.title = "a rank asked for a GPU index this node does not have",
	.cause = "LOCAL_RANK (or the device id) >= the number of visible GPUs: --nproc-per-node or Lightning's "
		"devices is larger than the GPUs on the node, or CUDA_VISIBLE_DEVICES hides some",
	.fix = "nvidia-smi -L   # count the GPUs (CUDA_VISIBLE_DEVICES narrows them to those it lists)\n"
		"torchrun --nproc_per_node=<that count> ...   # one process per visible GPU (Lightning: devices=<that count>; a run script's own count, e.g. NGPU, likewise)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* vLLM/SGLang's custom all-reduce (csrc/custom_all_reduce.cu*) uses CUDA IPC peer access
	 * between the GPUs itself, outside NCCL */
	.id = "explain.vllm.custom_allreduce",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "custom_all_reduce.cuh", "custom_all_reduce.cu:" },
	.cap_after = "custom_all_reduce.cu",
	.title = "vLLM/SGLang's custom all-reduce failed (custom_all_reduce.cu{}): its GPU peer access does not work here",
	.cause = "tensor parallelism in vLLM and SGLang runs a custom all-reduce kernel over CUDA IPC peer access "
		"instead of NCCL for small tensors; on GPUs without peer-to-peer (PCIe boards such as T4 or GeForce, "
		"across an IOMMU) or on a GPU architecture the build does not support it fails with 'peer access is "
		"not supported' or 'invalid argument'",
	.fix = "--disable-custom-all-reduce   # vllm serve / sglang.launch_server flag (disable_custom_all_reduce=True in Python): NCCL does the all-reduce\n"
		"nvidia-smi topo -p2p r   # whether the driver allows P2P between these GPUs",
},
{
	/* torch's C10_CUDA_CHECK ("CUDA error: %s") and its driver-API check ("CUDA driver error: %s"):
	 * the strings that have a signature of their own are left to it */
	.id = "cuda.error",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_VARIANT_CONF,
	.anchors = { "CUDA error: ", "CUDA driver error: " },
	.unless = "device-side assert" SIG_UNTIL "illegal memory access" SIG_UNTIL "unspecified launch failure"
		SIG_UNTIL "no kernel image" SIG_UNTIL "nvalid device ordinal" SIG_UNTIL "busy or unavailable"
		SIG_UNTIL "insufficient for CUDA runtime" SIG_UNTIL "system not yet initialized" SIG_UNTIL "ECC error",
	.cap_after = "error: ",
	.title = "a CUDA call failed: {}",
	.cause = "CUDA's own error for a call the process made; kernels report asynchronously, so the failing "
		"call can be an earlier one than the traceback shows",
	.fix = "CUDA_LAUNCH_BLOCKING=1 python ...   # rerun: the traceback then names the call that failed\n"
		"nvidia-smi   # on the failing node: the GPUs, the driver, and who holds them",
	.rerun = "CUDA_LAUNCH_BLOCKING=1",
	.variants = cuda_errors,
},
{
	.id = "cuda.oom",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "CUDA out of memory", "OutOfMemoryError" },
	.unless = "running low on memory",	/* Ray's OutOfMemoryError is the host's: host.oom */
	.title = "a rank ran out of GPU memory",
	.cause = "the model, batch or activations do not fit on the GPU (or another process shares it)",
	.fix = "reduce the batch size, enable activation checkpointing or FSDP/ZeRO sharding\n"
		"export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True   # less fragmentation",
},
{
	.id = "cuda.illegal_access",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "illegal memory access was encountered" },
	.title = "a CUDA kernel made an illegal memory access",
	.cause = "a bug in a kernel (custom op, index out of range) or a faulty GPU; the error is reported "
		"asynchronously, so the traceback may point elsewhere",
	.fix = "export CUDA_LAUNCH_BLOCKING=1   # rerun to get the real failing kernel\ndmesg | grep -i xid   # a hardware Xid means a bad GPU",
	.rerun = "CUDA_LAUNCH_BLOCKING=1",
},
{
	.id = "cuda.launch_failure",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "nspecified launch failure" },
	.title = "a CUDA kernel failed ('unspecified launch failure')",
	.cause = "a kernel crashed: a bug, or a GPU/driver fault (look for Xid 13/31/43 in dmesg)",
	.fix = "dmesg | grep -i xid\nexport CUDA_LAUNCH_BLOCKING=1   # rerun to find the kernel",
	.rerun = "CUDA_LAUNCH_BLOCKING=1",
},
{
	.id = "cuda.no_kernel_image",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "no kernel image is available for execution on the device" },
	.title = "torch has no kernels for this GPU's architecture",
	.cause = "the installed torch wheel was not built for {gpu_arch} (too old a wheel for a new GPU or the reverse)",
	.fix = "python -c 'import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())'   # must include {gpu_arch}\n"
		"pip install torch --index-url https://download.pytorch.org/whl/cu128   # a build that covers the GPU",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "cuda.driver_too_old",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "driver version is insufficient for CUDA runtime version", "The NVIDIA driver on your system is too old" },
	.title = "the NVIDIA driver is too old for this torch's CUDA",
	.cause = "the CUDA runtime in torch needs a newer driver than the node has",
	.fix = "nvidia-smi   # driver version\npip install torch built for an older CUDA, or upgrade the driver",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.elastic.child_failed",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "ChildFailedError" },
	.title = "torchrun reports that a worker failed",
	.cause = "torchrun only relays the failure; the 'Root Cause (first observed failure)' block names the rank, "
		"and that rank's traceback holds the real error",
	.fix = "read the rank named under 'Root Cause (first observed failure)' and its traceback",
},
{
	.id = "sys.sigkill",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "Signal 9 (SIGKILL)", "exitcode  : -9", "exit code -9", "failed (exitcode: -9)",
		     "terminated with signal SIGKILL", "exits with return code = -9", "died with <Signals.SIGKILL" },
	.title = "a worker was killed with SIGKILL",
	.cause = "usually the kernel's OOM killer (host RAM, not GPU memory), or the scheduler killing the job",
	.fix = "dmesg -T | grep -i -E 'killed process|out of memory'\nreduce DataLoader num_workers / pin_memory, or ask for more RAM",
},
{
	/* torch's elastic agent: "...api:failed (exitcode: N) local_rank: R (pid: P) of binary: ..."; the
	 * exit code is the signal (negative) or the worker's own status */
	.id = "torch.elastic.worker_exit",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "failed (exitcode: " },
	.cap_after = "failed (exitcode: ",
	.cap_stop = ")",
	.title = "a worker exited with code {} and torchrun stopped the job",
	.cause = "torchrun only reports the exit; the worker's own output (its traceback, or the kernel log for a "
		"signal) says why",
	.fix = "read the named local_rank's traceback: the first exception there is the cause",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "exitcode: -11",
		  .title = "a worker died of a segmentation fault (exitcode -11)",
		  .cause = "SIGSEGV in the worker: a crash in native code (a CUDA or NCCL library mismatch, a "
			"custom extension, a torch/NCCL bug); the faulthandler or core dump names the library",
		  .fix = "export TORCH_SHOW_CPP_STACKTRACES=1 PYTHONFAULTHANDLER=1   # rerun: the crashing frames are printed\n"
			"python -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.nccl.version())'   # on every node: one torch, one NCCL" },
		{ .when = "exitcode: -7",
		  .title = "a worker died of a bus error (exitcode -7): shared memory could not be backed",
		  .cause = "SIGBUS when touching shared memory: /dev/shm is full or too small (a container's 64 MB "
			"default), used by NCCL and by DataLoader workers",
		  .fix = "df -h /dev/shm   # on the node\ndocker run --shm-size=16g ...   # or --ipc=host; Kubernetes: an emptyDir with medium: Memory at /dev/shm" },
		{ .when = "exitcode: -6",
		  .title = "a worker aborted (exitcode -6, SIGABRT)",
		  .cause = "the worker called abort(): torch's NCCL watchdog tearing the process down after a "
			"timeout or NCCL error, a C++ exception nobody caught, or a failed assertion; the lines before "
			"it name which",
		  .fix = "read the worker's last lines before the abort: a watchdog timeout or NCCL error there is the cause" },
		{ .when = "exitcode: -15",
		  .title = "a worker was stopped with SIGTERM (exitcode -15): another worker failed first, or the job was cancelled",
		  .cause = "torchrun sends SIGTERM to the other workers when one fails; the scheduler does it on a "
			"time limit or cancel: the first worker that failed is the cause",
		  .fix = "find the first worker that failed (the lowest timestamp, or 'Root Cause (first observed failure)') and read its traceback" },
		{ .when = NULL },
	},
},
{
	/* torch.distributed.elastic agent: the launching shell went away (ssh session closed) */
	.id = "torch.elastic.sighup",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "SIGHUP death signal" },
	.title = "torchrun was hung up on (SIGHUP): the terminal or ssh session that started it closed",
	.cause = "a job started in the foreground of an ssh session or terminal receives SIGHUP when that "
		"session ends, and torchrun then shuts its workers down; nothing in the job failed",
	.fix = "nohup torchrun ... > train.log 2>&1 &   # or run it inside tmux/screen, or submit it to the scheduler (sbatch)",
},
{
	/* torch.distributed.elastic's agent: "Received <signal> death signal, shutting down workers"
	 * (Signals.SIGTERM from torch 2.x, the number before); SIGHUP has its own row */
	.id = "torch.elastic.death_signal",
	/* a warning: a job that hung and was then stopped (a timeout, scancel) prints it too, and the
	 * hang's own reasoning must still run and come first */
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "death signal, shutting down workers" },
	.unless = "SIGHUP" SIG_UNTIL "Received 1 death",
	.cap_after = "Received ",
	.cap_stop = SIG_UNTIL " death signal",
	.title = "torchrun itself received a signal ({}) and stopped its workers",
	.cause = "the signal came from outside the job: the launcher was stopped, and its workers with it",
	.fix = "sacct -j $SLURM_JOB_ID -o JobID,State,Elapsed,Timelimit   # Slurm: TIMEOUT, CANCELLED or PREEMPTED",
	.variants = (const struct explain_sig_variant[]){
#define SIGTERM_VARIANT(w) { .when = w, \
	.title = "torchrun itself received SIGTERM and stopped its workers: the job was ended from outside this node", \
	.cause = "SIGTERM comes from outside: a Slurm time limit or scancel, srun stopping the other tasks after " \
	"one task (on another node) failed, a Kubernetes eviction or preemption (spot instances), or a kill", \
	.fix = "sacct -j $SLURM_JOB_ID -o JobID,State,Elapsed,Timelimit   # Slurm: TIMEOUT, CANCELLED or PREEMPTED\n" \
	"kubectl describe pod <pod>   # Kubernetes: Evicted, Preempted, or the node was drained\n" \
	"grep -n 'Traceback\\|Error' <the other nodes' logs>   # srun ends every task when one fails: the first failure is the cause" \
	}
		SIGTERM_VARIANT("SIGTERM"),
		SIGTERM_VARIANT("Received 15 death"),	/* torch before 2.0: the number */
#undef SIGTERM_VARIANT
		{ .when = "SIGINT",
		  .title = "torchrun itself received SIGINT (Ctrl-C) and stopped its workers",
		  .cause = "an interrupt from the terminal (or a kill -INT) stops torchrun, and it stops its workers",
		  .fix = "nohup torchrun ... > train.log 2>&1 &   # a run that must outlive the terminal; or submit it to the scheduler" },
		{ .when = NULL },
	},
},
{
	/* torch.cuda._lazy_init: a child made by fork() after the parent used CUDA */
	.id = "torch.cuda.fork",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Cannot re-initialize CUDA in forked subprocess" },
	.title = "CUDA was used in a process forked after its parent had initialised CUDA",
	.cause = "a CUDA context does not survive fork(): DataLoader workers, multiprocessing pools or a "
		"launcher that forks (Lightning's ddp_fork, notebooks) after the parent touched the GPU",
	.fix = "torch.multiprocessing.set_start_method('spawn', force=True)   # at the top of the main script\n"
		"keep CUDA out of the parent before the fork (no .cuda() or torch.cuda calls in DataLoader workers or before the pool starts)",
},
{
	/* Ray: an actor or worker process died; its own log holds the reason */
	.id = "ray.worker_died",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "The actor died unexpectedly before finishing this task", "A worker died or was killed while executing" },
	.title = "a Ray actor or worker died: its own log says why",
	.cause = "Ray reports the death, not its cause: a crash, an out-of-memory kill, or an NCCL failure inside "
		"the worker (vLLM's and verl's GPU workers are Ray actors)",
	.fix = "ls /tmp/ray/session_latest/logs/worker-*   # on the node of the dead worker: its stderr has the first error\n"
		"dmesg | grep -i -E 'killed process|oom'   # the kernel's OOM killer",
},
{
	/* Ray: a node could not reach the head's GCS (port 6379 by default) */
	.id = "ray.gcs_connect",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "Failed to connect to GCS at address" },
	.cap_after = "GCS at address ",
	.cap_stop = " ,",
	.title = "a node could not reach Ray's head (GCS at {})",
	.cause = "the worker node cannot open the head node's GCS port: wrong address (a public or docker IP), "
		"a firewall or security group, or the head is not running",
	.fix = "ray status --address={}   # from the failing node: does the head answer?\n"
		"nc -zv <head address> 6379   # the GCS port must be open between the nodes (and Ray's other ports)",
},
{
	/* vLLM: the GPU count asked for (tensor x pipeline parallel) exceeds the Ray cluster's */
	.id = "vllm.gpus_exceed",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "number of required GPUs exceeds the total number of available GPUs",
		     "Ray does not allocate any GPUs on the driver node" },
	.title = "vLLM asked Ray for more GPUs than its cluster has (or none on the driver's node)",
	.cause = "tensor_parallel_size x pipeline_parallel_size must not exceed the GPUs Ray sees, and the node "
		"that starts vLLM must have GPUs in the Ray cluster; a node that did not join shrinks the count",
	.fix = "ray status   # the GPUs Ray counts, per node: every node must have joined\n"
		"--tensor-parallel-size <GPUs per node> --pipeline-parallel-size <nodes>   # their product at most the GPUs Ray counts",
},
{
	/* vLLM's config check: attention heads split evenly across the tensor-parallel ranks */
	.id = "vllm.tp_heads",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "must be divisible by tensor parallel size" },
	.title = "the model's attention heads do not divide by the tensor-parallel size",
	.cause = "tensor parallelism splits the attention heads evenly across the GPUs; the size asked for is "
		"not a divisor of the model's head count",
	.fix = "--tensor-parallel-size <a divisor of the head count>   # e.g. 1, 2, 4 or 8 for 32 heads; use pipeline parallelism for the rest",
},
{
	/* vLLM (custom_all_reduce.py): a note, not a failure; NCCL does the all-reduce */
	.id = "vllm.custom_allreduce_off",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "Custom allreduce is disabled because" },
	.title = "vLLM turned its custom all-reduce off here; NCCL does the all-reduce (harmless)",
	.cause = "vLLM uses its own all-reduce only where GPU peer access allows it (NVLink, or two PCIe GPUs); "
		"otherwise it says so and uses NCCL",
	.fix = "--disable-custom-all-reduce   # silences the note; nothing else to do",
},
{
	/* torch: tensors of one op on two GPUs, the usual sign of a rank that did not select its GPU */
	.id = "torch.device_mismatch",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "Expected all tensors to be on the same device" },
	.title = "an operation got tensors on different devices",
	.cause = "a tensor stayed on another GPU (or the CPU) than the model: in distributed jobs, a rank that "
		"did not select its own GPU (cuda:0 is the default) or a model moved before set_device",
	.fix = "torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # first thing in each rank, then .to('cuda') or .cuda()\n"
		"DistributedDataParallel(model, device_ids=[local_rank])   # the model and its inputs on the rank's own GPU",
},
{
	/* torch.distributed.elastic: what the agent does after a worker failed; the failure is elsewhere */
	.id = "torch.elastic.stopping_workers",
	.sev = SEV_WARN, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "closing signal SIGTERM", "Worker group FAILED" },
	.title = "torchrun stopped or restarted the workers after one of them failed",
	.cause = "torchrun sends SIGTERM to the remaining workers (and restarts the group while --max-restarts "
		"allows) once a worker fails: these lines follow the failure and are not it",
	.fix = "grep -n 'Root Cause\\|Traceback\\|Error' <log>   # the first worker's failure, in torchrun's summary or above these lines",
},
{
	/* ProcessGroupGloo::monitoredBarrier, rank 0: "[Rank 0]: Ranks 1, 2 failed to pass
	 * monitoredBarrier in 30000 ms" */
	.id = "torch.barrier.monitored_missing",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "failed to pass monitoredBarrier" },
	.cap_after = "]: Ranks ",
	.cap_stop = SIG_UNTIL " failed to pass",
	.title = "rank(s) {} never reached torch's monitored barrier: they are stuck or died before it",
	.cause = "dist.monitored_barrier() on rank 0 names the ranks that did not arrive in time; the others "
		"were there, so the cause is in those ranks (a crash, a hang in their own code, a slower data path)",
	.fix = "read the logs of the ranks named above first\n"
		"py-spy dump --pid <pid of that rank>   # where a stuck rank is (ncclcheck attach --pid <pid> reads its Python stack too)",
},
{
	/* ProcessGroupGloo::monitoredBarrier, a non-zero rank whose exchange with rank 0 failed */
	.id = "torch.barrier.monitored_rank0",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "successfully reached monitoredBarrier, but received errors" },
	.title = "rank 0 failed during torch's monitored barrier: this rank arrived, rank 0's log holds the cause",
	.cause = "the reporting rank reached dist.monitored_barrier() but its Gloo exchange with rank 0 failed: "
		"rank 0 crashed, was killed, or cannot be reached over Gloo's interface",
	.fix = "read rank 0's log first\n" FIX_GLOO_IFNAME "   # if rank 0 is alive: Gloo must use an interface the ranks reach each other on",
},
{
	/* torch: a collective on a CPU tensor with a process group that has no CPU backend */
	.id = "torch.pg.no_cpu_backend",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "No backend type associated with device type cpu" },
	.title = "a collective got a CPU tensor, and the process group has only NCCL (no CPU backend)",
	.cause = "init_process_group('nccl') serves CUDA tensors only; a CPU tensor (a metric, an object "
		"collective, a barrier without a device) has no backend to run on",
	.fix = "dist.init_process_group(backend='cpu:gloo,cuda:nccl')   # CPU tensors then go over Gloo\n"
		"tensor = tensor.cuda()   # or move the tensor to the rank's GPU before the collective",
},
{
	/* C10D_CHECK_TIMEOUT (NCCLUtils.hpp): a non-blocking NCCL call still in progress after
	 * TORCH_NCCL_NONBLOCKING_TIMEOUT */
	.id = "torch.nccl.nonblocking_timeout",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "NCCL timeout in: " },
	.title = "an NCCL call in non-blocking mode did not finish within torch's timeout (NCCL timeout in ...)",
	.cause = "torch used NCCL's non-blocking API (init_process_group(device_id=...) or "
		"TORCH_NCCL_USE_COMM_NONBLOCKING=1) and the communicator set-up or call stayed in progress: ranks "
		"that cannot reach each other, a rank that never started, or a hang inside NCCL",
	.fix = "srun --ntasks-per-node=1 ncclcheck cluster   # on every node at once (or under torchrun/mpirun): interfaces, routes and NCCL's port ranges between them\n"
		"export TORCH_NCCL_NONBLOCKING_TIMEOUT=<seconds>   # only when set-up is merely slow (many ranks)",
	.rerun = RERUN_NCCL,
},
{
	/* torch.distributed.elastic: the c10d/etcd rendezvous was closed by another node's agent */
	.id = "torch.elastic.rendezvous_closed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "RendezvousClosedError", "but it has already been closed" },
	.title = "the rendezvous was closed: another node's torchrun ended the job",
	.cause = "a node's agent closes the rendezvous when its workers failed beyond --max-restarts or it "
		"finished; the other nodes then stop with this error: the first failing node's log holds the cause",
	.fix = "read the other nodes' logs for the first worker failure\n"
		"torchrun --max-restarts=3 ...   # to ride over a transient failure",
},
{
	/* ProcessGroupNCCL's barrier without a known device (torch 2.x): it guesses rank % GPUs (or the
	 * current device), and a wrong guess puts two ranks on one GPU or waits forever */
	.id = "torch.barrier.device_unknown",
	.sev = SEV_WARN, .conf = CONF_MEDIUM,
	.anchors = { "to perform barrier as devices used by this process are currently unknown",
		     "Guessing device ID based on global rank" },
	.title = "torch guessed the GPU of a rank for barrier(): a wrong guess hangs or shares a GPU",
	.cause = "the process called dist.barrier() (or init) before telling torch its GPU; torch then uses a GPU "
		"from the rank number, which is wrong when ranks per node differ or CUDA_VISIBLE_DEVICES narrows "
		"the GPUs, and ranks hang in the barrier or two use one GPU",
	.fix = "torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # first, in every process\n"
		"init_process_group('nccl', device_id=torch.device('cuda', int(os.environ['LOCAL_RANK'])))   # torch 2.3+\n"
		"dist.barrier(device_ids=[int(os.environ['LOCAL_RANK'])])",
},
{
	.id = "torch.nccl.cpu_tensor",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Tensors must be CUDA and dense" },
	.title = "a CPU tensor was passed to an NCCL collective",
	.cause = "the NCCL backend only moves GPU tensors; a tensor on the CPU (a metric, a Python scalar turned "
		"into a tensor, an object collective on a CPU tensor) reached all_reduce/broadcast",
	.fix = "tensor = tensor.cuda()   # before the collective, on the rank's own device\n"
		"dist.new_group(backend='gloo')   # for collectives that must stay on the CPU, pass group= this one",
},
{
	.id = "torch.ddp.unused_parameters",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Expected to have finished reduction in the prior iteration" },
	.title = "DDP found parameters that got no gradient in the last iteration",
	.cause = "DistributedDataParallel waits for a gradient of every parameter; a module or branch that did not "
		"contribute to the loss leaves its bucket unreduced (and ranks taking different branches can hang)",
	.fix = "DistributedDataParallel(model, find_unused_parameters=True)   # or make every parameter take part in the loss\n"
		"export TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun: torch names the parameters that got no gradient",
},
{
	.id = "torch.pg.not_initialized",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "process group has not been initialized" },
	.title = "a torch.distributed call ran before init_process_group()",
	.cause = "dist.* was called in a process whose default process group does not exist: init_process_group "
		"was not called (or not yet), or the code runs in a process the launcher did not start (a "
		"DataLoader worker, a notebook)",
	.fix = "dist.init_process_group('nccl')   # once, at the start of every rank, before any dist.* call\n"
		"if dist.is_available() and dist.is_initialized(): ...   # guard code that also runs single-process",
},
{
	/* torch's env:// rendezvous: a variable the launcher sets is missing */
	.id = "torch.env.not_set",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "expected, but not set" },
	.cap_after = "environment variable ",
	.cap_stop = " ",
	.title = "the script was not started by a launcher: {} is not set",
	.cause = "init_process_group('nccl') with env:// reads MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE; "
		"torchrun (or srun/mpirun with a wrapper) sets them, a plain 'python train.py' does not",
	.fix = "torchrun --nnodes=<N> --nproc-per-node=<GPUs> --rdzv-backend=c10d --rdzv-endpoint=<node0>:29500 train.py   # on every node\n"
		"export MASTER_ADDR=<node0 IP> MASTER_PORT=29500 RANK=<rank> WORLD_SIZE=<world>   # when starting processes yourself",
},
{
	.id = "cuda.device_busy",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "busy or unavailable" },
	.also = "CUDA",
	.title = "CUDA reports the GPU busy or unavailable",
	.cause = "the GPU is in Exclusive Process compute mode and another process (another rank, a leftover job) "
		"holds it, or the GPU is in a bad state (an Xid error, a failed MIG set-up)",
	.fix = "nvidia-smi -q | grep -i 'compute mode'; nvidia-smi   # on {node}: the mode and the processes on each GPU\n"
		"sudo nvidia-smi -c DEFAULT   # let several processes share a GPU, or make each rank use its own (LOCAL_RANK)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.elastic.rendezvous_timeout",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "RendezvousTimeoutError" },
	.title = "torchrun's rendezvous timed out",
	.cause = "not every node joined the rendezvous in time: --nnodes larger than the nodes started, different "
		"--rdzv-id/--rdzv-endpoint, or the endpoint is unreachable",
	.fix = "start every node with the same --nnodes, --rdzv-id and --rdzv-endpoint=<rank-0 IP>:29400\n"
		"nc -zv <rank-0 IP> 29400   # from every node",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.elastic.rendezvous_connection",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "RendezvousConnectionError" },
	.title = "torchrun could not reach its rendezvous endpoint",
	.cause = "--rdzv-endpoint is wrong or not reachable from this node, or its port is firewalled",
	.fix = "nc -zv <rdzv host> <rdzv port>   # from this node\ntorchrun --rdzv-endpoint=<rank-0 private IP>:29400 ...",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* aws-samples/aws-do-eks#50, #69: hostname resolves to 127.0.0.1 (hostNetwork pods) */
	.id = "torch.gloo.loopback",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "Using the loopback address as fallback", "Unable to resolve hostname to a (local) address" },
	.title = "Gloo fell back to the loopback address: this host's name does not resolve to a usable address",
	.cause = "torch's Gloo backend (CPU collectives, barriers, the gloo side of Lightning and vLLM) binds "
		"to the address its hostname resolves to; when that is missing or 127.0.x.x every rank advertises "
		"loopback and the peers on other nodes connect to themselves",
	.fix = FIX_GLOO_IFNAME "   # one concrete interface name, on every node\n"
		"getent hosts $(hostname)   # must print this node's routable address, not 127.0.x.x",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* gloo/transport/tcp/pair.cc: "connect [<addr>]:<port>: <strerror>" toward a peer's advertised
	 * address (loopback has its own row) */
	.id = "torch.gloo.connect_peer",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "tcp/pair.cc" },
	.also = "connect [",
	.unless = "connect [127.",
	.cap_after = "connect [",
	.cap_stop = "]",
	.title = "Gloo could not connect to the address a peer advertised ({})",
	.cause = "Gloo connects every rank to the address each peer advertised for its chosen interface; this one "
		"is unreachable from here: the peer chose an interface the others cannot reach, or a firewall drops "
		"Gloo's ports",
	.fix = FIX_GLOO_IFNAME "   # on every node: the interface with the nodes' own addresses\n"
		"getent hosts $(hostname)   # on every node: the routable address Gloo advertises when GLOO_SOCKET_IFNAME is unset",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "[fe80:",
		  .title = "Gloo tried an IPv6 link-local address: a peer advertised fe80::, reachable only on its own link",
		  .cause = "the peer's hostname resolved to (or its interface has) only an IPv6 link-local address, "
			"which needs the interface scope and does not cross routers; another host cannot use it",
		  .fix = FIX_GLOO_IFNAME "   # an interface with a routable IPv4 address, on every node\n"
			"getent ahostsv4 $(hostname)   # on every node: an IPv4 address the other nodes reach" },
		{ .when = NULL },
	},
},
{
	/* gloo/transport/tcp/device.cc: the hostname does not resolve on this node */
	.id = "torch.gloo.resolve",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "Unable to find address for hostname" },
	.cap_after = "hostname: ",
	.cap_stop = " ",
	.title = "Gloo could not resolve this node's hostname ({})",
	.cause = "without GLOO_SOCKET_IFNAME Gloo binds to the address the hostname resolves to; this hostname is "
		"in neither /etc/hosts nor DNS (containers and cloud images with generated names)",
	.fix = FIX_GLOO_IFNAME "   # on every node: Gloo then needs no name resolution\n"
		"echo \"$(hostname -I | cut -d' ' -f1) $(hostname)\" | sudo tee -a /etc/hosts   # or make the name resolve to the node's own address",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* c10d socket.cpp: reverse lookup of a client's address failed; the connection itself works */
	.id = "torch.store.client_name",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "The hostname of the client socket cannot be retrieved" },
	.title = "benign: torch could not reverse-resolve a store client's address",
	.cause = "c10d looks up a name for each client's address only to log it; the connection is unaffected",
	.fix = "nothing to do (add the nodes to /etc/hosts or DNS to silence it)",
},
{
	/* the same failure seen from the connecting side: Gloo's pair.cc names the loopback peer */
	.id = "torch.gloo.loopback_peer",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	/* gloo/transport/tcp/pair.cc prints "connect [127.0.1.1]:60817: Connection refused" when a
	 * peer advertised loopback: Debian's /etc/hosts maps the hostname to 127.0.1.1 */
	.anchors = { "remote=[127.0.0.1]", "local=[127.0.0.1]", "connect [127." },
	.title = "Gloo ranks advertise a loopback address: every rank connects to its own loopback",
	.cause = "the Gloo full mesh uses the address each rank advertised; 127.0.0.1 or 127.0.1.1 means the "
		"hostname resolved to loopback (Debian's /etc/hosts maps it to 127.0.1.1; no /etc/hosts entry; "
		"a container with the node's hostname)",
	.fix = FIX_GLOO_IFNAME "   # one concrete interface name, on every node\n"
		"getent hosts $(hostname)   # must print this node's routable address, not 127.0.x.x (drop the 127.0.1.1 line of /etc/hosts or add the real address first)",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* aws-samples/aws-do-eks#51: "^lo,docker" is NCCL syntax, Gloo wants interface names */
	.id = "torch.gloo.ifname",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "Unable to find address for: " },
	.cap_after = "Unable to find address for: ",
	.cap_stop = " ",
	.title = "GLOO_SOCKET_IFNAME={} names no interface of this node",
	.cause = "Gloo looks up each name in GLOO_SOCKET_IFNAME literally: NCCL's '^' exclusions and prefix "
		"matching do not exist there, and a name must exist on every node",
	.fix = FIX_GLOO_IFNAME "   # a concrete interface, not NCCL's ^exclude list\n"
		"ip -o -4 addr show   # the interface names this node really has",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
	/* gloo's tcp/device.cc has two lookups with the same words: by interface name
	 * (GLOO_ENFORCE(ifa != nullptr, ...)) and by host name (GLOO_ENFORCE(rp != nullptr, ...),
	 * when GLOO_SOCKET_IFNAME is unset): only the first one is about GLOO_SOCKET_IFNAME */
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "rp != nullptr",
			.title = "Gloo cannot bind to any address of this host's name ({}): the name does not resolve to a local address",
			.cause = "without GLOO_SOCKET_IFNAME Gloo resolves the host name and binds to the first address it "
				"gets; here none of them is an address of this node (the name resolves elsewhere, or not at "
				"all, e.g. a container or host name missing from /etc/hosts)",
			.fix = "getent hosts \"$(hostname)\"; ip -o -4 addr show   # the addresses the name resolves to against the node's own\n"
				FIX_GLOO_IFNAME "   # or bind Gloo to an interface explicitly",
		},
		{ .when = NULL },
	},
},
{
	.id = "torch.gloo.connect_failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "Gloo connectFullMesh failed" },
	.title = "Gloo could not connect its full mesh between the ranks",
	.cause = "a Gloo rank could not connect to a peer's advertised address: the wrong interface (often "
		"loopback or a bridge) or a firewall between the nodes",
	.fix = FIX_GLOO_IFNAME "   # on every node\n"
		"export NCCL_SOCKET_IFNAME=<the same interface>   # NCCL takes the same interface",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* pytorch/tensorpipe#224 (maintainer: set TP_SOCKET_IFNAME; auto-detection resolves the hostname) */
	.id = "torch.tensorpipe.no_address",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "uv/listener.cc" },
	.title = "TensorPipe (torch RPC) could not find an address for this machine",
	.cause = "TensorPipe picks its listening address by resolving the hostname; when that gives nothing "
		"usable (only IPv6 link-local, or loopback) it cannot listen",
	.fix = "export TP_SOCKET_IFNAME=$(ip -o route get \"$MASTER_ADDR\" | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p')   # on every node\n"
		"python3 -c 'import socket; print(socket.getaddrinfo(socket.gethostname(), None))'   # what TensorPipe resolves",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.gloo.closed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NET,
	.anchors = { "Connection closed by peer [" },
	.cap_after = "closed by peer [",
	.cap_stop = "]",
	.title = "a Gloo connection to {} was closed",
	.cause = "the peer process died, or Gloo picked an interface the other node cannot reach",
	.fix = "export GLOO_SOCKET_IFNAME=<the interface that reaches MASTER_ADDR>",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.dataloader.shm",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "nsufficient shared memory (shm)", "out of shared memory", "Bus error" },
	.title = "a process died of a bus error: shared memory (/dev/shm) is too small",
	.cause = "DataLoader workers and NCCL's SHM transport use /dev/shm, which is 64 MB in a default docker container",
	.fix = "docker run --ipc=host ...   # or --shm-size=16g\ndf -h /dev/shm",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "torch.env.deprecated",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "; use TORCH_NCCL_" },
	.cap_after = "Environment variable ",
	.cap_stop = " ",
	.title = "benign: {} is a deprecated name",
	.cause = "torch 2.2+ reads the old NCCL_* names but prefers TORCH_NCCL_*; the setting still works",
	.fix = "rename it to its TORCH_NCCL_ form to silence the warning",
},
{
	.id = "torch.omp_threads",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "Setting OMP_NUM_THREADS environment variable for each process to be 1" },
	.title = "benign: torchrun set OMP_NUM_THREADS=1",
	.cause = "torchrun's default when several processes share a node; only performance-relevant",
	.fix = "export OMP_NUM_THREADS=<cores per process>   # optional",
},
/* ---- Lightning ----------------------------------------------------------------------------- */
{
	.id = "lightning.gpu_request",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "You requested gpu:" },
	.cap_after = "You requested gpu: ",
	.cap_stop = SIG_UNTIL " But your machine",
	.title = "Lightning was asked for GPUs {} this node does not have",
	.cause = "Trainer(devices=...) names more or other GPUs than are visible on this node",
	.fix = "nvidia-smi -L   # then Trainer(devices=<that count>) or devices='auto'",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "lightning.accelerator_unavailable",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "can not run on your system since the accelerator is not available" },
	.title = "Lightning's GPU accelerator is not available on this node",
	.cause = "torch sees no CUDA device (CPU-only torch, no driver, or CUDA_VISIBLE_DEVICES empty)",
	.fix = "python -c 'import torch; print(torch.cuda.is_available())'",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "lightning.slurm.ntasks_per_node",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "number of tasks per node configured in SLURM" },
	.cap_after = "HINT: ",
	.title = "Lightning's devices do not match Slurm's --ntasks-per-node ({})",
	.cause = "under Slurm every GPU process is a Slurm task: devices must equal --ntasks-per-node",
	.fix = "#SBATCH --ntasks-per-node=<GPUs per node>   # and Trainer(devices=<the same number>)",
},
{
	.id = "lightning.slurm.nodes",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "number of nodes configured in SLURM" },
	.cap_after = "HINT: ",
	.title = "Lightning's num_nodes does not match Slurm's --nodes ({})",
	.cause = "Trainer(num_nodes=...) must equal the job's --nodes",
	.fix = "#SBATCH --nodes=<N>   # and Trainer(num_nodes=<N>)",
},
{
	.id = "lightning.slurm.ntasks",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "but this variable is not supported. HINT: Use `--ntasks-per-node" },
	.title = "Lightning rejects Slurm's --ntasks",
	.cause = "Lightning needs --ntasks-per-node to know the processes per node",
	.fix = "#SBATCH --ntasks-per-node=<GPUs per node>   # instead of --ntasks",
},
{
	.id = "lightning.srun_unused",
	.sev = SEV_WARN, .conf = CONF_HIGH,
	.anchors = { "command is available on your system but is not used" },
	.title = "Lightning runs inside Slurm without srun",
	.cause = "without srun only one process starts per node and the other ranks never join: the job hangs",
	.fix = "srun python train.py ...   # in the sbatch script",
},
{
	.id = "lightning.world_size",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "does not match the world size" },
	.title = "Lightning's devices x num_nodes does not match torchrun's world size",
	.cause = "Trainer(devices, num_nodes) must multiply to WORLD_SIZE (torchrun --nnodes x --nproc-per-node)",
	.fix = "Trainer(devices=<--nproc-per-node>, num_nodes=<--nnodes>)",
},
{
	.id = "lightning.local_rank",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "attempted to launch new distributed processes with `local_rank > 0`" },
	.title = "Lightning found LOCAL_RANK set where it launches processes itself",
	.cause = "a stale LOCAL_RANK in the environment makes Lightning think it was launched externally",
	.fix = "unset LOCAL_RANK   # or launch with torchrun/srun so that every process gets it",
},
{
	.id = "lightning.misconfiguration",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "MisconfigurationException" },
	.cap_after = "MisconfigurationException: ",
	.title = "Lightning rejected its configuration: {}",
	.cause = "the Trainer arguments do not fit this machine or launcher; the message names the argument",
	.fix = "fix the Trainer argument named in the message",
	.check = EXPLAIN_CHECK_NODE,
},
/* ---- Slurm ---------------------------------------------------------------------------------- */
{
	.id = "slurm.time_limit",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "CANCELLED AT" },
	.also = "TIME LIMIT",
	.title = "Slurm cancelled the job at its time limit",
	.cause = "the job ran out of --time; if it hung at start-up, the hang is the cause (see the other diagnoses)",
	.fix = "#SBATCH --time=<longer>   # after fixing any start-up hang",
},
{
	.id = "slurm.cancelled",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "CANCELLED AT" },
	.unless = "TIME LIMIT",
	.title = "Slurm cancelled the job or step",
	.cause = "scancel, a preemption, or a node failure ended the step",
	.fix = "sacct -j <jobid> --format=JobID,State,ExitCode,NodeList   # why it ended",
},
{
	.id = "slurm.oom",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "oom-kill event", "oom_kill event" },
	.title = "Slurm's cgroup killed a process for using too much host memory",
	.cause = "the step exceeded its --mem (host RAM, not GPU memory)",
	.fix = "#SBATCH --mem=0   # all of the node's memory, or a larger --mem-per-cpu\nreduce DataLoader num_workers",
},
{
	/* the host's OOM killer outside Slurm: Kubernetes' OOMKilled, Ray's memory monitor */
	.id = "host.oom",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "OOMKilled", "running low on memory" },
	.title = "a process was killed for using too much host memory (not GPU memory)",
	.cause = "the container's memory limit (Kubernetes OOMKilled) or the node's memory ran out: data loader "
		"workers, pinned buffers or a model loaded on the CPU by every rank; Ray's memory monitor kills "
		"tasks before the kernel does",
	.fix = "kubectl describe pod <pod>   # Kubernetes: Last State OOMKilled and the limit; raise resources.limits.memory\n"
		"reduce DataLoader num_workers, and load checkpoints on one rank or with mmap   # less host memory per rank",
},
{
	.id = "slurm.task_failed",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "srun: error:" },
	.also = "Exited with exit code",
	.cap_after = "srun: error: ",
	.title = "a Slurm task failed ({})",
	.cause = "srun reports which task exited first; that task's own output has the error",
	.fix = "read the output of the task named here (srun -l labels every line with its task number)",
},
{
	.id = "slurm.step_create",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "srun: error: Unable to create step" },
	.cap_after = "Unable to create step for job ",
	.title = "Slurm could not start the step ({})",
	.cause = "the step asks for more tasks, CPUs or GPUs than the allocation has",
	.fix = "make srun's --ntasks-per-node/--gpus-per-node fit the #SBATCH allocation",
},
/* ---- launchers: Open MPI, ssh/pdsh, shared libraries ------------------------------------------- */
{
	/* Open MPI's openib BTL: no active IB port; harmless when UCX or TCP carries MPI's traffic */
	.id = "mpi.openib_no_ports",
	.sev = SEV_WARN, .conf = CONF_MEDIUM,
	.anchors = { "no active ports found" },
	.also = "openib",
	.title = "Open MPI's openib transport found no active InfiniBand port (usually harmless)",
	.cause = "the openib BTL probes the HCAs and warns when none has an active port; Open MPI then uses UCX "
		"or TCP, and NCCL's own transport is not affected; a port that should be up is a link problem",
	.fix = "mpirun --mca btl ^openib ...   # silence it (UCX handles InfiniBand in Open MPI 4+)\n"
		"ibstat   # on each node: State Active for the ports the job should use",
},
{
	.id = "mpi.slots",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "There are not enough slots available in the system" },
	.title = "mpirun was asked for more processes than the hosts' slots",
	.cause = "Open MPI gives each host as many slots as its cores (or the hostfile's slots=N, or -H host:N); "
		"-np is larger than the slots of the hosts listed, often because -H lists each host without :N or "
		"only one host was given",
	.fix = "mpirun -np <GPUs in all> -H node1:<GPUs>,node2:<GPUs> ...   # or a hostfile with 'node1 slots=<GPUs>' per host\n"
		"mpirun --oversubscribe ...   # only to run more processes than cores on purpose",
},
{
	.id = "mpi.daemons",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "ORTE was unable to reliably start one or more daemons",
		     "PRTE has lost communication with a remote daemon" },
	.title = "mpirun could not start its daemon on another host",
	.cause = "mpirun starts orted/prted on each remote host over ssh in a non-interactive shell: ssh needs "
		"passwordless keys and a known host key, and that shell's PATH and LD_LIBRARY_PATH must find the same "
		"Open MPI (set in ~/.bashrc above its 'interactive only' return, or mpirun --prefix)",
	.fix = "ssh <other host> which orted mpirun   # from this node: no password prompt, and the same Open MPI path\n"
		"mpirun --prefix $(dirname $(dirname $(which mpirun))) ...   # the remote daemons find Open MPI where it is here",
},
{
	.id = "mpi.tcp_connect",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "unable to complete a TCP connection", "tcp_peer_send_blocking", "tcp_peer_recv_blocking" },
	.title = "Open MPI's own TCP connections between the hosts failed",
	.cause = "Open MPI picked an interface for its daemons or byte-transfer layer that the other host cannot "
		"reach (docker0, virbr0, a second NIC), or a firewall blocks its ports; this is before NCCL runs",
	.fix = "mpirun --mca oob_tcp_if_include <NIC> --mca btl_tcp_if_include <NIC> ...   # the interface with the hosts' own addresses, e.g. eth0 or 10.0.0.0/24\n"
		"mpirun --mca btl_tcp_if_exclude lo,docker0,virbr0 ...   # or exclude the bridges",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "mpi.executable",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "could not access or execute an executable", "unable to launch the specified application" },
	.title = "mpirun could not run the program on every host",
	.cause = "the executable's path does not exist (or is not executable) on a remote host: it was built in a "
		"directory that is not on a shared file system, or a relative path that differs there",
	.fix = "ssh <other host> ls -l <the executable's absolute path>   # it must exist at the same path on every host\n"
		"build it on a shared file system (or copy it to the same path on every host) and give mpirun the absolute path",
},
{
	/* DeepSpeed's runner: no hostfile (default /job/hostfile), so it launches on this node only */
	.id = "deepspeed.no_hostfile",
	.sev = SEV_WARN, .conf = CONF_MEDIUM,
	.anchors = { "Unable to find hostfile, will proceed with training with local resources only" },
	.title = "DeepSpeed found no hostfile and starts the job on this node only",
	.cause = "the deepspeed launcher reads the nodes from a hostfile (--hostfile, default /job/hostfile); "
		"without one a multi-node run silently becomes a one-node run, or waits for ranks that never start",
	.fix = "deepspeed --hostfile=hostfile train.py ...   # lines 'node-0 slots=8', one per node, reachable by passwordless ssh",
},
{
	/* DeepSpeed's runner: --include/--exclude/--num_gpus replace CUDA_VISIBLE_DEVICES */
	.id = "deepspeed.visible_devices_ignored",
	.sev = SEV_WARN, .conf = CONF_HIGH,
	.anchors = { "but ignoring it because one or several of --include/--exclude/--num_gpus" },
	.title = "DeepSpeed ignored CUDA_VISIBLE_DEVICES: its --include/--exclude/--num_gpus choose the GPUs",
	.cause = "with any of those flags the deepspeed launcher picks the GPUs itself, so the ranks may land "
		"on GPUs the CUDA_VISIBLE_DEVICES setting meant to avoid (busy ones, another job's)",
	.fix = "deepspeed --include localhost:0,1 train.py ...   # name the GPUs in --include instead of CUDA_VISIBLE_DEVICES",
},
{
	/* accelerate (state.py): RTX 40xx without NCCL_P2P_DISABLE/NCCL_IB_DISABLE set */
	.id = "accelerate.rtx4000",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Using RTX 4000 series doesn't support faster communication" },
	.title = "accelerate refuses to start on RTX 40xx GPUs without NCCL's P2P and IB turned off",
	.cause = "GeForce RTX 40xx boards have no GPU peer-to-peer; accelerate stops early rather than let NCCL "
		"try P2P and hang, unless the run disables P2P and InfiniBand (accelerate launch does it)",
	.fix = "export NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1   # before python/torchrun; or start with accelerate launch, which sets them",
},
{
	.id = "launch.ssh",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "ssh exited with exit code 255", "Host key verification failed", "ssh: connect to host",
		     "Permission denied (publickey" },
	.title = "the launcher could not ssh to another host",
	.cause = "DeepSpeed's pdsh, mpirun and similar launchers start the remote processes over ssh: the host "
		"refused or timed out on port 22, its key is not in known_hosts, or no passwordless key is set up",
	.fix = "ssh <other host> hostname   # from the launching node, as the job's user: no prompt may appear\n"
		"ssh-keyscan <other host> >> ~/.ssh/known_hosts; ssh-copy-id <other host>   # the host key and a passwordless key",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Host key verification failed",
		  .title = "the launcher could not ssh to another host: its host key is not known",
		  .cause = "ssh refuses a host whose key is not in ~/.ssh/known_hosts when it cannot ask (non-interactive launch)",
		  .fix = "ssh-keyscan <other host> >> ~/.ssh/known_hosts   # for every host, as the job's user" },
		{ .when = "port 22",
		  .title = "the launcher could not reach another host's ssh port",
		  .cause = "nothing answers on port 22 of that host from here: sshd not running (containers usually have "
			"none), another port, or a firewall",
		  .fix = "ssh -p <port> <other host> hostname   # the port sshd listens on; containers: run sshd or use a launcher without ssh (torchrun on every node)" },
		{ .when = NULL },
	},
},
{
	.id = "launch.lib_missing",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "error while loading shared libraries: ", "cannot open shared object file" },
	.also = ".so",
	.unless = "libnccl-net" SIG_UNTIL "NET/Plugin" SIG_UNTIL "libibverbs" SIG_UNTIL "libnvidia-ml",
	.cap_after = "libraries: ",
	.cap_stop = ":",
	.title = "a shared library could not be found where the process ran ({})",
	.cause = "the dynamic loader did not find the library: LD_LIBRARY_PATH is set in an interactive shell but "
		"not passed to remote processes (mpirun needs -x LD_LIBRARY_PATH), or the library is not installed on "
		"that host or in that container",
	.fix = "mpirun -x LD_LIBRARY_PATH -x PATH ...   # pass the environment to every process\n"
		"ldconfig -p | grep <the library>; ls $CUDA_HOME/lib64 /usr/lib/x86_64-linux-gnu | grep <the library>   # on the failing host",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "ImportError",
		  .title = "Python could not import a module: a shared library it needs was not found",
		  .cause = "the extension module links a library (libnccl.so.2, libcudart) the loader cannot find: a "
			"torch built against a system NCCL or CUDA that is not installed here, or LD_LIBRARY_PATH not "
			"set in this environment (a remote process, a container)",
		  .fix = "python -c 'import torch; print(torch.__file__)'; ldd $(python -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), \"lib\", \"libtorch_cuda.so\"))') | grep 'not found'   # the missing libraries\n"
			"pip install nvidia-nccl-cu12   # or the CUDA runtime wheel, or export LD_LIBRARY_PATH to where the library is" },
		{ .when = NULL },
	},
},
{
	/* torch's libtorch_cuda.so needs symbols of the NCCL it was built against; an older libnccl found
	 * first (LD_LIBRARY_PATH, LD_PRELOAD, a system NCCL) lacks them */
	.id = "torch.nccl_symbol",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "undefined symbol: nccl" },
	.cap_after = "undefined symbol: ",
	.cap_stop = " \t,'\"",
	.title = "torch loaded an NCCL older than the one it was built for (undefined symbol {})",
	.cause = "libtorch_cuda.so was linked against a newer NCCL than the libnccl.so.2 the loader found first: "
		"LD_LIBRARY_PATH or LD_PRELOAD puts a system or conda NCCL ahead of the nvidia-nccl wheel torch ships with",
	.fix = "python -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'   # fails the same way until the right NCCL is found\n"
		"echo $LD_LIBRARY_PATH $LD_PRELOAD; ldconfig -p | grep libnccl   # remove the older NCCL's directory, or pip install -U nvidia-nccl-cu12 to the version torch needs",
},
{
	/* init.cc: ncclConfig_t fields read as garbage (-2147483648 is NCCL_CONFIG_UNDEF_INT): the
	 * caller was compiled against another NCCL's header than the library it loaded */
	.id = "nccl.config.mismatch",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Invalid config blocking attribute value", "argument not initialized via NCCL_CONFIG_INITIALIZER" },
	.title = "torch and the libnccl.so.2 it loaded come from different NCCL releases (ncclConfig_t does not match)",
	.cause = "torch passes NCCL a config struct laid out by the NCCL headers it was built with; a libnccl.so.2 "
		"of another release (a system or conda NCCL ahead of the wheel's on LD_LIBRARY_PATH, or a torch built "
		"from source against other headers) reads its fields as invalid",
	.fix = "python -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'; echo $LD_LIBRARY_PATH $LD_PRELOAD   # which NCCL torch expects and what is found first\n"
		"pip install -U nvidia-nccl-cu12   # the wheel torch expects; remove the other NCCL's directory from LD_LIBRARY_PATH",
},
{
	.id = "torch.nccl.not_built",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Distributed package doesn't have NCCL built in" },
	.title = "this torch has no NCCL: a Windows, macOS or CPU-only build",
	.cause = "NCCL is Linux-only and ships in torch's CUDA wheels; a CPU wheel, a macOS or Windows torch (or a "
		"source build without USE_NCCL) cannot use backend='nccl'",
	.fix = "pip install torch --index-url https://download.pytorch.org/whl/cu124   # a CUDA build on Linux (pick the CUDA your driver supports)\n"
		"dist.init_process_group('gloo')   # on Windows or macOS: Gloo is the backend there",
},
{
	.id = "torch.cpu_build",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Torch not compiled with CUDA enabled" },
	.title = "this torch is a CPU-only build: it cannot use the GPUs",
	.cause = "pip or conda installed the CPU wheel (the default index on some platforms, or a requirements pin "
		"that replaced the CUDA build)",
	.fix = "python -c 'import torch; print(torch.__version__, torch.version.cuda)'   # '+cpu' and None mean a CPU build\n"
		"pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124   # a CUDA build matching the driver",
},
{
	.id = "cuda.device_assert",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "device-side assert triggered" },
	.title = "a GPU kernel assertion fired (device-side assert): a bug in the model's inputs, not in NCCL",
	.cause = "a kernel checked an index and it was out of range (labels >= number of classes, an embedding index, "
		"a gather); CUDA reports it asynchronously, so it often surfaces at the next NCCL call",
	.fix = "export CUDA_LAUNCH_BLOCKING=1   # rerun: the traceback then points at the operation that asserted\n"
		"check the labels and indices of that operation (e.g. assert labels.max() < num_classes) on the failing rank",
},
{
	.id = "lightning.cuda_initialized",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "can't create new processes if CUDA is already initialized" },
	.title = "Lightning could not fork its processes: CUDA was already initialised in the main process",
	.cause = "the notebook/fork strategies (ddp_notebook, ddp_fork, the default in Jupyter) fork the main "
		"process, and a forked process cannot use CUDA once the parent touched it (a torch.cuda call, a model "
		"moved to the GPU before trainer.fit)",
	.fix = "remove torch.cuda calls and .cuda()/.to('cuda') before trainer.fit   # Lightning moves the model itself\n"
		"run it as a script with Trainer(strategy='ddp')   # launched per process, no fork",
},
/* ---- GPUs and the host ---------------------------------------------------------------------- */
{
	.id = "gpu.xid",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "NVRM: Xid" },
	.cap_after = "): ",
	.cap_stop = ",",
	.title = "the GPU driver reported Xid {}",
	.cause = "Xid 79 (fallen off the bus), 48/63/64/94/95 (ECC) and 74 (NVLink) are hardware faults; 13/31/43 "
		"are usually application faults",
	.fix = "nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER   # on that node\ndrain the node if the Xid is a hardware one",
},
{
	/* rwth-i6/returnn#1486: nvidia-smi could not reach a GPU, PCIe AER timeouts in dmesg */
	.id = "gpu.unreachable",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Unable to determine the device handle for GPU" },
	.title = "nvidia-smi cannot reach a GPU on {node}: it failed or fell off the bus",
	.cause = "the driver lost the GPU (a hardware, power or PCIe failure); every job that uses that node fails or hangs",
	.fix = "exclude {node} from jobs (drain it) until the GPU is reset or replaced\n"
		"dmesg | grep -iE 'xid|AER|fallen'   # Xid 79 or PCIe AER errors confirm a hardware fault\n"
		"sudo nvidia-smi -r -i <gpu>   # or reboot; if it repeats, report the GPU for repair",
},
{
	/* NVIDIA/nccl#257, #120: GPU peer DMA translated by the IOMMU and dropped (AMD-Vi / Intel DMAR
	 * faults in dmesg); NVIDIA's PCIe troubleshooting guide: iommu=pt or IOMMU off */
	.id = "sys.iommu.fault",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "IO_PAGE_FAULT", "DMAR: DRHD: handling fault", "DMAR: [DMA Read", "DMAR: [DMA Write" },
	.title = "the IOMMU blocked a device's DMA (IO page fault): GPU peer-to-peer traffic is being dropped",
	.cause = "with the IOMMU translating DMA (not in passthrough mode), writes from one GPU (or a NIC) into "
		"another GPU's BAR fault and are dropped: P2P collectives hang, or finish with zeros or wrong data",
	.fix = "export NCCL_P2P_DISABLE=1   # to confirm: the hang or the wrong results go away (slower)\n"
		"cat /proc/cmdline   # add iommu=pt (amd_iommu=pt / intel_iommu=on iommu=pt) to the kernel command line, or turn the IOMMU off in the BIOS, and reboot\n"
		"./p2pBandwidthLatencyTest   # cuda-samples: after the fix every GPU pair shows P2P bandwidth and no new IO_PAGE_FAULT in dmesg",
},
{
	/* PCI ACS redirects peer-to-peer TLPs through the root complex (NCCL troubleshooting guide,
	 * "PCI Access Control Services"); NVIDIA/nccl#606 (hang between two GPUs), #631 */
	.id = "sys.pci.acs_enabled",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "ACSCtl: SrcValid+", "ACSCtl:\tSrcValid+" },
	.title = "PCI ACS is on (ACSCtl: SrcValid+): GPU peer-to-peer and GPUDirect RDMA traffic is redirected and can hang or fail",
	.cause = "with Access Control Services on a PCIe switch or bridge, peer-to-peer traffic between GPUs (and "
		"NIC to GPU) goes up to the root complex, where an IOMMU can drop it: P2P hangs, wrong data or IB "
		"completion errors",
	.fix = "disable ACS on the PCIe bridges: in the BIOS, or at every boot with setpci -s <bridge> ECAP_ACS+0x6.w=0000\n"
		"export NCCL_P2P_DISABLE=1   # to confirm: with P2P off the hang goes away (slower)",
},
{
	.id = "sys.segfault",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "Segmentation fault", "*** Process received signal ***", "Caught signal 11" },
	.title = "a process crashed (SIGSEGV)",
	.cause = "a native library crashed; the backtrace names it (libnccl.so: check the known NCCL bugs of "
		"this version), and every other rank then fails or hangs waiting for it",
	.fix = "read the backtrace: the first frame in a named library (libnccl.so, libtorch_cuda.so, a plugin) is the culprit\n"
		"ulimit -c unlimited   # rerun to get a core file; then gdb -batch -ex bt $(which python3) <core>",
},
{
	/* NVIDIA/nccl#1996 (2.27.7, bypassed with NCCL_RAS_ENABLE=0), #2346 (2.29.7), #1762
	 * (rasClientRunComms, 2.26.2-2.28.9) */
	.id = "nccl.known_bug.ras_segfault",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "rasMsgHandle", "rasCollReq", "rasNetRecv", "rasClientRun" },
	.title = "NCCL's RAS thread crashed the process (a known NCCL bug)",
	.cause = "the crash is inside NCCL's RAS subsystem (2.24+), which only serves 'ncclras' monitoring queries; "
		"RAS crashes were reported on 2.26.2 (fixed in 2.27.3), 2.27.7 and 2.29.7",
	.fix = "export NCCL_RAS_ENABLE=0   # RAS is a monitoring aid: training does not need it\n"
		"upgrade NCCL to the latest release and report the backtrace if it persists",
},
{
	.id = "gpu.ecc",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "ncorrectable ECC error", "ECC_UNCORRECTABLE" },
	.title = "a GPU hit an uncorrectable ECC error",
	.cause = "GPU memory failed; the GPU needs a reset or replacement",
	.fix = "exclude {node} from jobs (drain it): an uncorrectable ECC error is a hardware fault of that GPU\n"
		"nvidia-smi -q -d ECC,ROW_REMAPPER   # on {node}; then reset the GPU, and replace it if it repeats",
},
{
	.id = "gpu.fallen_off_bus",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "fallen off the bus" },
	.title = "a GPU has fallen off the PCIe bus",
	.cause = "a hardware, power or PCIe failure; the node needs a reboot or repair",
	.fix = "exclude {node} from jobs (drain it); reboot; if it repeats, report the GPU for repair",
},
{
	.id = "sys.too_many_files",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Too many open files" },
	.title = "a process ran out of file descriptors",
	.cause = "NCCL's sockets and DataLoader workers need many descriptors; the nofile limit is too low",
	.fix = "ulimit -n 1048576   # in the launching shell (or LimitNOFILE in the service unit)",
},
{
	/* glibc's heap checks abort the process: memory corruption, in a library or the program */
	.id = "sys.heap_corruption",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "free(): invalid", "double free or corruption", "malloc(): corrupted",
		     "corrupted size vs. prev_size" },
	.title = "the process aborted on heap corruption (glibc's malloc checks)",
	.cause = "glibc found its heap damaged and aborted: a memory bug in a library (NCCL, a net plugin) "
		"or in the program; the versions in the log decide whether it is a known library bug",
	.fix = "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # then check the NCCL release notes for the crash\n"
		"rerun under gdb or with core dumps on (ulimit -c unlimited): the backtrace names the library that corrupted the heap",
},
};

const size_t explain_nsigs = sizeof(explain_sigs) / sizeof(explain_sigs[0]);

/*
 * Known NCCL bugs (see sigs.h). Sources: NCCL release notes (the release commits of the NCCL
 * repository carry them, ../shared/research/frontier-2026.md §1.1) and the issue named per row.
 */
const struct explain_known_bug explain_known_bugs[] = {
{
	/* NVIDIA/nccl#379: "This should be fixed in 2.8" (maintainer) */
	.id = "nccl.known_bug.topo_file_cpu_attr",
	.from = 0, .to = 20800, .fixed_in = "2.8",
	.symptom = "nccl.topo.xml_attribute", .version_required = 0,
	.title = "a known NCCL bug before 2.8: an injected topology with more GPUs than the run uses leaves a CPU's attributes unread",
	.cause = "with NCCL_TOPO_FILE set NCCL before 2.8 read the attributes of only the CPUs whose GPUs the run "
		"uses, and failed on the others the file describes ('Attribute arch of node cpu not found')",
	.fix = "upgrade NCCL to 2.8 or later\n"
		"unset NCCL_TOPO_FILE   # or run without the injected topology",
	.source = "https://github.com/NVIDIA/nccl/issues/379",
},
{
	/* NVIDIA/nccl#1612: a connection to the bootstrap listener closed before its 8-byte magic
	 * (nmap -sT, a security scanner) failed the bootstrap instead of being ignored; PR #1613,
	 * "resolved in release v2.27.3-1" (maintainer); its release notes: "accept() will retry also if
	 * just reading the magic failed (Issue #1613)". Both the scan and the bootstrap chain must
	 * show: a peer rank that died closes connections in bootstrap too. */
	.id = "nccl.known_bug.bootstrap_short_connect",
	.from = 0, .to = 22703, .fixed_in = "2.27.3",
	.symptom = "nccl.socket.closed_by_peer", .needs = KB_NEED_BOOT_SCAN | KB_MEDIUM,
	.version_required = 0,
	.title = "a known NCCL bug before 2.27.3: a connection that closes before NCCL's magic (a port scan) fails the bootstrap",
	.cause = "NCCL's bootstrap listener ignores strangers that send a wrong magic, but before 2.27.3 one that "
		"connects and closes without sending 8 bytes (nmap -sT, a security scanner, a health check) "
		"ended the bootstrap with 'Connection closed by remote peer'",
	.fix = "upgrade NCCL to 2.27.3 or later   # pip install -U nvidia-nccl-cu12, or a torch built with it\n"
		"exclude the job's port range from the scanner while jobs start (NCCL listens on ephemeral ports: sysctl net.ipv4.ip_local_port_range)",
	.source = "https://github.com/NVIDIA/nccl/commit/72d2432094d6ae36abd6e511c3a16a2d052dbf94",
},
{
	/* NVIDIA/nccl#1748 (maintainer): with NIC fusion in 2.26 the topology search's fallback uses a
	 * hard-coded NET id 0 that fusion removed ("Could not find a path for pattern ..." first);
	 * works with 2.27, whose fusion keeps NET/0; NCCL_NET_MERGE_LEVEL=LOC disables fusion */
	.id = "nccl.known_bug.net_id0",
	.from = 22600, .to = 22700, .fixed_in = "2.27",
	.symptom = "nccl.net.id_not_found",
	.title = "a known NCCL 2.26 bug: NIC fusion leaves the topology fallback without NET 0 (works with 2.27)",
	.cause = "NCCL 2.26 merges NICs (NIC fusion) and, when the graph search falls back to a simple order, "
		"asks for NET id 0, which fusion removed: init fails with 'Could not find NET with id 0'",
	.fix = "upgrade NCCL to 2.27 or later (torch 2.8+ wheels, or pip install -U nvidia-nccl-cu12)\n"
		"export NCCL_NET_MERGE_LEVEL=LOC   # meanwhile: no NIC fusion (the maintainers' workaround; not enough for every reporter)",
	.source = "https://github.com/NVIDIA/nccl/issues/1748",
},
{
	/* NVIDIA/nccl#1573; 2.26.2 (f44ac759): a GID whose RoCE type a container cannot read is skipped
	 * instead of failing init (net_ib connect.cc, ncclIbRoceGetVersionNum) */
	.id = "nccl.known_bug.roce_version_read",
	.from = 0, .to = 22602, .fixed_in = "2.26.2",
	.symptom = "nccl.ib.roce_sysfs",
	.title = "a known NCCL bug before 2.26.2: init fails on a RoCE GID a container cannot query (fixed in 2.26.2)",
	.cause = "NCCL before 2.26.2 stops when reading the RoCE version of any GID fails; in Kubernetes pods "
		"(macvlan/SR-IOV RDMA) the GID table holds entries the pod's sysfs does not map",
	.fix = "upgrade NCCL to 2.26.2 or later (pip install -U nvidia-nccl-cu12, or a newer container): it skips those GIDs\n"
		"export NCCL_IB_GID_INDEX=<index>   # meanwhile: the pod's RoCE v2 index (show_gids)",
	.source = "https://github.com/NVIDIA/nccl/commit/f44ac759fee12ecb3cc6891e9e739a000f66fd70",
},
{
	/* NCCL 2.23.4 release notes: "Add new check for nvidia peermem: On linux kernels 6.6+,
	 * /sys/kernel/mm/memory_peers is no longer present; check for /sys/module/nvidia_peermem/version
	 * instead"; NVIDIA/nccl#1676: net_ib.cc of 2.22.3 checks /sys/kernel/mm/memory_peers/nv_mem
	 * and the nv_peer_mem module only; 2.23.4 also checks /sys/module/nvidia_peermem (read in the
	 * source) */
	.id = "nccl.known_bug.peermem_name",
	.from = 0, .to = 22304, .fixed_in = "2.23.4",
	.symptom = "nccl.ib.gdr_disabled",
	.title = "NCCL <= 2.22.3 does not recognise the nvidia-peermem module: GPUDirect RDMA stays off (fixed in 2.23.4)",
	.cause = "NCCL up to 2.22.3 enables GPUDirect RDMA only when it sees nv_peer_mem; drivers and DGX OS releases "
		"that ship nvidia-peermem instead make it disable GDR on every HCA, and bandwidth collapses",
	.fix = "upgrade NCCL to 2.23.4 or later (it also checks nvidia_peermem)\n"
		"lsmod | grep nvidia_peermem   # the module must still be loaded: sudo modprobe nvidia-peermem",
	.source = "https://github.com/NVIDIA/nccl/commit/68b542363f9a44cdaac480f51ebe0fc26de96139",
},
{
	/* NVIDIA/nccl#1669 (2.26.2), #1718 (2.26.5); 2.27.3 release notes: "Fix a race condition
	 * leading to a crash when generating a RAS report during initialization" */
	.id = "nccl.known_bug.ras_init_crash",
	.from = 22400, .to = 22703, .fixed_in = "2.27.3",
	.symptom = "sys.segfault", .needs = KB_NEED_RAS,
	.title = "a known NCCL bug: the RAS thread can crash the process when it is queried during init (fixed in 2.27.3)",
	.cause = "NCCL 2.24-2.27.2 crash when a RAS report (ncclras, or a monitoring agent polling it) is "
		"generated while communicators are still initialising; the log shows RAS running and a crash",
	.fix = "export NCCL_RAS_ENABLE=0   # avoids the crash; RAS is only a monitoring aid\n"
		"upgrade NCCL to 2.27.3 or later (pip install -U nvidia-nccl-cu12, or a newer container)",
	.source = "https://github.com/NVIDIA/nccl/commit/72d2432094d6ae36abd6e511c3a16a2d052dbf94",
},
{
	/* NVIDIA/nccl#1116, #1134: all-to-all connection set-up deadlocks with NCCL_CUMEM_ENABLE=1
	 * (the 2.19 default); the maintainer: fixed in 2.20 (2.20.3 release notes: "Fix hang during A2A
	 * connection"). The hang is a watchdog timeout, or the reporter's own "hangs" of an all-to-all
	 * (nccl-tests' alltoall_perf has no watchdog). */
	.id = "nccl.known_bug.cumem_a2a_hang",
	.from = 21900, .to = 22000, .fixed_in = "2.20.3",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_PROSE_A2A, .version_required = 1,
	.title = "a known NCCL 2.19 bug: all-to-all connection set-up can deadlock with cuMem (fixed in 2.20)",
	.cause = "NCCL 2.19 enabled cuMem by default, and connecting many peers at once (alltoall, PXN) could "
		"deadlock; the hang then surfaces as a watchdog timeout",
	.fix = "export NCCL_CUMEM_ENABLE=0   # the workaround the NCCL team gave\n"
		"upgrade NCCL to 2.20 or later",
	.source = "https://github.com/NVIDIA/nccl/commit/b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2",
},
{
	/* pytorch/pytorch#174338: "2.29.3 is a patch release that fixes the regression (hang) in 2.29.2";
	 * 2.29.3 release notes: CAS usage fixed for a hang on ARM (gcc < 10 builds) */
	.id = "nccl.known_bug.hang_2292",
	.from = 22902, .to = 22903, .fixed_in = "2.29.3",
	.symptom = "torch.watchdog.timeout", .version_required = 1,
	.title = "a known NCCL 2.29.2 regression: collectives can hang (fixed in 2.29.3)",
	.cause = "NCCL 2.29.2 has a hang regression that 2.29.3 fixes; rule it out before debugging the set-up",
	.fix = "upgrade NCCL to 2.29.3 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.source = "https://github.com/pytorch/pytorch/issues/174338",
},
{
	/* NVIDIA/nccl-tests#275 (maintainer: "If you are running with NCCL 2.18, you can ignore that
	 * message, and simply run again setting NCCL_DEBUG=WARN") */
	.id = "nccl.known_bug.internal_error_218",
	.from = 21800, .to = 21900, .fixed_in = "2.19",
	.symptom = "nccl.error.internal", .version_required = 1,
	.title = "NCCL 2.18 labels most failures 'internal error - please report': the real error is elsewhere",
	.cause = "a reporting bug of 2.18: the error code is wrong, not the failure; the NCCL WARN line names it",
	.fix = "rerun with NCCL_DEBUG=WARN (or INFO) and read the first NCCL WARN line: it names the real failure\n"
		"upgrade NCCL to 2.19 or later for the right error code",
	.source = "https://github.com/NVIDIA/nccl-tests/issues/275",
},
{
	/* NVIDIA/nccl#1043: nccl-tests stuck or 'free(): invalid next size (fast)' with 2.18.5 and
	 * 2.19.3 (not 2.16.5) on NVLS systems with dual-port NICs; the maintainer's "Support NVLS
	 * dual-port NIC transmission" patch on master fixed it, not backported */
	.id = "nccl.known_bug.nvls_dual_port",
	.from = 21800, .to = 22000, .fixed_in = NULL,
	.symptom = "sys.heap_corruption", .needs = KB_MEDIUM, .version_required = 1,
	.title = "a known NCCL 2.18/2.19 bug: NVLS with dual-port NICs corrupts the heap or hangs; upgrade NCCL",
	.cause = "NCCL 2.18 and 2.19 mishandle NVLS transfers through dual-port NICs: runs hang or abort in "
		"free() (NVLS systems: H100/H200 with NVSwitch); the maintainers fixed it on master after 2.19.3",
	.fix = "upgrade NCCL to a release after 2.19.3 (pip install -U nvidia-nccl-cu12, or a newer container): the NVLS dual-port fix is not backported\n"
		"to test it: NCCL_NVLS_ENABLE=0 on the same run; if the crash goes away, NVLS is where it is",
	.source = "https://github.com/NVIDIA/nccl/issues/1043",
},
{
	/* NCCL 2.29.3 release notes: "Fixed CAS usage in case of weak failure which was causing a hang
	 * on ARM. The issue affected NCCL when compiled with gcc versions prior to 10."; the 2.28.9
	 * wheel leaks proxy-op slots on aarch64 until a rank's pool runs dry
	 * (marin-community/marin#7344, #8038: 128 GB200s wedge with 2.28.9, clean with 2.30.7) */
	.id = "nccl.known_bug.arm_cas_wedge",
	.from = 22800, .to = 22903, .fixed_in = "2.29.3",
	.symptom = NULL, .needs = KB_NEED_ARM | KB_NEED_HANG, .version_required = 1,
	.title = "a known NCCL bug on aarch64 (Grace: GH200, GB200): proxy-op slots leak and collectives wedge silently (fixed in 2.29.3)",
	.cause = "before 2.29.3 a weak compare-exchange that fails spuriously on ARM loses freed proxy-op slots; "
		"when a rank runs out it spins forever, every rank sits at 100% GPU utilisation, with no error "
		"and no NCCL WARN",
	.fix = "upgrade NCCL to 2.29.3 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.source = "https://docs.nvidia.com/deeplearning/nccl/archives/nccl_2293/release-notes/rel_2-29-3.html",
},
{
	/* NCCL 2.15.5 release notes: "Fix potential data corruption with LL128 protocol on unaligned
	 * buffers"; 2.18.3: "Fix data corruption with Tree/LL128 on systems with 1GPU:1NIC". Wrong
	 * results with an older NCCL: rule the protocol out before the hardware. */
	.id = "nccl.known_bug.ll128_corruption",
	.from = 0, .to = 21803, .fixed_in = "2.18.3",
	.symptom = NULL, .needs = KB_NEED_WRONG | KB_MEDIUM, .version_required = 1,
	.title = "wrong results with NCCL before 2.18.3: known LL128 data-corruption bugs (fixed in 2.15.5 and 2.18.3)",
	.cause = "NCCL releases before 2.18.3 could corrupt data with the LL128 protocol (unaligned buffers, "
		"fixed in 2.15.5; Tree/LL128 on systems with one NIC per GPU, fixed in 2.18.3); nccl-tests then "
		"reports values out of bounds",
	.fix = "export NCCL_PROTO=^LL128   # to test it: if the results become correct, LL128 is where it is\n"
		"upgrade NCCL to 2.18.3 or later (pip install -U nvidia-nccl-cu12, or a newer container)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.18.3-1",
},
{
	/* NCCL 2.20.5 release notes: "Fix UDS connection failure when using ncclCommSplit. Issue
	 * #1185" ("FSDP fails on v2.20.3-1"); 2.20.3's ncclProxyCreate names every communicator's
	 * UDS socket by rank and process hash (read in its source), 2.19 had no UDS service thread */
	.id = "nccl.known_bug.uds_split_2203",
	.from = 22003, .to = 22005, .fixed_in = "2.20.5",
	.symptom = "nccl.uds.bind", .version_required = 1,	/* other versions collide too, rarely */
	.title = "a known NCCL 2.20.3 bug: a second communicator of the same rank (ncclCommSplit, new_group, FSDP) cannot bind its UDS socket (fixed in 2.20.5)",
	.cause = "NCCL 2.20.3 names the proxy's Unix socket by rank and process only, so the second communicator "
		"a process creates for the same rank finds the name taken ('UDS: Binding to socket ... failed : "
		"Address already in use')",
	.fix = "upgrade NCCL to 2.20.5 or later (pip install -U nvidia-nccl-cu12, or torch 2.3+)",
	.source = "https://github.com/NVIDIA/nccl/issues/1185",
},
{
	/* NCCL 2.27.5 release notes: "Restore the plugin name handling logic to make it possible to
	 * specify a path to the plugin (Issue #1732)"; #1732 "[nccl2.27.3] plugin loading bug" */
	.id = "nccl.known_bug.plugin_path_2273",
	.from = 22703, .to = 22705, .fixed_in = "2.27.5",
	.symptom = "nccl.plugin.path_mangled",
	.title = "a known NCCL 2.27.3 bug: a plugin given by a path is not loaded (fixed in 2.27.5)",
	.cause = "NCCL 2.27.3 turns a plugin path in NCCL_NET_PLUGIN, NCCL_TUNER_PLUGIN or NCCL_PROFILER_PLUGIN "
		"into 'libnccl-<type>-<path>.so' and never opens the path itself, so the plugin (an EFA, gIB or "
		"SHARP net plugin, a tuner) silently stays unloaded",
	.fix = "upgrade NCCL to 2.27.5 or later (pip install -U nvidia-nccl-cu12)\n"
		"export NCCL_NET_PLUGIN=libnccl-net-XXX.so   # meanwhile: the plugin's file name, its directory in LD_LIBRARY_PATH (2.27.3 opens a lib*.so name as given)",
	.source = "https://github.com/NVIDIA/nccl/issues/1732",
},
{
	/* NCCL 2.19.1 release notes (its release commit): "Better detect SHM allocation failures to
	 * avoid crash with Bus Error". NCCL's SHM segments live in /dev/shm, 64 MB in a default
	 * docker container (NVIDIA/nccl#983: "Signal: Bus error (7)" in ncclCommInitRank). */
	.id = "nccl.known_bug.shm_bus_error",
	.from = 0, .to = 21901, .fixed_in = "2.19.1",
	.symptom = "torch.dataloader.shm", .needs = KB_MEDIUM, .version_required = 1,
	.title = "a bus error with NCCL before 2.19.1: NCCL crashes instead of reporting that /dev/shm is too small",
	.cause = "NCCL before 2.19.1 did not detect that its shared-memory segment could not be backed: when "
		"/dev/shm is too small (64 MB in a default docker container) the process dies of SIGBUS; 2.19.1 "
		"reports the failure instead",
	.fix = "docker run --ipc=host ...   # or --shm-size=16g: NCCL's SHM transport needs /dev/shm space\n"
		"df -h /dev/shm   # on the node that crashed\n"
		"upgrade NCCL to 2.19.1 or later: a full /dev/shm is then an error message, not a crash",
	.source = "https://github.com/NVIDIA/nccl/commit/f9c3dc251e0fd3144341b4f43336c53dd913c110",
},
{
	/* NVIDIA/nccl#750 (maintainer): with CUDA_LAUNCH_BLOCKING=1 the kernel launch blocks until the
	 * kernel ends while NCCL enqueues the proxy's network work only after it, since 2.13; PR #774
	 * enqueues it first, in 2.17.1 (ncclCudaLaunchBlocking, read in 2.17.1's enqueue.cc) */
	.id = "nccl.known_bug.launch_blocking_hang",
	.from = 21300, .to = 21701, .fixed_in = "2.17.1",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_LAUNCH_BLOCKING, .version_required = 0,
	.title = "a known NCCL bug: CUDA_LAUNCH_BLOCKING=1 deadlocks NCCL 2.13-2.16 across nodes (fixed in 2.17.1)",
	.cause = "with CUDA_LAUNCH_BLOCKING=1 a kernel launch waits for the kernel to finish, but NCCL 2.13-2.16 "
		"hand the network work to the proxy thread only after the launch: the kernel waits for data "
		"that is never sent",
	.fix = "unset CUDA_LAUNCH_BLOCKING   # it is a debugging aid: training does not need it\n"
		"upgrade NCCL to 2.17.1 or later (torch 2.1+ wheels)",
	.source = "https://github.com/NVIDIA/nccl/issues/750",
},
{
	/* pytorch/pytorch PR #149546 (torch 2.7's cherry-pick): "nccl: upgrade to 2.26.2 to avoid hang
	 * on ncclCommAbort"; pytorch/pytorch#149153 (a PyTorch maintainer): "ncclCommAbort hangs when
	 * using NCCL 2.25.1-1 ... This is fixed with NCCL 2.26.2-1"; NCCL 2.26.2 release notes: "Fixes to
	 * ncclCommAbort: Fix hangs due to the progress thread spinning indefinitely on the network
	 * progress". A stuck abort blocks torch's watchdog, whose heartbeat monitor then fires. */
	.id = "nccl.known_bug.abort_hang_2251",
	.from = 22500, .to = 22602, .fixed_in = "2.26.2",
	.symptom = "torch.watchdog.heartbeat", .needs = KB_MEDIUM, .version_required = 1,
	/* or the hang itself: a stack stuck in ProcessGroupNCCL::abort / ncclCommAbort */
	.or_needs = KB_NEED_HANG | KB_NEED_ABORT,
	.title = "a known NCCL 2.25 bug: ncclCommAbort can hang, and torch's watchdog with it (fixed in 2.26.2)",
	.cause = "NCCL 2.25 can hang in ncclCommAbort (its progress thread spins on the network forever); torch "
		"aborts communicators from its watchdog on errors and timeouts, so the watchdog stops and the "
		"heartbeat monitor kills the job",
	.fix = "upgrade NCCL to 2.26.2 or later (pip install -U nvidia-nccl-cu12, or torch 2.7+)",
	.source = "https://github.com/pytorch/pytorch/pull/149546",
},
{
	/* pytorch/pytorch#154055 (a PyTorch maintainer): "NCCL 2.26 seems to introduce random hang in
	 * non-blocking API mode"; torch 2.7.0 turned that mode on when init_process_group gets a
	 * device_id, 2.7.1 no longer does (#153960). No NCCL release names a fix. */
	.id = "nccl.known_bug.nonblocking_hang_226",
	.from = 22600, .to = 22700, .fixed_in = NULL,
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_NONBLOCKING | KB_MEDIUM, .version_required = 1,
	.title = "a known NCCL 2.26 hang in non-blocking mode (torch 2.7.0 with device_id): collectives hang at random",
	.cause = "torch 2.7.0 creates communicators in NCCL's non-blocking mode when init_process_group gets a "
		"device_id, and NCCL 2.26 can hang at random in that mode",
	.fix = "export TORCH_NCCL_USE_COMM_NONBLOCKING=0   # the blocking API, as torch 2.7.1 chooses again\n"
		"upgrade torch to 2.7.1 or later",
	.source = "https://github.com/pytorch/pytorch/pull/154055",
},
{
	/* NVIDIA/nccl#1136: Intel and AMD hosts in one job pick different algorithms and protocols
	 * (tuning by the local CPU vendor, 2.18.1 and 2.19.3 hang, 2.17.1 does not); NCCL 2.22.3
	 * release notes: "Fix hang when nodes have different CPU types ... Fixes issue #1136" */
	.id = "nccl.known_bug.mixed_cpu_hang",
	.from = 21801, .to = 22203, .fixed_in = "2.22.3",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_MIXED_CPU, .version_required = 1,
	.title = "a known NCCL bug: nodes with Intel and AMD CPUs choose different algorithms and hang (fixed in 2.22.3)",
	.cause = "NCCL 2.18-2.21 tune by the local CPU's vendor, so Intel and AMD hosts in one job pick different "
		"algorithms or protocols for the same size and wait for each other forever",
	.fix = "upgrade NCCL to 2.22.3 or later (pip install -U nvidia-nccl-cu12)\n"
		"export NCCL_NET_OVERHEAD=1000   # meanwhile, on every node: the Intel value, the reporter's workaround (or NCCL_ALGO/NCCL_PROTO set alike everywhere)",
	.source = "https://github.com/NVIDIA/nccl/issues/1136",
},
{
	/* NVIDIA/nccl#1020 ("ring 0 does not loop back to start" with 2.19.3; the maintainer: the
	 * PCI speeds read from sysfs were left uninitialised when absent, so ranks built different
	 * rings); NCCL 2.19.4 release notes: "Make topology detection more deterministic when PCI
	 * speeds are not available (fix issue #1020)". The uninitialised speeds date from 2.6.4
	 * (read in xml.cc's history). */
	.id = "nccl.known_bug.ring_pci_speed",
	.from = 20604, .to = 21904, .fixed_in = "2.19.4",
	.symptom = "nccl.ring.no_loop", .needs = KB_MEDIUM, .version_required = 1,
	.title = "a known NCCL bug before 2.19.4: where sysfs lacks PCI link speeds (VMs) ranks build different rings (fixed in 2.19.4)",
	.cause = "NCCL before 2.19.4 left a PCI link speed uninitialised when sysfs does not show it (VMs, some "
		"hypervisors: 'could not read .../max_link_speed'), so ranks computed different topologies and "
		"init failed with 'ring N does not loop back to start'",
	.fix = "upgrade NCCL to 2.19.4 or later (pip install -U nvidia-nccl-cu12)\n"
		"NCCL_TOPO_DUMP_FILE=/tmp/nccl_topo.xml   # meanwhile, rerun with it and compare the files of two nodes: link_speed values that differ between identical nodes confirm it",
	.source = "https://github.com/NVIDIA/nccl/issues/1020",
},
{
	/* NVIDIA/nccl#179 (sporadic "ring 0 does not loop back to start", NCCL 2.3.7, DGX-1 with four
	 * IB ports); the NCCL 2.5.6 release (PR #255, the maintainer): "Rewrite the topology
	 * detection and tree/ring creation (#179)" */
	.id = "nccl.known_bug.ring_rewrite_25",
	.from = 0, .to = 20506, .fixed_in = "2.5.6",
	.symptom = "nccl.ring.no_loop", .needs = KB_MEDIUM, .version_required = 1,
	.title = "a known bug of NCCL before 2.5: ring construction can fail on nodes with several NICs (fixed by the 2.5.6 rewrite)",
	.cause = "NCCL before 2.5 built rings from a topology detection that several NICs per node could make "
		"differ between ranks; 2.5.6 rewrote topology detection and ring creation for it",
	.fix = "upgrade NCCL to 2.5.6 or later (any current torch wheel or container brings a far newer NCCL)",
	.source = "https://github.com/NVIDIA/nccl/issues/179",
},
{
	/* NCCL 2.18.1 release notes: "Fixed hangs with irregular send/receive patterns (e.g.,
	 * alltoallv)" (the release commit: "Fix alltoallv hang (#788)"); NVIDIA/nccl#788: "Alltoallv
	 * hangs with NCCL 2.12 and newer" (multi-node, IB). The notes name no first version. */
	.id = "nccl.known_bug.alltoallv_hang",
	.from = 0, .to = 21801, .fixed_in = "2.18.1",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_ALLTOALL | KB_MEDIUM, .version_required = 1,
	.title = "an all-to-all hang with NCCL before 2.18.1: a known alltoallv hang (fixed in 2.18.1)",
	.cause = "NCCL before 2.18.1 could hang in all-to-all-v patterns across nodes (reported from 2.12 on: a "
		"subset of nodes stalls after some iterations); 2.18.1 fixes it",
	.fix = "upgrade NCCL to 2.18.1 or later (pip install -U nvidia-nccl-cu12, or torch 2.1+)",
	.source = "https://docs.nvidia.com/deeplearning/nccl/release-notes/rel_2-18-1.html",
},
{
	/* NCCL 2.28.7 release notes: "Fixes spurious failures when PyTorch is statically linked with
	 * NCCL-2.28.3 because error is not drained, but rather gets propagated into the next CUDA
	 * kernel invocation (PR #1864)"; pytorch/pytorch#164402: a torch built from source with
	 * 2.28.3 fails its next kernel with cudaErrorNoKernelImageForDevice on H100 */
	.id = "nccl.known_bug.static_link_2283",
	.from = 22803, .to = 22807, .fixed_in = "2.28.7",
	.symptom = "cuda.no_kernel_image", .needs = KB_MEDIUM, .version_required = 1,
	.title = "a known NCCL 2.28.3 bug: statically linked (torch built from source), NCCL leaves a CUDA error that torch's next kernel reports as 'no kernel image' (fixed in 2.28.7)",
	.cause = "NCCL 2.28.3 probes its kernels at init and ignores a failure without clearing CUDA's last error; "
		"linked statically into torch (source builds), the stale 'no kernel image is available' error "
		"surfaces in the next torch kernel although the GPU is supported",
	.fix = "rebuild torch against NCCL 2.28.7 or later (or use a released torch wheel, which loads NCCL dynamically)\n"
		"python3 -c 'import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())'   # if the GPU's arch is listed, the error is NCCL's",
	.source = "https://github.com/pytorch/pytorch/issues/164402",
},
{
	/* NVIDIA/nccl#931: a repeatable segfault in the NVLS graph search (ncclTopoSearchRecNet reads
	 * past the NET array) with 2.18.3 on H100 with one NIC per GPU; the maintainer: "that code is
	 * obviously wrong"; NCCL 2.18.5 release notes: "Fix NVLS search (issue #931)" */
	.id = "nccl.known_bug.nvls_search_218",
	.from = 21801, .to = 21805, .fixed_in = "2.18.5",
	.symptom = "sys.segfault", .needs = KB_NEED_NVLS | KB_MEDIUM, .version_required = 1,
	.title = "a known NCCL 2.18 bug: the NVLS graph search can crash init on NVSwitch systems (fixed in 2.18.5)",
	.cause = "NCCL 2.18.1-2.18.4 read past the end of the NIC list while searching NVLS graphs (H100/H800 with "
		"NVSwitch and one NIC per GPU), and the process died with a segmentation fault during init",
	.fix = "upgrade NCCL to 2.18.5 or later (pip install -U nvidia-nccl-cu12)\n"
		"to test it: NCCL_NVLS_ENABLE=0 on the same run; if the crash goes away, the NVLS search is where it is",
	.source = "https://github.com/NVIDIA/nccl/issues/931",
},
{
	/* pytorch/pytorch#152302 ("NCCL out of memory error after updating to PyTorch 2.7", NCCL
	 * 2.26.2), the NCCL maintainer: "running with NCCL_CUMEM_HOST_ENABLE=0 should unblock you ...
	 * We've been seeing more of these cuMem host allocation failures lately", and the fallback
	 * added in 2.26.3/2.26.5 does not catch every case; NCCL 2.26.3 release notes: cuMem host
	 * allocations are "Enabled by default since NCCL 2.24 ... rely on NUMA support, which is by
	 * default not available under Docker. We recommend invoking Docker with --cap-add SYS_NICE".
	 * No release is named as fixing the failure itself. */
	.id = "nccl.known_bug.cumem_host_alloc",
	.from = 22400, .to = 0, .fixed_in = NULL,
	.symptom = "nccl.cuda.oom", .needs = KB_MEDIUM, .version_required = 1,
	.title = "NCCL 2.24+ allocates host memory with cuMem: a known init failure that reads 'out of memory' (NCCL_CUMEM_HOST_ENABLE=0 avoids it)",
	.cause = "since 2.24 NCCL allocates its host buffers with cuMem (CUDA 12.6+ drivers), which needs NUMA "
		"support (Docker withholds it by default); when such an allocation fails, init fails with a CUDA "
		"'out of memory' although the GPU has room",
	.fix = "export NCCL_CUMEM_HOST_ENABLE=0   # the NCCL team's workaround: host buffers without cuMem\n"
		"docker run --cap-add SYS_NICE ...   # in Docker, the release notes' recommendation: cuMem host memory needs NUMA support\n"
		"nvidia-smi   # if the GPU really is full, this is not the cause",
	.source = "https://github.com/pytorch/pytorch/issues/152302",
},
{
	/* NCCL 2.27.6 release notes: "A note for users on MNNVL systems: ... we've seen crashes if the
	 * limit is changed to 'unlimited', as it causes the glibc library to unexpectedly *decrease*
	 * the stack size of NCCL's background threads to just 2048 KB ... reset it to 8192 KB using
	 * 'ulimit -s 8192'". glibc's behaviour, so no NCCL release fixes it. */
	.id = "nccl.known_bug.stack_unlimited_mnnvl",
	.from = 0, .to = 0, .fixed_in = NULL,
	.symptom = "sys.segfault", .needs = KB_NEED_ARM | KB_NEED_STACK_UNLIMITED | KB_MEDIUM,
	.version_required = 0,
	.title = "a known crash on multi-node NVLink systems (GB200): 'ulimit -s unlimited' shrinks NCCL's thread stacks to 2 MB",
	.cause = "with the stack limit 'unlimited' glibc gives new threads only 2048 KB of stack, too little for "
		"NCCL's background threads on MNNVL systems, which then crash; the default 8192 KB is enough",
	.fix = "ulimit -s 8192   # on every node, in the shell or job script that launches the ranks (srun/mpirun propagate it)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.27.6-1",
},
{
	/* NVIDIA/nccl#1515, the NCCL maintainer: "'Software caused connection abort' is due to a bug in
	 * NCCL that's already been fixed for the next release ... most likely a secondary effect";
	 * NCCL 2.24.3 release notes: "Socket connection failure retry ... Avoid 'Software caused
	 * connection abort' errors on retries" */
	.id = "nccl.known_bug.connect_abort_retry",
	.from = 0, .to = 22403, .fixed_in = "2.24.3",
	.symptom = "nccl.connect.aborted", .needs = KB_MEDIUM, .version_required = 1,
	.title = "'Software caused connection abort' with NCCL before 2.24.3: a known bug of NCCL's connect retries hides the first failure (fixed in 2.24.3)",
	.cause = "NCCL before 2.24.3 mishandles a connect it retries and reports ECONNABORTED instead of the first "
		"failure; the message itself is the bug, what made the first connect fail is the cause to find",
	.fix = "read the first NCCL WARN of every rank: the connect that failed first (refused, timed out, unreachable) is the real failure\n"
		"upgrade NCCL to 2.24.3 or later: connect failures are then retried and reported as they are",
	.source = "https://github.com/NVIDIA/nccl/issues/1515",
},
{
	/* NVIDIA/nccl PR #1758 (bootstrap jobs failing in socketTryAccept on EINTR, "all NCCL
	 * versions from 2.19 all the way to 2.25"); the NCCL maintainer: "this bug was in fact fixed
	 * in NCCL 2.27.3" (its socketTryAccept retries EINTR; the message dates from 2.18.1) */
	.id = "nccl.known_bug.accept_eintr",
	.from = 21801, .to = 22703, .fixed_in = "2.27.3",
	.symptom = "nccl.accept.eintr",
	.title = "a known NCCL bug before 2.27.3: a signal during accept() fails the bootstrap (fixed in 2.27.3)",
	.cause = "NCCL 2.18-2.27.2 retry accept() only on EAGAIN, so any signal delivered to a rank while it waits "
		"for connections (timers, profilers, a launcher) ends init with 'Accept failed: Interrupted "
		"system call'; it strikes at random, more often at scale",
	.fix = "upgrade NCCL to 2.27.3 or later (pip install -U nvidia-nccl-cu12, or torch 2.8+)",
	.source = "https://github.com/NVIDIA/nccl/pull/1758",
},
{
	/* NVIDIA/nccl#1762 ("Possible bug in NCCL RAS v2.27.3"): rasClientRunComms steps over a
	 * communicator's record without its missing-rank entries, so a RAS report of a job with
	 * missing ranks reads garbage; the maintainer: "the fix was included in NCCL 2.29.2 release".
	 * The missing-rank records date from 2.26.2 (read in client_support.cc). */
	.id = "nccl.known_bug.ras_missing_ranks",
	.from = 22602, .to = 22902, .fixed_in = "2.29.2",
	.symptom = "sys.segfault", .needs = KB_NEED_RAS | KB_MEDIUM, .version_required = 1,
	.title = "a known NCCL 2.26-2.28 bug: a RAS report of a job with missing ranks can crash the process (fixed in 2.29.2)",
	.cause = "NCCL 2.26.2-2.28.9 miscompute the size of a communicator's RAS record when ranks are missing "
		"(a rank died or never joined), so answering a RAS query (ncclras, a monitoring agent) can crash "
		"a healthy rank too",
	.fix = "export NCCL_RAS_ENABLE=0   # RAS is a monitoring aid: training does not need it\n"
		"upgrade NCCL to 2.29.2 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.source = "https://github.com/NVIDIA/nccl/issues/1762",
},
{
	/* vllm-project/vllm#5091 (a vLLM maintainer): "NCCL 2.19 will turn on virtual memory by
	 * default, which costs memory during cudagraph capture"; vllm-project/vllm#24141: "confirmed
	 * in https://github.com/NVIDIA/nccl/issues/1234 that NCCL 2.22.3 resolved the memory overhead
	 * issue". vLLM set NCCL_CUMEM_ENABLE=0 meanwhile. */
	.id = "nccl.known_bug.cumem_cudagraph_memory",
	.from = 21900, .to = 22203, .fixed_in = "2.22.3",
	.symptom = "cuda.oom", .needs = KB_NEED_CUDAGRAPH | KB_MEDIUM, .version_required = 1,
	.title = "out of memory with CUDA graphs and NCCL 2.19-2.21: a known cuMem memory overhead of NCCL during graph capture (resolved in 2.22.3)",
	.cause = "NCCL 2.19 enabled cuMem by default, and with it NCCL calls captured in CUDA graphs cost extra "
		"GPU memory (vLLM and SGLang capture many graphs); 2.22.3 removed the overhead",
	.fix = "export NCCL_CUMEM_ENABLE=0   # what vLLM set on these versions\n"
		"upgrade NCCL to 2.22.3 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/vllm-project/vllm/pull/24141",
},
{
	/* NCCL 2.26.2 release notes (its release commit): "Make the auto-merge failures in the NIC
	 * fusion non-fatal. This could happen when trying to merge IB and RoCE devices."; NIC
	 * fusion came with 2.24.3 ("Add NIC fusion", its release notes) */
	.id = "nccl.known_bug.nic_fusion_fatal",
	.from = 22403, .to = 22602, .fixed_in = "2.26.2",
	.symptom = "nccl.net.merge_failed",
	.title = "a known NCCL 2.24/2.25 bug: a NIC fusion that fails (IB and RoCE ports on one switch) ends init (fixed in 2.26.2)",
	.cause = "NCCL 2.24.3-2.25.1 stop when their automatic NIC fusion cannot merge devices, e.g. an InfiniBand "
		"and a RoCE port under one PCI switch; 2.26.2 skips the merge and goes on",
	.fix = "export NCCL_NET_MERGE_LEVEL=LOC   # meanwhile: no NIC fusion\n"
		"upgrade NCCL to 2.26.2 or later (pip install -U nvidia-nccl-cu12, or torch 2.7+)",
	.source = "https://github.com/NVIDIA/nccl/commit/f44ac759fee12ecb3cc6891e9e739a000f66fd70",
},
{
	/* NCCL 2.19.4 release notes (its release commit): "Split transport connect phase into
	 * multiple steps to avoid port exhaustion when connecting alltoall at large scale. Defaults
	 * to 128 peers per round." Before, every peer was connected at once. */
	.id = "nccl.known_bug.connect_port_exhaustion",
	.from = 0, .to = 21904, .fixed_in = "2.19.4",
	.symptom = "nccl.connect.no_port", .needs = KB_MEDIUM, .version_required = 1,
	.title = "no local port left with NCCL before 2.19.4: a known port exhaustion when all-to-all connects every peer at once (fixed in 2.19.4)",
	.cause = "NCCL before 2.19.4 opened the connections to all peers of an all-to-all at once, which at large "
		"scale exhausts the node's ephemeral ports ('Cannot assign requested address'); 2.19.4 connects "
		"128 peers per round",
	.fix = "upgrade NCCL to 2.19.4 or later (pip install -U nvidia-nccl-cu12, or torch 2.3+)\n"
		"sysctl net.ipv4.ip_local_port_range   # meanwhile, on every node: a wider range delays the exhaustion",
	.source = "https://github.com/NVIDIA/nccl/commit/88d44d777f6970bdbf6610badcbd7e25a05380f0",
},
{
	/* NVIDIA's cuBLASMp troubleshooting page (Known Issues): "Some users on multi-node InfiniBand
	 * configurations may experience hangs with NCCL 2.29.7 and above. To work around this issue,
	 * set the NCCL_PXN_DISABLE=1 environment variable. This issue is fixed in NCCL 2.30.7." */
	.id = "nccl.known_bug.pxn_hang_2297",
	.from = 22907, .to = 23007, .fixed_in = "2.30.7",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_MEDIUM, .version_required = 1,
	.title = "a known NCCL 2.29.7-2.30.6 bug: multi-node InfiniBand jobs can hang (fixed in 2.30.7)",
	.cause = "NVIDIA documents hangs on multi-node InfiniBand configurations from NCCL 2.29.7 on, fixed in "
		"2.30.7, with PXN off as the workaround; rule it out before debugging the fabric",
	.fix = "export NCCL_PXN_DISABLE=1   # the documented workaround, on every node\n"
		"upgrade NCCL to 2.30.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.source = "https://docs.nvidia.com/cuda/cuest/troubleshooting/index.html",
},
/* ---- thirteenth session (issue #29): from NCCL's release commits and NVIDIA's pages ---------- */
{
	/* NCCL 2.12.12 release notes (its release commit): "Fix crash when setting
	 * NCCL_SET_THREAD_NAME. Fix random crash in init due to uninitialized struct." Thread naming
	 * came with 2.12.7, so 2.12.7 and 2.12.10 are the releases with both. */
	.id = "nccl.known_bug.init_crash_2127",
	.from = 21207, .to = 21212, .fixed_in = "2.12.12",
	.symptom = "sys.segfault", .needs = KB_MEDIUM, .version_required = 1,
	.title = "a crash with NCCL 2.12.7/2.12.10: two known crashes (init, NCCL_SET_THREAD_NAME) fixed in 2.12.12",
	.cause = "NCCL 2.12.7 and 2.12.10 can crash at random during init (a struct left uninitialised) and when "
		"NCCL_SET_THREAD_NAME is set; 2.12.12 fixes both",
	.fix = "upgrade NCCL to 2.12.12 or later (any current torch wheel or container brings a far newer NCCL)\n"
		"unset NCCL_SET_THREAD_NAME   # meanwhile, if it is set",
	.source = "https://github.com/NVIDIA/nccl/commit/7aa1c46fd551d5514474cfc55848219dc67ca683",
},
{
	/* NCCL 2.14.3 release notes (its release commit): "Fix: wait for CUDA graph destroy before
	 * destroying comm with linked graph resources." CUDA graph support came with 2.9. */
	.id = "nccl.known_bug.graph_destroy_2143",
	.from = 20900, .to = 21403, .fixed_in = "2.14.3",
	.symptom = "sys.segfault", .needs = KB_NEED_CUDAGRAPH | KB_MEDIUM, .version_required = 1,
	.title = "a crash with CUDA graphs and NCCL 2.9-2.14.2: NCCL could free a communicator a captured graph still uses (fixed in 2.14.3)",
	.cause = "NCCL before 2.14.3 destroyed a communicator without waiting for the CUDA graphs that captured its "
		"collectives to be destroyed, so a graph destroyed later (often at exit) touched freed resources",
	.fix = "upgrade NCCL to 2.14.3 or later (pip install -U nvidia-nccl-cu11 / -cu12, or torch 2.0+)\n"
		"destroy the CUDA graphs before the process group (del graph; dist.destroy_process_group())   # meanwhile",
	.source = "https://github.com/NVIDIA/nccl/commit/c4e2aa6c792b4e94d0343c72ce20e71285238827",
},
{
	/* NCCL 2.14.3 release notes: "Fix DMABUF fallback on MOFED 5.4 and earlier." DMA-BUF came with
	 * 2.13.4; its probe took only EOPNOTSUPP as "not supported", while those drivers answer
	 * EPROTONOSUPPORT (read in the 2.13.4 -> 2.14.3 diff of net_ib.cc), so 2.13 used DMA-BUF there. */
	.id = "nccl.known_bug.dmabuf_mofed_2134",
	.from = 21300, .to = 21403, .fixed_in = "2.14.3",
	.symptom = "nccl.ib.dmabuf", .needs = KB_MEDIUM, .version_required = 1,
	.title = "ibv_reg_dmabuf_mr failed with NCCL 2.13: a known misdetection of DMA-BUF on MLNX_OFED 5.4 and older (fixed in 2.14.3)",
	.cause = "NCCL 2.13 took only EOPNOTSUPP as 'DMA-BUF not supported'; MLNX_OFED 5.4 and older answer "
		"EPROTONOSUPPORT, so NCCL believed DMA-BUF worked and every registration through it then failed",
	.fix = "export NCCL_DMABUF_ENABLE=0   # meanwhile: register through nvidia-peermem\n"
		"upgrade NCCL to 2.14.3 or later: it falls back by itself",
	.source = "https://github.com/NVIDIA/nccl/commit/c4e2aa6c792b4e94d0343c72ce20e71285238827",
},
{
	/* NCCL 2.15.5 release notes (its release commit): "Fix hang when interleaving the capture of
	 * different graphs". CUDA graph support came with 2.9. */
	.id = "nccl.known_bug.graph_interleave_2155",
	.from = 20900, .to = 21505, .fixed_in = "2.15.5",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_CUDAGRAPH | KB_MEDIUM, .version_required = 1,
	.title = "a hang with CUDA graphs and NCCL before 2.15.5: capturing several graphs interleaved could hang (fixed in 2.15.5)",
	.cause = "NCCL 2.9-2.15.4 could hang when the capture of different CUDA graphs was interleaved (capture "
		"of one graph begun before another's ended, or on several streams)",
	.fix = "upgrade NCCL to 2.15.5 or later (pip install -U nvidia-nccl-cu11 / -cu12, or torch 2.0+)\n"
		"to test it: run without CUDA graphs (eager mode); if the hang goes away, the graph capture is where it is",
	.source = "https://github.com/NVIDIA/nccl/commit/cb111f764a6d46370f24f75101d6b219bb2dda54",
},
{
	/* NCCL 2.16.5 release notes (its release commit): "Fix crash in ncclCommAbort"; 2.16.2: "Various
	 * fixes to ncclCommAbort". torch aborts communicators on errors and timeouts. */
	.id = "nccl.known_bug.abort_crash_2165",
	.from = 0, .to = 21605, .fixed_in = "2.16.5",
	.symptom = "sys.segfault", .needs = KB_NEED_ABORT | KB_MEDIUM, .version_required = 1,
	.title = "a crash in ncclCommAbort with NCCL before 2.16.5: a known abort crash (fixed in 2.16.5)",
	.cause = "NCCL before 2.16.5 could crash inside ncclCommAbort, which torch calls after an error or a "
		"timeout; the crash hides the first failure, which is the one to find",
	.fix = "read the first error of every rank before the crash: that failure made torch abort the communicator\n"
		"upgrade NCCL to 2.16.5 or later (torch 2.0+ wheels)",
	.source = "https://github.com/NVIDIA/nccl/commit/f3d51667838f7542df8ea32ea4e144d812b3ed7c",
},
{
	/* NCCL 2.18.1 release notes, Known Issues: "On systems with less than 1 NIC per GPU, running
	 * bfloat16 reductions with IB SHARP will cause a hang."; 2.18.3 (its release commit): "Fix hang
	 * with Collnet on bfloat16 on systems with less than one NIC per GPU". */
	.id = "nccl.known_bug.sharp_bf16_2181",
	.from = 21801, .to = 21803, .fixed_in = "2.18.3",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_SHARP | KB_NEED_BF16, .version_required = 1,
	.title = "a known NCCL 2.18.1 issue: bfloat16 reductions with IB SHARP hang on systems with fewer NICs than GPUs (fixed in 2.18.3)",
	.cause = "NCCL 2.18.1 lists it as a known issue: with IB SHARP (CollNet) and less than one NIC per GPU, "
		"bfloat16 reductions hang",
	.fix = "upgrade NCCL to 2.18.3 or later (pip install -U nvidia-nccl-cu12)\n"
		"export NCCL_COLLNET_ENABLE=0   # meanwhile: no IB SHARP",
	.source = "https://docs.nvidia.com/deeplearning/nccl/release-notes/rel_2-18-1.html",
},
{
	/* NCCL 2.18.1 release notes, Known Issues: "Running allreduce on H100 platforms with IB SHARP
	 * with multiple GPUs per process can result in data corruption if all GPUs on the node are not
	 * part of the same process"; 2.18.3 (its release commit): "Fix data corruption with Collnet
	 * when mixing multi-process and multi-GPU per process". */
	.id = "nccl.known_bug.sharp_multiproc_2181",
	.from = 0, .to = 21803, .fixed_in = "2.18.3",
	.symptom = NULL, .needs = KB_NEED_WRONG | KB_NEED_SHARP | KB_MEDIUM, .version_required = 1,
	.title = "wrong results with IB SHARP and NCCL before 2.18.3: a known CollNet corruption when processes drive several GPUs each (fixed in 2.18.3)",
	.cause = "with IB SHARP (CollNet), NCCL before 2.18.3 could corrupt allreduce results when a process drives "
		"several GPUs and the node's GPUs are not all in one process (a known issue of 2.18.1)",
	.fix = "export NCCL_COLLNET_ENABLE=0   # to test it: if the results become correct, CollNet is where it is\n"
		"upgrade NCCL to 2.18.3 or later (pip install -U nvidia-nccl-cu12)\n"
		"one GPU per process (torchrun, mpirun -np <GPUs>) avoids the mixed layout",
	.source = "https://docs.nvidia.com/deeplearning/nccl/release-notes/rel_2-18-1.html",
},
{
	/* NCCL 2.19.4 release notes (its release commit): "Fix alltoallv crash on self-sendrecv." */
	.id = "nccl.known_bug.alltoallv_self_2194",
	.from = 0, .to = 21904, .fixed_in = "2.19.4",
	.symptom = "sys.segfault", .needs = KB_NEED_ALLTOALL | KB_MEDIUM, .version_required = 1,
	.title = "a crash in all-to-all with NCCL before 2.19.4: a known alltoallv crash when a rank sends to itself (fixed in 2.19.4)",
	.cause = "NCCL before 2.19.4 could crash in alltoallv patterns where a rank also sends to and receives from "
		"itself (uneven splits, MoE token routing)",
	.fix = "upgrade NCCL to 2.19.4 or later (pip install -U nvidia-nccl-cu12, or torch 2.3+)",
	.source = "https://github.com/NVIDIA/nccl/commit/88d44d777f6970bdbf6610badcbd7e25a05380f0",
},
{
	/* NCCL 2.21.5 release notes (its release commit): "Fix hang when crossNic is inconsistent
	 * between ranks." NCCL_CROSS_NIC set differently on some nodes (or a value only some honour). */
	.id = "nccl.known_bug.cross_nic_2215",
	.from = 0, .to = 22105, .fixed_in = "2.21.5",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_CROSS_NIC | KB_MEDIUM, .version_required = 1,
	.title = "a hang with NCCL_CROSS_NIC and NCCL before 2.21.5: ranks that disagree on cross-NIC rings hang (fixed in 2.21.5)",
	.cause = "NCCL before 2.21.5 hangs when ranks end up with different cross-NIC settings (NCCL_CROSS_NIC set "
		"on some nodes only, or to different values), because they build incompatible rings",
	.fix = "set NCCL_CROSS_NIC to the same value on every node, or unset it everywhere\n"
		"upgrade NCCL to 2.21.5 or later (pip install -U nvidia-nccl-cu12, or torch 2.4+)",
	.source = "https://github.com/NVIDIA/nccl/commit/ab2b89c4c339bd7f816fbc114a4b05d386b66290",
},
{
	/* NCCL 2.22.3 release notes (its release commit): "Fix crash with collnetDirect"; 2.17.1: "Fix
	 * crash when one CollNet (SHARP) rail fails to initialize." */
	.id = "nccl.known_bug.collnet_crash_2223",
	.from = 0, .to = 22203, .fixed_in = "2.22.3",
	.symptom = "sys.segfault", .needs = KB_NEED_SHARP | KB_MEDIUM, .version_required = 1,
	.title = "a crash with IB SHARP (CollNet) and NCCL before 2.22.3: known CollNet crashes (fixed in 2.17.1 and 2.22.3)",
	.cause = "NCCL before 2.17.1 crashed when one CollNet (SHARP) rail failed to initialise, and before 2.22.3 "
		"could crash with CollNetDirect",
	.fix = "export NCCL_COLLNET_ENABLE=0   # to test it: if the crash goes away, CollNet is where it is\n"
		"upgrade NCCL to 2.22.3 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/commit/178b6b759074597777ce13438efb0e0ba625e429",
},
{
	/* NCCL 2.24.3 release notes (its release commit): "Fix non-blocking ncclSend/ncclRecv. Fix case
	 * where ncclSend/ncclRecv would return ncclSuccess in non-blocking mode even though the
	 * operation was not enqueued onto the stream. Issue #1495". Non-blocking mode came with 2.14. */
	.id = "nccl.known_bug.nonblocking_p2p_2243",
	.from = 21400, .to = 22403, .fixed_in = "2.24.3",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_NONBLOCKING | KB_MEDIUM, .version_required = 1,
	.title = "a hang in non-blocking mode with NCCL 2.14-2.24.2: a send/recv could report success without being queued (fixed in 2.24.3)",
	.cause = "in NCCL's non-blocking mode (torch: TORCH_NCCL_USE_COMM_NONBLOCKING=1, or device_id= on some "
		"releases) ncclSend/ncclRecv before 2.24.3 could return success without enqueuing the operation, so "
		"its peer waits forever",
	.fix = "export TORCH_NCCL_USE_COMM_NONBLOCKING=0   # the blocking API\n"
		"upgrade NCCL to 2.24.3 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/commit/6aae37927840b2bd7b7d42d2f0050e75f88ee97f",
},
{
	/* NCCL 2.26.2 release notes (its release commit): "Fix double-free on failed ncclCommInitRank
	 * and ncclCommFinalize."; earlier: 2.15.5 "Fixes double-free in the error path for
	 * ncclCommInitAll", 2.16.5 "Fix double free in case of init failure". */
	.id = "nccl.known_bug.double_free_2262",
	.from = 0, .to = 22602, .fixed_in = "2.26.2",
	.symptom = "sys.heap_corruption", .needs = KB_NEED_NCCL_ERROR | KB_MEDIUM, .version_required = 1,
	.title = "a double free after an NCCL failure with NCCL before 2.26.2: NCCL's error path frees twice (fixed in 2.26.2); the first NCCL error is the cause",
	.cause = "NCCL before 2.26.2 could free memory twice when ncclCommInitRank or ncclCommFinalize failed, so "
		"glibc aborts after NCCL already reported an error; the abort is a consequence of that error",
	.fix = "read NCCL's first error (rerun with NCCL_DEBUG=WARN: the first NCCL WARN line): that failure is what to fix\n"
		"upgrade NCCL to 2.26.2 or later: the failure is then reported without the crash",
	.source = "https://github.com/NVIDIA/nccl/commit/f44ac759fee12ecb3cc6891e9e739a000f66fd70",
},
{
	/* NCCL 2.24.3 release notes: "Fix hangs when running with different CPU architectures ...
	 * Ensure Algo/Proto decisions are made based on that unified state."; 2.26.2 (its release
	 * commit): "Fix a hang on heterogeneous architectures. Ensure we harmonize the tuning to avoid
	 * different tuning choices, causing a hang." */
	.id = "nccl.known_bug.mixed_arch_2262",
	.from = 0, .to = 22602, .fixed_in = "2.26.2",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_MIXED_ARCH | KB_MEDIUM, .version_required = 1,
	.title = "a hang with aarch64 and x86 hosts in one job and NCCL before 2.26.2: known hangs on heterogeneous architectures (fixed in 2.26.2)",
	.cause = "NCCL tunes algorithms and protocols by the local CPU; before 2.26.2 (partly fixed in 2.24.3) "
		"aarch64 and x86 hosts in one job could choose differently and wait for each other forever",
	.fix = "upgrade NCCL to 2.26.2 or later on every host (pip install -U nvidia-nccl-cu12, or torch 2.7+)\n"
		"export NCCL_ALGO=Ring NCCL_PROTO=Simple   # meanwhile, the same on every host: no per-host choice left",
	.source = "https://github.com/NVIDIA/nccl/commit/f44ac759fee12ecb3cc6891e9e739a000f66fd70",
},
{
	/* NCCL 2.26.5 release notes (its release commit): "Work around a potential hang in alltoall-like
	 * communication patterns on MNNVL systems at a scale of over 80 ranks."; 2.27.3: "Fix a
	 * potential hang in alltoall-like communication patterns at a scale of over 80 ranks." */
	.id = "nccl.known_bug.mnnvl_a2a_2265",
	.from = 0, .to = 22605, .fixed_in = "2.26.5",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_ALLTOALL | KB_NEED_ARM | KB_MEDIUM, .version_required = 1,
	.title = "an all-to-all hang on multi-node NVLink (GB200) with NCCL before 2.26.5: a known hang at over 80 ranks (worked around in 2.26.5, fixed in 2.27.3)",
	.cause = "on MNNVL systems (GB200 NVL72) NCCL before 2.26.5 could hang in all-to-all-like patterns when more "
		"than 80 ranks take part",
	.fix = "upgrade NCCL to 2.27.3 or later (2.26.5 has the workaround; pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/commit/3000e3c797b4b236221188c07aa09c1f3a0170d4",
},
{
	/* NCCL 2.27.5 release notes (its release commit): "Fix PXN support on MNNVL systems, where NCCL
	 * would try (and fail) to share regular host memory across multiple nodes." */
	.id = "nccl.known_bug.mnnvl_pxn_2273",
	.from = 22703, .to = 22705, .fixed_in = "2.27.5",
	.symptom = "nccl.cuda.failure", .needs = KB_NEED_ARM | KB_MEDIUM, .version_required = 1,
	.title = "a CUDA failure on a multi-node NVLink system (GB200) with NCCL 2.27.3: PXN tried to share host memory across nodes (fixed in 2.27.5)",
	.cause = "NCCL 2.27.3 tried to share ordinary host memory across nodes for PXN on MNNVL systems, and "
		"failed",
	.fix = "upgrade NCCL to 2.27.5 or later (pip install -U nvidia-nccl-cu12)\n"
		"export NCCL_PXN_DISABLE=1   # to test it: if the failure goes away, PXN is where it is",
	.source = "https://github.com/NVIDIA/nccl/commit/3ea7eedf3b9b94f1d9f99f4e55536dfcbd23c1ca",
},
{
	/* NCCL 2.27.7 release notes (its release commit): "Prevent initialization failures in certain
	 * configurations when attempting to load fp8-specific symmetric multicast kernels on GPUs
	 * older than Blackwell." 2.27.3-2.27.6's ncclInitKernelsForDevice (enqueue.cc) skipped only
	 * cudaErrorNoKernelImageForDevice and failed init on any other error (the 2.27.7 diff). */
	.id = "nccl.known_bug.symk_init_2273",
	.from = 22703, .to = 22707, .fixed_in = "2.27.7",
	.symptom = "nccl.cuda.failure", .needs = KB_NEED_ENQUEUE | KB_MEDIUM, .version_required = 1,
	.title = "a CUDA failure in enqueue.cc at init with NCCL 2.27.3-2.27.6: a known failure to load fp8 symmetric kernels on pre-Blackwell GPUs (fixed in 2.27.7)",
	.cause = "NCCL 2.27.3-2.27.6 query every kernel at init and fail init when one of the fp8 symmetric "
		"multicast kernels cannot be loaded on a GPU older than Blackwell, instead of skipping it",
	.fix = "upgrade NCCL to 2.27.7 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/commit/593de54e52679b51428571c13271e2ea9f91b1b1",
},
{
	/* NCCL 2.28.3 release notes (its release commit): "Respond better to RoCE link flaps. Instead
	 * of reporting an 'unknown event' it will now report 'GID table changed'." 2.23.4-2.28.2 print
	 * IBV_EVENT_GID_CHANGE (18) as "unknown event type (18)" (net_ib.cc). */
	.id = "nccl.known_bug.roce_flap_event_2283",
	.from = 22304, .to = 22803, .fixed_in = "2.28.3",
	.symptom = "nccl.ib.gid_changed", .version_required = 1,
	.title = "'unknown event type (18)' from NCCL 2.23-2.28.2 is a RoCE link flap: the port's GID table changed (reported as such from 2.28.3)",
	.cause = "event 18 is IBV_EVENT_GID_CHANGE: the RoCE interface went down and up or changed its address "
		"under the job; NCCL 2.23.4-2.28.2 do not name it, 2.28.3 reports 'GID table changed' and handles "
		"the flap better",
	.fix = "sudo dmesg -T | grep -i -e mlx5 -e 'link down' -e 'link up'   # on that node: the flap and when it happened\n"
		"upgrade NCCL to 2.28.3 or later: it names the event and responds better to RoCE link flaps",
	.source = "https://github.com/NVIDIA/nccl/commit/f1308997d0420148b1be1c24d63f19d902ae589b",
},
{
	/* NCCL 2.28.9 release notes (its release commit): "Fix operation ordering between main thread
	 * and proxy thread to prevent hangs at large scale." */
	.id = "nccl.known_bug.proxy_order_2289",
	.from = 22800, .to = 22809, .fixed_in = "2.28.9",
	.symptom = "torch.watchdog.timeout", .needs = KB_MEDIUM, .version_required = 1,
	.title = "a collective timeout with NCCL 2.28.3/2.28.7: a known hang at large scale (fixed in 2.28.9)",
	.cause = "NCCL 2.28 before 2.28.9 could order operations between the main thread and the proxy thread "
		"wrongly, which hangs collectives at large scale; rule it out before debugging the fabric",
	.fix = "upgrade NCCL to 2.28.9 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.source = "https://github.com/NVIDIA/nccl/commit/dbc86fd06e8b0c4517b95d8958a09ccacf9520c9",
},
{
	/* NCCL 2.29.2 release notes (its release commit): "Fixes a bug that could cause AllReduce on
	 * ncclFloat8e4m3 to yield 'no algorithm/protocol available'." fp8 came with 2.24.3. */
	.id = "nccl.known_bug.fp8_no_algo_2292",
	.from = 22403, .to = 22902, .fixed_in = "2.29.2",
	.symptom = "nccl.env.algo_unavailable", .needs = KB_NEED_FP8, .version_required = 1,
	.title = "'no algorithm/protocol available' on an fp8 AllReduce with NCCL 2.24-2.29.1: a known NCCL bug (fixed in 2.29.2)",
	.cause = "NCCL 2.24.3-2.29.1 can find no algorithm/protocol for an AllReduce on ncclFloat8e4m3 even when "
		"NCCL_ALGO/NCCL_PROTO are not restricted",
	.fix = "upgrade NCCL to 2.29.2 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"unset NCCL_ALGO NCCL_PROTO   # if set, they narrow the choice further",
	.source = "https://github.com/NVIDIA/nccl/commit/ebd1e929285881cb4df02c3459588a2e12b2d8c0",
},
{
	/* NVIDIA's cuBLASMp troubleshooting page (Known Issues): "Due to a NCCL bug in 2.30.4, NCCL
	 * does not initialize its internal RMA signal buffers until the first
	 * ncclPutSignal/ncclWaitSignal operation. When using CUDA Graphs, users must run at least one
	 * ... operation before starting a CUDA Graph capture ... This issue is fixed in NCCL 2.30.7." */
	.id = "nccl.known_bug.rma_graph_2304",
	.from = 23004, .to = 23007, .fixed_in = "2.30.7",
	.symptom = "nccl.cuda.failure", .needs = KB_NEED_CUDAGRAPH | KB_MEDIUM, .version_required = 1,
	.title = "a CUDA failure under CUDA graph capture with NCCL 2.30.4: NCCL sets up its RMA signal buffers lazily (fixed in 2.30.7)",
	.cause = "NCCL 2.30.4 sets up its internal RMA signal buffers only on the first ncclPutSignal/ncclWaitSignal; "
		"NVIDIA documents that with CUDA graphs (cuBLASMp) such an operation must run once before the "
		"capture starts",
	.fix = "upgrade NCCL to 2.30.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"run the operation once eagerly before capturing the graph   # NVIDIA's workaround on 2.30.4",
	.source = "https://docs.nvidia.com/cuda/cuest/troubleshooting/index.html",
},
{
	/* NCCL 2.15.5 release notes (its release commit): "Workaround hang on H100 with Ring/LL128 on
	 * 2 GPUs." */
	.id = "nccl.known_bug.hopper_ll128_2155",
	.from = 0, .to = 21505, .fixed_in = "2.15.5",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_HOPPER | KB_MEDIUM, .version_required = 1,
	.title = "a hang on H100 with NCCL before 2.15.5: Ring/LL128 between 2 GPUs can hang (worked around in 2.15.5)",
	.cause = "NCCL before 2.15.5 can hang on H100 when two GPUs run Ring with the LL128 protocol; 2.15.5 "
		"works around it",
	.fix = "upgrade NCCL to 2.15.5 or later (torch 2.0+ cu118 wheels bring 2.14.3: pip install -U nvidia-nccl-cu11 / -cu12)\n"
		"export NCCL_PROTO=^LL128   # meanwhile, to test it: if the hang goes away, LL128 is where it is",
	.source = "https://github.com/NVIDIA/nccl/commit/cb111f764a6d46370f24f75101d6b219bb2dda54",
},
{
	/* NCCL 2.16.2 release notes (its release commit): "Make service thread polling resistant to
	 * EINTR"; before, proxy.cc's service thread returned on "[Proxy Service] Poll failed" (the
	 * service thread and the message date from 2.12.7, read in its source) */
	.id = "nccl.known_bug.proxy_poll_eintr_2162",
	.from = 21207, .to = 21602, .fixed_in = "2.16.2",
	.symptom = "nccl.proxy.poll_failed", .version_required = 1,
	.title = "a known NCCL bug before 2.16.2: a signal during poll() stops the proxy service thread and the ranks hang (fixed in 2.16.2)",
	.cause = "NCCL 2.12.7-2.16.1 end the proxy service thread when poll() is interrupted by a signal (EINTR), "
		"so the process's ranks wait for proxy replies that never come",
	.fix = "upgrade NCCL to 2.16.2 or later (torch 2.0+ wheels)\n"
		"look for what signals the ranks (profilers and samplers, timers, a launcher's health checks)   # meanwhile",
	.source = "https://github.com/NVIDIA/nccl/commit/28189e2df85885b78bf20384cefc3cedab023bf5",
},
{
	/* NCCL 2.29.2 release notes (its release commit): "Fixes segfault in ncclGin initialization that
	 * can happen if ncclGinIbGdaki.devices() fails after init() succeeds. (Github PR #1881)"; GIN
	 * came with 2.28.7, whose ncclNetPluginInit (plugin/net.cc) then calls init() through the
	 * placeholder pointer -1 (read in its source) */
	.id = "nccl.known_bug.gin_init_2287",
	.from = 22807, .to = 22902, .fixed_in = "2.29.2",
	.symptom = "sys.segfault", .needs = KB_NEED_NET_INIT | KB_MEDIUM, .version_required = 1,
	.title = "a crash in NCCL's network plugin init with NCCL 2.28.7/2.28.9: a known GIN initialisation segfault (fixed in 2.29.2)",
	.cause = "NCCL 2.28.7 and 2.28.9 crash in ncclNetPluginInit when the GPU-initiated networking (GIN) probe "
		"finds the IB GDAKI library usable but no device for it, and calls through an unset pointer",
	.fix = "upgrade NCCL to 2.29.2 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.source = "https://github.com/NVIDIA/nccl/commit/ebd1e929285881cb4df02c3459588a2e12b2d8c0",
},
{
	/* NCCL 2.30.7 release notes (github.com/NVIDIA/nccl/releases): "Fixes issue when receiving an
	 * external TCP request causes the proxy thread's ncclProxyService to hang (Github PR #1834)".
	 * The proxy service thread came with 2.12.7. */
	.id = "nccl.known_bug.proxy_stranger_2307",
	.from = 21207, .to = 23007, .fixed_in = "2.30.7",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_SCAN | KB_MEDIUM, .version_required = 1,
	.title = "a hang while a port scan or health check runs, with NCCL before 2.30.7: an external TCP connection can hang NCCL's proxy service (fixed in 2.30.7)",
	.cause = "NCCL's proxy service thread listens on a TCP port; before 2.30.7 a connection from anything other "
		"than a rank (a port scanner, a security or health check) could hang it, and the ranks of that "
		"process with it",
	.fix = "upgrade NCCL to 2.30.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"exclude the job's hosts or port range from the scanner while jobs run (NCCL listens on ephemeral ports: sysctl net.ipv4.ip_local_port_range)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.30.7-1",
},
{
	/* NCCL 2.29.2 release notes: "Fixes a hang on GB200/300 + CX8 when the user disables GDR."
	 * ConnectX-8 (DirectNIC) support came with 2.27.6. */
	.id = "nccl.known_bug.cx8_gdr_off_2292",
	.from = 22706, .to = 22902, .fixed_in = "2.29.2",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_ARM | KB_NEED_GDR_OFF | KB_MEDIUM, .version_required = 1,
	.title = "a hang on GB200/GB300 with GPUDirect RDMA turned off and NCCL 2.27.6-2.29.1: a known hang with ConnectX-8 (fixed in 2.29.2)",
	.cause = "on GB200/GB300 with ConnectX-8 NICs, NCCL before 2.29.2 can hang when the user disables GPUDirect "
		"RDMA (NCCL_NET_GDR_LEVEL=LOC)",
	.fix = "upgrade NCCL to 2.29.2 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"unset NCCL_NET_GDR_LEVEL   # meanwhile: keep GPUDirect RDMA on, if it was turned off only as a test",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.29.2-1",
},
{
	/* NCCL 2.31.2 release notes, Known Issues: "B40 symmetric TMA kernels: On B40 GPUs, TMA-based
	 * symmetric kernels can exceed available shared memory and fail with an illegal memory access.
	 * Set NCCL_SYM_TMA_ENABLE=0"; 2.32.3: "Fixes B40 TMA symmetric kernels crash due to
	 * insufficient shared memory." 2.31.2 turned TMA kernels on by default on Blackwell. */
	.id = "nccl.known_bug.b40_tma_2312",
	.from = 23102, .to = 23203, .fixed_in = "2.32.3",
	.symptom = "cuda.illegal_access", .needs = KB_NEED_B40, .version_required = 1,
	.title = "an illegal memory access on B40 GPUs with NCCL 2.31: a known failure of the TMA symmetric kernels (fixed in 2.32.3)",
	.cause = "NCCL 2.31 enables TMA-based symmetric kernels on Blackwell by default, and on B40 GPUs they can "
		"need more shared memory than the GPU has, which ends in an illegal memory access",
	.fix = "export NCCL_SYM_TMA_ENABLE=0   # the release notes' workaround\n"
		"upgrade NCCL to 2.32.3 or later (pip install -U nvidia-nccl-cu13)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.31.2-1",
},
{
	/* NCCL 2.31.2 and 2.32.3 release notes, Known Issues: "B100 PCIe MLoPart: Multi-rank-per-GPU
	 * workloads using MPS MLoPart on B100 PCIe systems can fail during memory allocation with CUDA
	 * error 101 (invalid device ordinal). Set NCCL_CUMEM_ENABLE=0 as a workaround." MPS with
	 * MLOPart came with 2.30.7; no release names a fix yet. */
	.id = "nccl.known_bug.mlopart_b100",
	.from = 23007, .to = 0, .fixed_in = NULL,
	.symptom = "cuda.invalid_ordinal", .needs = KB_NEED_MLOPART, .version_required = 1,
	.title = "'invalid device ordinal' with MPS MLOPart and NCCL 2.30.7+: a known allocation failure of several ranks per GPU on B100 PCIe (NCCL_CUMEM_ENABLE=0 avoids it)",
	.cause = "NCCL documents that several ranks per GPU under MPS with MLOPart on B100 PCIe systems can fail "
		"while allocating memory with CUDA error 101 (invalid device ordinal); not fixed in a release yet",
	.fix = "export NCCL_CUMEM_ENABLE=0   # the release notes' workaround",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.32.3-1",
},
{
	/* NCCL 2.32.3 release notes: "Fixes PAT connection-setup deadlocks when runtime connection is
	 * disabled and nodes have uneven local-rank counts. (Github Issue #2385)". PAT came with
	 * 2.23.4. */
	.id = "nccl.known_bug.pat_connect_2323",
	.from = 22304, .to = 23203, .fixed_in = "2.32.3",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_NO_RUNTIME_CONNECT | KB_MEDIUM, .version_required = 1,
	.title = "a hang at connection set-up with NCCL_RUNTIME_CONNECT=0 and NCCL 2.23.4-2.32.2: a known PAT deadlock when nodes run different numbers of ranks (fixed in 2.32.3)",
	.cause = "with runtime connection turned off NCCL connects every algorithm up front; before 2.32.3 the PAT "
		"connection set-up could deadlock when nodes have different numbers of local ranks",
	.fix = "unset NCCL_RUNTIME_CONNECT   # meanwhile: connect on first use, the default\n"
		"upgrade NCCL to 2.32.3 or later (pip install -U nvidia-nccl-cu13)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.32.3-1",
},
{
	/* NVIDIA/nccl#957 ("NCCL 2.18.3: Socket recv failed while polling for opId=... / Cuda failure
	 * 'invalid argument'"), the maintainer: the first cudaMemcpy that retrieves the peer address
	 * "should not be an async operation"; fixed by 43654587 ("Fix cudaMemcpyAsync bug ... Fixes
	 * #957"), released in 2.18.6 (torch 2.1.1's PR #111677 "Update NCCL to 2.18.6 for upstream
	 * bugfix") and 2.19.3; the async copy dates from 2.18.1 (read in transport.cc). 2.19.1 has it
	 * too; the row stops at 2.18.6 to keep one range. */
	.id = "nccl.known_bug.p2p_setup_copy_2181",
	.from = 21801, .to = 21806, .fixed_in = "2.18.6",
	.symptom = "nccl.cuda.failure", .needs = KB_NEED_TRANSPORT | KB_MEDIUM, .version_required = 1,
	.title = "a CUDA failure in transport.cc with NCCL 2.18.1-2.18.5: a known race in connection set-up (fixed in 2.18.6 and 2.19.3)",
	.cause = "NCCL 2.18.1-2.18.5 (and 2.19.1) read a peer's device address with an asynchronous copy and used "
		"it before the copy completed, so connection set-up could fail with a CUDA error such as 'invalid "
		"argument'",
	.fix = "upgrade NCCL to 2.18.6, or 2.19.3 or later (pip install -U nvidia-nccl-cu12, or torch 2.1.1+)",
	.source = "https://github.com/NVIDIA/nccl/commit/4365458757e4107ecbf629b2fd6e0e19a5d237c2",
},
{
	/* NVIDIA/nccl#2003 ("CE collectives fail if they are run on default cuda stream":
	 * cudaMemcpyBatchAsync refuses the default stream, torch reports 'unhandled cuda error'); the
	 * maintainer: fixed in 2.29.7, whose release notes say "Fall back to cudaMemcpyAsync API when
	 * null/default stream is used for CE-based collective operations"; workaround
	 * NCCL_SYM_CE_THRESHOLD=1000000000000 (the maintainers). CE collectives came with 2.28.3. */
	.id = "nccl.known_bug.ce_default_stream_2283",
	.from = 22803, .to = 22907, .fixed_in = "2.29.7",
	.symptom = "nccl.cuda.failure", .needs = KB_NEED_CE_COLL | KB_MEDIUM, .version_required = 1,
	.title = "a CUDA failure in a copy-engine collective with NCCL 2.28.3-2.29.3: CE collectives on the default CUDA stream fail (fixed in 2.29.7)",
	.cause = "NCCL's copy-engine collectives (symmetric memory, 2.28.3+) use cudaMemcpyBatchAsync, which refuses "
		"the default (null) stream; torch runs collectives on it for async_op=False, and NCCL before 2.29.7 "
		"does not fall back",
	.fix = "upgrade NCCL to 2.29.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"export NCCL_SYM_CE_THRESHOLD=1000000000000   # meanwhile: the maintainers' workaround, no CE collectives",
	.source = "https://github.com/NVIDIA/nccl/issues/2003",
},
{
	/* NCCL 2.30.3 release notes (github.com/NVIDIA/nccl/releases): "Fixes deadlock and
	 * use-after-free in the inspector plugin (Github Issue #2000)". The Inspector plugin came with
	 * 2.28.3 (NCCL_PROFILER_PLUGIN, NCCL_INSPECTOR_ENABLE). */
	.id = "nccl.known_bug.inspector_2283",
	.from = 22803, .to = 23003, .fixed_in = "2.30.3",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_INSPECTOR | KB_MEDIUM, .version_required = 1,
	.title = "a hang with NCCL's Inspector profiler plugin and NCCL 2.28.3-2.29.7: a known deadlock in the plugin (fixed in 2.30.3)",
	.cause = "the Inspector profiler plugin shipped with NCCL 2.28.3-2.29.7 can deadlock (and use freed memory); "
		"with it loaded, the ranks hang although the network is fine",
	.fix = "unset NCCL_INSPECTOR_ENABLE NCCL_PROFILER_PLUGIN   # to test it: if the hang goes away, the plugin is where it is\n"
		"upgrade NCCL to 2.30.3 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.30.3-1",
},
};

const size_t explain_nknown_bugs = sizeof(explain_known_bugs) / sizeof(explain_known_bugs[0]);

const struct explain_sig *explain_sig_find(const char *id)
{
	for (size_t i = 0; i < explain_nsigs; i++)
		if (!strcmp(explain_sigs[i].id, id))
			return &explain_sigs[i];
	return NULL;
}
