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
	/* transport/net_socket.cc: NCCL_SOCKET_NTHREADS above 16, or NCCL_SOCKET_NTHREADS x
	 * NCCL_NSOCKS_PERTHREAD above 64 sockets per connection, is lowered and NCCL goes on */
	.id = "nccl.socket.nsocks_clamped",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_BENIGN,
	.anchors = { "NCCL_SOCKET_NTHREADS is greater than the maximum allowed",
		     "the total number of sockets is greater than the maximum allowed" },
	.title = "NCCL lowered NCCL_SOCKET_NTHREADS / NCCL_NSOCKS_PERTHREAD to its maximum and went on",
	.cause = "the socket transport allows at most 16 threads and 64 sockets per connection (threads times "
		"sockets per thread); a larger setting is clamped, which fails nothing",
	.fix = "export NCCL_SOCKET_NTHREADS=4 NCCL_NSOCKS_PERTHREAD=4   # threads <= 16 and threads x sockets <= 64; unset both to let NCCL choose",
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
	/* misc/socket.cc (2.7: "Net : Socket creation failed : %s"): socket() itself failed; an
	 * unsupported family is nccl.socket.family, an exhausted descriptor limit sys.too_many_files */
	.id = "nccl.socket.create",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_VARIANT_CONF,
	/* ipcsocket.cc: the Unix datagram socket of the proxy's cuMem handle exchange */
	.anchors = { "Socket creation failed", "UDS: Socket creation error" },
	.unless = "Address family not supported",
	.title = "NCCL could not create a socket",
	.cause = "socket() failed in this process; the error after the colon says why",
	.fix = "ulimit -n; cat /proc/sys/fs/file-nr   # descriptors: the per-process limit and the system's",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Too many open files",
			.title = "NCCL could not create a socket: the process ran out of file descriptors",
			.cause = "every NCCL connection (bootstrap, proxy, socket transport: several sockets per peer) "
				"takes a descriptor; the nofile limit of the process (EMFILE) or of the system (ENFILE) is used up",
			.fix = "ulimit -n 1048576   # in the launching shell (or LimitNOFILE in the service unit, --ulimit nofile=1048576 for docker)",
		},
		{
			.when = "ermission denied",
			.title = "NCCL may not create a socket here (Permission denied)",
			.cause = "a security policy of the sandbox forbids the process to create this kind of socket: a "
				"seccomp profile, SELinux or AppArmor in the container",
			.fix = "docker run --security-opt seccomp=unconfined ...   # to test: then write a profile that allows socket()\n"
				"ausearch -m avc -ts recent   # SELinux denials, on the host",
		},
		{ .when = NULL },
	},
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
	/* bootstrap.cc (2.29.2+): only ncclCommGetUniqueId (growing a communicator, ncclCommGrow) refuses
	 * NCCL_COMM_ID; plain ncclGetUniqueId, which torch calls, takes NCCL_COMM_ID as the root address
	 * without a WARN (then bind/subnet trouble: nccl.bootstrap.comm_id_subnet and the bind rows) */
	.id = "nccl.comm_id.grow",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "ncclCommGetUniqueId should not be called when NCCL_COMM_ID is set" },
	.title = "NCCL cannot grow a communicator while NCCL_COMM_ID is set",
	.cause = "ncclCommGetUniqueId (the id that new ranks use to join an existing communicator) makes its own "
		"bootstrap address; NCCL_COMM_ID fixes one for every id, so NCCL refuses the call (ncclInvalidUsage)",
	.fix = "unset NCCL_COMM_ID   # in jobs that grow communicators; ids then travel through the application",
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
	/* "mismatch in rank count from procs 6 : 3" (to 2.18), "mismatch in info from procs, nranks
	 * %d vs %d, nroots %d vs %d, iroot %d vs %d, offset %d vs %d" (2.19+, scalable init): the
	 * line's numbers are in the title, since equal nranks point at the roots, not the sizes */
	.anchors = { "Bootstrap Root : mismatch in" },
	.cap_after = "Bootstrap Root : mismatch in ",
	.title = "processes that met at NCCL's bootstrap root disagree on the communicator's shape ({})",
	.cause = "two processes joined the same unique id with different set-ups. Different nranks (the usual "
		"case): WORLD_SIZE, --nnodes or --nproc-per-node differ between nodes, and the others hang. Equal "
		"nranks with different nroots/iroot/offset: the ranks initialised through different NCCL calls "
		"(ncclCommInitRankScalable with another number of roots) or two jobs meet at one unique id or "
		"master port (a stale process of an earlier run)",
	.fix = "use the same --nnodes and --nproc-per-node (torchrun) or num_nodes/devices (Lightning) on every node\n"
		"ps -ef | grep -e torchrun -e python   # on every node: no process of an earlier run left, and every rank runs the same code and NCCL",
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
	/* init.cc commAlloc (2.12+) checks the same pair again: "rank %d exceeds ndev=%d", "invalid
	 * device count (%d) requested" (ndev is nranks there) */
	.anchors = { "Invalid rank requested", "exceeds ndev=", "invalid device count (" },
	.cap_after = "Invalid rank requested : ",
	.title = "NCCL was given a rank outside the world ({})",
	.cause = "RANK >= WORLD_SIZE or WORLD_SIZE < 1: the launcher's rank/world arithmetic is wrong",
	.fix = "check RANK, WORLD_SIZE, NODE_RANK and --nproc-per-node on every node: RANK = NODE_RANK * nproc + LOCAL_RANK < WORLD_SIZE",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "exceeds ndev=",
		  .title = "NCCL was given a rank not below the world size",
		  .cause = "a process passed NCCL a rank >= nranks: RANK >= WORLD_SIZE, the launcher's rank/world arithmetic is wrong",
		  .fix = "check RANK, WORLD_SIZE, NODE_RANK and --nproc-per-node on every node: RANK = NODE_RANK * nproc + LOCAL_RANK < WORLD_SIZE" },
		{ .when = "invalid device count (",
		  .title = "NCCL was asked for a communicator of fewer than one rank",
		  .cause = "nranks (WORLD_SIZE, or a subgroup's size) reached NCCL as 0 or negative: an unset or mis-parsed WORLD_SIZE",
		  .fix = "echo $WORLD_SIZE   # on every node: a positive number, the same everywhere (torchrun sets it from --nnodes x --nproc-per-node)" },
		{ .when = NULL },
	},
},
{
	/* init.cc ncclCommInitAll, the one call that opens a communicator over several GPUs of one
	 * process: ndev < 0 (ndev < 1 up to 2.4) fails before any GPU is touched. Every other entry
	 * point checks nranks with "Invalid rank requested" (nccl.rank.invalid). */
	.id = "nccl.init_all.ndev",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Invalid device count requested :" },
	.cap_after = "Invalid device count requested : ",
	.title = "ncclCommInitAll was asked for {} GPUs: the program's GPU count is wrong",
	.cause = "the single-process path (ncclCommInitAll: nccl-tests without MPI, cupy's NcclCommunicator.initAll, "
		"an application driving all GPUs from one process) got a negative GPU count (before NCCL 2.5 also 0); "
		"the count comes from the program, typically from a device query that failed or found no GPU",
	.fix = "echo $CUDA_VISIBLE_DEVICES; nvidia-smi -L   # the GPUs this process can see: none or an empty list gives a count below 1\n"
		"python -c 'import torch; print(torch.cuda.device_count())'   # what CUDA reports; then check the count the program passes (nccl-tests: -g <GPUs per process>)",
},
/* ---- NCCL: connections ------------------------------------------------------------------- */
{
	.id = "nccl.connect.refused",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	/* 2.12-2.20 also "socketStartConnect: Connect to X failed : Connection refused", and
	 * socketPollConnect's "returned 111(Connection refused)" */
	.anchors = { "Connection refused, exceeded", "exceeded retries (", "failed : Connection refused",
		     "(Connection refused)", "failed with error Connection refused" },
	/* a verbs call failing with that errno is RDMA's, a Unix socket's is nccl.uds.exchange */
	.unless = "ibv_" SIG_UNTIL "UDS: ",
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
	/* a verbs call failing with that errno is RDMA's; a send/recv on an established
	 * connection is nccl.socket.io_failed */
	.unless = "ibv_" SIG_UNTIL "Call to recv" SIG_UNTIL "Call to send" SIG_UNTIL "ProgressOpt",
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
	/* a verbs call failing with that errno is RDMA's; a send/recv on an established
	 * connection is nccl.socket.io_failed */
	.unless = "ibv_" SIG_UNTIL "Call to recv" SIG_UNTIL "Call to send" SIG_UNTIL "ProgressOpt",
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
	/* misc/socket.cc, os/linux.cc, include/socket.h: every release's message for a connect()
	 * that failed ("Connect to %s failed : %s", "%s: connect to %s failed : %s", "socketPollConnect
	 * to %s failed with error %s", "... returned %s, exceeded error retry count"); the common
	 * errnos have their own rows above, which rank first */
	.id = "nccl.connect.failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_WARN_ONLY | SIG_VARIANT_CONF,
	.anchors = { "Connect to ", ": connect to ", "PollConnect to " },
	.unless = "ibv_" SIG_UNTIL "UDS" SIG_UNTIL "Connection refused" SIG_UNTIL "Connection timed out"
		SIG_UNTIL "No route to host" SIG_UNTIL "Network is unreachable" SIG_UNTIL "Cannot assign requested address"
		SIG_UNTIL "Software caused connection abort",	/* the rows above */
	.cap_after = "onnect to ",
	.cap_stop = " ,",
	.title = "NCCL could not open a TCP connection to {}",
	.cause = "a bootstrap or socket-transport connection to the address a peer advertised failed; the error "
		"text on the line says why (a refusal, a timeout or a missing route have their own findings)",
	.fix = EXPLAIN_FIX_IFNAME,
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Operation not permitted",
			.title = "this node's own packet filter refused NCCL's connection (Operation not permitted)",
			.cause = "connect() returns EPERM when a local rule denies the outgoing connection: an iptables/"
				"nftables OUTPUT rule, a cgroup BPF program (some Kubernetes network policies) or SELinux",
			.fix = "sudo iptables -S OUTPUT; sudo nft list ruleset | grep -i -B2 -A2 reject   # on this node: allow TCP to the peers' NCCL ports\n"
				"sudo sysctl -w net.ipv4.ip_local_port_range='50000 51000'   # a fixed range is easier to allow",
		},
		{
			.when = "ermission denied",
			.title = "this node's own security policy refused NCCL's connection (Permission denied)",
			.cause = "connect() returns EACCES when a local rule denies it: SELinux or AppArmor, or a local "
				"firewall rule",
			.fix = "ausearch -m avc -ts recent; sudo iptables -S OUTPUT   # on this node: the rule that denies the connection",
		},
		{ .when = NULL },
	},
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
	/* torch's store client (SocketImpl, DistNetworkError) and Gloo's pair (writev) print it too */
	.unless = "store->get" SIG_UNTIL "SocketImpl(" SIG_UNTIL "DistNetworkError" SIG_UNTIL "writev [",
	.title = "an NCCL socket was reset by its peer",
	.cause = "the peer process died mid-transfer or the network dropped the connection (MTU black hole, idle "
		"timeout of a NAT or load balancer)",
	.fix = "find the rank that died first and fix its error; if none died, check the path MTU: ping -M do -s 8972 <peer>\n"
		"if the resets keep coming from the same node: exclude that node (srun --exclude=<node>) and check its network",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* misc/socket.cc socketProgressOpt (2.7: "Net : Call to recv from %s failed : %s",
	 * os/linux.cc from 2.29): send()/recv() on an established connection failed with an errno
	 * other than a clean close; ECONNRESET is nccl.socket.reset */
	.id = "nccl.socket.io_failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Call to recv from ", "ProgressOpt: Call to ", "Call to recv failed" },
	.unless = "Connection reset by peer",
	.cap_after = "Call to ",
	.cap_stop = SIG_UNTIL " failed",
	.title = "an NCCL socket call failed mid-connection: {}",
	.cause = "a connection that was up (bootstrap, proxy or socket transport) broke: the peer process or its "
		"node went away, or the network between the two nodes failed",
	.fix = "find the rank that failed first (the earliest error of every rank's log) and fix that error\n"
		"ping -c 5 <the peer's address>   # from this node: is the peer's node still reachable",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Connection timed out",
			.title = "an NCCL connection timed out mid-transfer: the peer's node stopped answering",
			.cause = "the kernel gave up retransmitting to the peer (ETIMEDOUT): its node hung, rebooted or "
				"lost its network, or a link, switch or NAT between the nodes dropped the connection",
			.fix = "ping -c 5 <the peer's address>; ssh <the peer's node> 'uptime; dmesg | tail'   # is that node up, and what did its kernel say\n"
				"find the rank that failed first (the earliest error of every rank's log)",
		},
		{
			.when = "No route to host",
			.title = "an NCCL connection lost its route to the peer mid-transfer (No route to host)",
			.cause = "the peer's address stopped answering ARP or an ICMP host-unreachable came back: the "
				"peer's node or its interface went down",
			.fix = "ping -c 5 <the peer's address>; ip -s link   # on both nodes: is the interface up and error-free",
		},
		{ .when = NULL },
	},
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
	/* 2.18-2.26: "socketFinalizeAccept: wrong magic %lx != %lx", the same drop */
	.anchors = { "Socket magic mismatch from", "socket magic mismatch", "socketFinalizeAccept: wrong magic" },
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
	.variants = (const struct explain_sig_variant[]){
		{
			/* before 2.32 the magic is a constant of the build or the unique id's: no setting */
			.when = "wrong magic",
			.title = "NCCL dropped a connection that does not belong to this job (wrong magic)",
			.cause = "something that is not a rank of this communicator connected to an NCCL port and sent "
				"another magic: a port scanner or health check, or a process of another job or of an "
				"earlier unique id reaching this address; NCCL closes it and keeps listening, harmless "
				"alone, a hang when the real peer is the one dropped",
			.fix = "ss -tnp | grep <this rank's NCCL ports>   # which process connects to them, if it repeats",
		},
		{ .when = NULL },
	},
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
	.anchors = { "[Proxy Service] Poll failed", "[Proxy Service UDS] Poll failed" },
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
	/* misc/ipcsocket.cc, proxy.cc (2.19+): with cuMem, ranks of one node pass memory handles as
	 * file descriptors over abstract Unix sockets ("/tmp/nccl-socket-<rank>-<hash>"), whose names
	 * exist per network namespace (unix(7)); sendmsg() to a name nobody bound there is refused */
	.id = "nccl.uds.exchange",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_VARIANT_CONF,
	.anchors = { "UDS: Sending data over socket", "UDS: Receiving data over socket",
		     "ncclProxyCallBlockingUDS call to", "ncclProxyClientGetFd call to",
		     "ncclProxyClientQueryFdBlocking call to", "ncclProxyClientConvertFd call to" },
	.title = "NCCL could not pass a cuMem memory handle to another process of this node over its Unix socket",
	.cause = "ranks of one node exchange GPU memory handles (NCCL's cuMem mode, 2.19+) as file descriptors "
		"over abstract Unix sockets; the exchange failed: the other process's socket is not reachable from "
		"this one (separate containers or pods, each with its own network namespace) or that process "
		"exited; the UDS line and the error before it say which",
	.fix = "docker run --network=host --ipc=host ...   # the ranks of a node must share the network namespace (Kubernetes: one pod, or hostNetwork: true)\n"
		"export NCCL_CUMEM_ENABLE=0   # to test: legacy CUDA IPC passes no descriptors",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Connection refused",
			.title = "NCCL's Unix socket for cuMem handles of another process was not there (Connection refused)",
			.cause = "no socket of that name exists in this network namespace: the other rank of this node runs "
				"in another container or pod (its own network namespace), or it has exited",
			.fix = "docker run --network=host --ipc=host ...   # the ranks of a node must share the network namespace (Kubernetes: one pod, or hostNetwork: true)\n"
				"export NCCL_CUMEM_ENABLE=0   # if they cannot: legacy CUDA IPC passes no descriptors",
		},
		{
			/* before 2.23 the errno is printed as a number: 111 is ECONNREFUSED */
			.when = "failed : 111",
			.title = "NCCL's Unix socket for cuMem handles of another process was not there (errno 111, connection refused)",
			.cause = "no socket of that name exists in this network namespace: the other rank of this node runs "
				"in another container or pod (its own network namespace), or it has exited",
			.fix = "docker run --network=host --ipc=host ...   # the ranks of a node must share the network namespace (Kubernetes: one pod, or hostNetwork: true)\n"
				"export NCCL_CUMEM_ENABLE=0   # if they cannot: legacy CUDA IPC passes no descriptors",
		},
		{
			.when = "Too many open files",
			.title = "NCCL could not pass a cuMem memory handle: the process ran out of file descriptors",
			.cause = "every handle exchanged between the ranks of a node is a file descriptor; the nofile limit of "
				"the process is used up",
			.fix = "ulimit -n 1048576   # in the launching shell (or LimitNOFILE in the service unit, --ulimit nofile=1048576 for docker)",
		},
		{ .when = NULL },
	},
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
{
	/* proxy.cc: a rank's connection to the proxy thread of its node (its own or a local peer's)
	 * failed; NVIDIA/nccl#957: after a "Cuda failure" of the proxy's operation */
	.id = "nccl.proxy.peer_lost",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	/* "Could not receive type from localRank" is nccl.proxy.local_peer_gone's: it names the rank */
	.anchors = { "Socket recv failed while polling for opId" },
	.title = "the connection between a rank and an NCCL proxy thread of its node broke",
	.cause = "a follow-on error: the proxy thread's operation failed first, or the process at the other end "
		"of the connection died or aborted; the first NCCL WARN of this node's ranks is the cause",
	.fix = "read the first NCCL WARN of every rank on this node (often a Cuda failure or a socket error just before)",
	.rerun = RERUN_NCCL,
},
{
	/* proxy.cc: cudaSetDevice() failed in NCCL's proxy threads, which print no CUDA error */
	.id = "nccl.proxy.set_device",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	.anchors = { "[Proxy Progress] Failed to set CUDA device", "[Proxy Service] Failed to set CUDA device",
		     "[Proxy Service UDS] Failed to set CUDA device" },
	.title = "an NCCL proxy thread could not select its GPU",
	.cause = "cudaSetDevice() failed in NCCL's helper thread: the CUDA context of the process is already "
		"broken (an earlier CUDA error, a GPU fault) or the process is shutting down",
	.fix = "read the first Cuda failure or CUDA error of this rank before this line\n"
		"nvidia-smi; dmesg | grep -i xid   # on {node}: a GPU fault",
},
{
	/* proxy.cc (2.18+): NCCL_CREATE_THREAD_CONTEXT=1 asks for a CUDA context per proxy thread;
	 * when the driver cannot give one NCCL goes on without it */
	.id = "nccl.proxy.thread_context",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Unable to create thread context due to old driver", "Failed to create CUDA context on device",
		     "Failed to set CUDA context on device" },
	.title = "NCCL_CREATE_THREAD_CONTEXT=1 is set but the proxy thread could not get its own CUDA context",
	.cause = "with NCCL_CREATE_THREAD_CONTEXT=1 NCCL creates a CUDA context for its proxy thread; the driver "
		"lacks the API (too old) or refused the context, and NCCL goes on with the process's context",
	.fix = "unset NCCL_CREATE_THREAD_CONTEXT   # the default; the setting only matters for debugging\n"
		"nvidia-smi   # the driver version, if the message names an old driver",
},
{
	/* proxy.cc: the proxy service thread lost the socket of a local rank that was not aborting:
	 * that process went away first */
	.id = "nccl.proxy.local_peer_gone",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_NCCL | SIG_SYMPTOM,
	.anchors = { "Could not receive type from localRank" },
	.cap_after = "from localRank ",
	.cap_stop = ",",
	.title = "NCCL's proxy lost its connection to local rank {}: that process on the same node went away",
	.cause = "each rank's proxy thread serves the other processes of its node over local sockets; the socket "
		"of that local rank failed or closed while NCCL was not aborting, so that process exited, crashed "
		"or was killed (the OOM killer, a launcher) before this one",
	.fix = "find the earliest error of the other ranks on this node (the local rank named in the title): its own log has the cause\n"
		"dmesg | grep -i -e 'killed process' -e oom   # on {node}: a rank killed for memory",
	.rerun = RERUN_NCCL,
	.check = EXPLAIN_CHECK_NODE,
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
	/* net_ib common.cc (net_ib.cc 2.23-2.28): ncclIbStatsCheckFatalCount once an async fatal event
	 * was counted on the device; p2p.cc (2.30+) "Got CQE with error" is followed by the completion
	 * error line that names the status */
	.id = "nccl.ib.fatal_followon",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET | SIG_SYMPTOM,
	.anchors = { "communicator encountered a fatal error (detected in", "NET/IB: Got CQE with error" },
	.title = "an IB connection on {node} stopped after an earlier error of the RDMA device",
	.cause = "a follow-on: NCCL stops the communicator once its HCA reported a fatal async event (port error, "
		"catastrophic error, queue pair in error) or a work completion failed; that event or completion line "
		"is the cause",
	.fix = "read the NET/IB async event or completion error line near this one (same rank): its status or event names the failure\n"
		"ibstat; ibqueryerrors   # on {node}: port state and error counters",
	.rerun = RERUN_NCCL,
},
{
	/* net_ib/p2p_resiliency.cc (2.30+, NCCL_IB_RESILIENCY_PORT_FAILOVER=1): a port of a fused
	 * (multi-port) NIC had a completion fail with retry-exceeded or flush; NCCL marks it failed and
	 * moves its queue pairs to the other ports. Two failed ports, or none left, end the connection. */
	.id = "nccl.ib.port_failover",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "marked as failed. Initiating recovery", "failed devices out of",
		     "The error is fatal (No functional devices left)" },
	.title = "a port of a multi-port NIC on {node} failed: NCCL's IB port failover took its traffic off it",
	.cause = "a transfer on that port exhausted its retries (or was flushed after such a failure): the link, "
		"cable, transceiver or switch port of that port, or the path to the peer, stopped answering; "
		"NCCL's port failover keeps the job on the remaining ports, slower, until the port is fixed",
	.fix = "ibstat; ibqueryerrors   # on {node}: which port is down or counts link-down and symbol errors; reseat or replace its cable or transceiver\n"
		"exclude {node} (srun --exclude={node}) if the port keeps failing",
	.rerun = RERUN_NCCL,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "failed devices out of",
			.title = "more than one port of a multi-port NIC on {node} failed: NCCL's port failover handles only one",
			.cause = "transfers failed on two or more ports of the same fused NIC; NCCL's port failover "
				"survives one failed port only, so the connection stops: a shared cause such as the switch, "
				"the peer node or the fabric is likely",
			.fix = "ibstat; ibqueryerrors   # on {node} and its peer: the state and error counters of every port\n"
				"read the peer's log: a peer that died fails every port at once",
		},
		{
			.when = "No functional devices left",
			.title = "every port of a multi-port NIC on {node} failed: no port is left to fail over to",
			.cause = "transfers failed on all ports of the fused NIC: the peer went away, or the node lost its "
				"network (switch, cabling, HCA)",
			.fix = "read the peer's log first: a peer that died fails every port at once\n"
				"ibstat; ibqueryerrors   # on {node}: the state and error counters of every port",
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
	/* statuses 4, 5, 10, 12 and 13 have rows of their own (local protection, flush, remote
	 * access, retry and RNR retry exceeded): one cause, one finding */
	.unless = "with error 5," SIG_UNTIL "status=5 " SIG_UNTIL "IBV_WC_WR_FLUSH_ERR"
		SIG_UNTIL "with error 4," SIG_UNTIL "status=4 " SIG_UNTIL "IBV_WC_LOC_PROT_ERR"
		SIG_UNTIL "with error 10," SIG_UNTIL "status=10 " SIG_UNTIL "IBV_WC_REM_ACCESS_ERR"
		SIG_UNTIL "with error 12," SIG_UNTIL "status=12 " SIG_UNTIL "IBV_WC_RETRY_EXC_ERR"
		SIG_UNTIL "with error 13," SIG_UNTIL "status=13 " SIG_UNTIL "IBV_WC_RNR_RETRY_EXC_ERR",
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
	 * NCCL opens a device and creates its queues with (ibv_modify_qp and ibv_reg_mr have rows).
	 * A failing destroy, dealloc, dereg or close comes after another error and is not the cause;
	 * "Call to <verb> skipped / not supported" is INFO, hence " failed". ibv_set_ece/query_ece
	 * failures come with a GID index that does not fit (NVIDIA/nccl#1657, NCCL_IB_GID_INDEX=0 in
	 * a container): the modify_qp error next to them is the one to explain. */
	.id = "nccl.ib.verbs_call",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Call to ibv_" },
	.also = " failed",
	.unless = "ibv_modify_qp" SIG_UNTIL "ibv_reg_" SIG_UNTIL "ibv_destroy_" SIG_UNTIL "ibv_dealloc_"
		SIG_UNTIL "ibv_dereg_" SIG_UNTIL "ibv_close_device" SIG_UNTIL "ibv_get_async_event"
		SIG_UNTIL "ibv_fork_init" SIG_UNTIL "_ece failed",
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
	/* misc/gdrwrap.cc: NCCL_GDRCOPY_ENABLE=1 (off by default) makes NCCL map its flags in GPU
	 * memory through GDRCopy (libgdrapi + the gdrdrv module): a missing library, one older than
	 * the symbols NCCL needs, or a pin/map the driver refuses (errno 22 on GPUs without GPUDirect
	 * RDMA, NVIDIA/gdrcopy#184; v2 pins on a gdrdrv older than 2.5, aws/aws-ofi-nccl#1354) */
	.id = "nccl.gdrcopy.failed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "libgdrapi", "pin_buffer", "gdr_map(", "gdr_unmap(", "gdr_get_info(", "_mapping(",
		     "gdr_close()", "sym failed on gdr_" },
	.also = "gdr",
	.unless = "NET/OFI",	/* aws-ofi-nccl's own GDRCopy use does not follow NCCL_GDRCOPY_ENABLE */
	.title = "GDRCopy failed inside NCCL on {node} (NCCL_GDRCOPY_ENABLE)",
	.cause = "GDRCopy is an optional optimisation NCCL uses only when NCCL_GDRCOPY_ENABLE=1: its gdrdrv kernel "
		"module could not pin or map the GPU buffer (a GPU without GPUDirect RDMA, a gdrdrv of another "
		"version than libgdrapi, or an unaligned or VMM buffer the driver refuses)",
	.fix = "unset NCCL_GDRCOPY_ENABLE   # NCCL's default: no GDRCopy, flags stay in host memory\n"
		"lsmod | grep gdrdrv; gdrcopy_sanity   # on {node}: the module must be loaded and the sanity test pass (the gdrcopy package's tests)",
	.rerun = RERUN_NCCL_ENV,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Failed to open",
			.title = "NCCL_GDRCOPY_ENABLE is set but GDRCopy's library (libgdrapi.so) is not installed on {node}",
			.cause = "NCCL dlopens libgdrapi.so when NCCL_GDRCOPY_ENABLE=1; without it NCCL goes on without GDRCopy",
			.fix = "unset NCCL_GDRCOPY_ENABLE   # NCCL's default; GDRCopy only shortens some latencies\n"
				"apt-get install gdrcopy libgdrapi   # or install GDRCopy (library and gdrdrv module) on every node and put its lib directory on LD_LIBRARY_PATH",
		},
		{
			.when = "GDRCopy >= 2.5 required",
			.title = "the GDRCopy on {node} is older than 2.5, which this NCCL needs for the pin it asks for",
			.cause = "NCCL asked for gdr_pin_buffer_v2 (a mapping forced over PCIe, which it asks for on C2C-coherent "
				"systems such as Grace Hopper and Grace Blackwell) and the libgdrapi it loaded is older than 2.5",
			.fix = "install GDRCopy 2.5 or newer (library and gdrdrv module of the same version) on every node\n"
				"unset NCCL_GDRCOPY_ENABLE   # or run without GDRCopy",
		},
		{
			.when = "sym failed on",
			.title = "the libgdrapi.so on {node} lacks a function NCCL needs: GDRCopy is too old",
			.cause = "NCCL needs GDRCopy 2.1 or newer; an older libgdrapi misses symbols and NCCL goes on without GDRCopy",
			.fix = "install GDRCopy 2.1 or newer (library and gdrdrv module of the same version)\n"
				"unset NCCL_GDRCOPY_ENABLE   # or run without GDRCopy",
		},
		{ .when = NULL },
	},
},
{
	/* transport/net.cc and coll_net.cc, 2.9.6-2.30.6: with NCCL_GDRCOPY_FLUSH_ENABLE=1 the proxy
	 * flushes GPUDirect RDMA writes by reading GPU memory through GDRCopy, an x86-only inline
	 * read; elsewhere it WARNs and fails (ncclInternalError). NCCL commit a12d73a8 (first in
	 * 2.30.7) added the aarch64 path. */
	.id = "nccl.gdrcopy.flush_arch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "GDR Flush only supported on x86_64" },
	.title = "NCCL_GDRCOPY_FLUSH_ENABLE on a host that is not x86_64: this NCCL has no GDRCopy flush there",
	.cause = "with NCCL_GDRCOPY_FLUSH_ENABLE=1 NCCL flushes GPUDirect RDMA receives by reading GPU memory "
		"through GDRCopy; before 2.30.7 only x86_64 had that read, and on aarch64 (Grace: GH200, GB200) "
		"the network proxy fails with an internal error",
	.fix = "unset NCCL_GDRCOPY_FLUSH_ENABLE   # NCCL's default: the network plugin flushes\n"
		"upgrade NCCL to 2.30.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)",
	.rerun = RERUN_NCCL_ENV,
},
{
	/* net_ib/gin.cc (2.28+): GPU-initiated networking (the device API, e.g. DeepEP) registers GPU
	 * memory with the NIC itself: it needs nvidia-peermem or DMA-BUF and has no host fallback */
	.id = "nccl.gin.no_gdr",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "Unable to use GIN: Peermem is not supported" },
	.title = "NCCL's GPU-initiated networking (GIN) needs GPUDirect RDMA, and {node} has neither nvidia-peermem nor DMA-BUF",
	.cause = "GIN lets kernels drive the NIC, so the NIC must reach GPU memory directly; the peer-memory module is "
		"not loaded and the GPU driver reports no DMA-BUF support (an older kernel or driver)",
	.fix = "sudo modprobe nvidia-peermem; lsmod | grep nvidia_peermem   # on {node}\n"
		"uname -r; cat /proc/driver/nvidia/version   # DMA-BUF needs Linux 5.12+ and a recent driver (the open GPU kernel module)",
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
	/* net_ib (2.21-2.23 WARN): a fused NIC here has another number of ports than the peer's */
	.anchors = { "Detected mixed local Net device counts", "has a different number of devices=" },
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
	/* net.cc (2.21+): the GPUDirect TCPX/TCPXO receive-side unpack plugin of another version */
	.anchors = { "Failed to initialize NET plugin", "External network plugin", "NCCL_DEVICE_UNPACK plugin has incompatible version" },
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
	/* misc/profiler.cc (2.23-2.26): the profiler plugin's init returned an error; NCCL goes on */
	.id = "nccl.plugin.profiler",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Profiler init failed with error" },
	.title = "NCCL's profiler plugin failed to initialise: the job runs without it",
	.cause = "NCCL_PROFILER_PLUGIN (or a libnccl-profiler.so on the library path) names a profiler plugin "
		"whose init returned an error: its own configuration or dependencies are missing, or it was built "
		"for another NCCL; NCCL continues without profiling",
	.fix = "echo $NCCL_PROFILER_PLUGIN; ldconfig -p | grep libnccl-profiler   # which plugin was loaded\n"
		"unset NCCL_PROFILER_PLUGIN   # to run without it, or install the plugin release built for this NCCL",
},
{
	/* init.cc / transport.cc: a rank could not connect CollNet (SHARP), all ranks fall back */
	.id = "nccl.collnet.setup_failed",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Cannot initialize CollNet, using " },
	.title = "NCCL could not set up CollNet (in-network reduction such as SHARP) on every rank and uses the plain network",
	.cause = "NCCL_COLLNET_ENABLE=1 asks for in-network reductions through a CollNet plugin (the SHARP plugin "
		"of HPC-X / DOCA); at least one rank could not connect it (no plugin, no SHARP aggregation manager, "
		"SHARP resources exhausted), so the communicator runs without it, slower than expected",
	.fix = "ls $(ldconfig -p | grep -o '/[^ ]*libnccl-net[^ ]*') ; systemctl status sharp_am   # the CollNet plugin on every node, and the aggregation manager on the subnet manager host\n"
		"export NCCL_COLLNET_ENABLE=0   # if in-network reduction is not meant to be used",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,COLL",
},
{
	/* init.cc (2.30+): ranks count different numbers of CollNet devices; fatal unless
	 * NCCL_IGNORE_COLLNET_MISMATCH=1, and INFO lines "Rank %d has %d local CollNet devices" name them */
	.id = "nccl.collnet.device_mismatch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Detected mixed local CollNet device counts across ranks" },
	.title = "the nodes see different numbers of CollNet (SHARP) devices: NCCL stops the init",
	.cause = "with CollNet enabled every rank counts the devices its CollNet plugin offers; the counts differ "
		"between ranks (a NIC down or missing on some node, a different plugin or HCA set-up), and NCCL "
		"refuses to build CollNet on an uneven set",
	.fix = "ibv_devinfo | grep -e hca_id -e state   # on every node: the same HCAs, all PORT_ACTIVE (the INFO lines 'Rank N has M local CollNet devices' name the short ranks)\n"
		"export NCCL_IGNORE_COLLNET_MISMATCH=1   # NCCL's own advice, to continue on the uneven set; or NCCL_COLLNET_ENABLE=0 to run without CollNet",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
	.check = EXPLAIN_CHECK_NODE,
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
	/* misc/utils.cc's memory stack (2.13+): "Unrecoverable error detected: malloc(size=%llu)
	 * returned null." and abort() */
	.anchors = { "Failed to CUDA calloc", "Failed to CUDA malloc", "Failed to CUDA host alloc", "Failed to malloc ",
		     "Unrecoverable error detected: malloc(" },
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
		{ .when = "Unrecoverable error detected: malloc(",
		  .title = "NCCL could not allocate host memory and aborted the process",
		  .cause = "malloc failed inside NCCL's own memory pool and NCCL called abort(): the node or the container's "
			"memory limit is exhausted (other processes, data loader workers, a memory leak)",
		  .fix = "free -g; cat /sys/fs/cgroup/memory.max; dmesg | grep -i -e oom -e 'out of memory'   # on {node}" },
		{ .when = "Failed to malloc",
		  .title = "NCCL could not allocate host memory ({})",
		  .cause = "malloc failed inside NCCL: the node or the container's memory limit is exhausted (other "
			"processes, data loader workers, a memory leak)",
		  .fix = "free -g; cat /sys/fs/cgroup/memory.max; dmesg | grep -i -e oom -e 'out of memory'   # on {node}" },
		{ .when = NULL },
	},
},
{
	/* include/alloc.h: the cuMem paths of a libnccl compiled with a CUDA older than 11.3 (12.2 for
	 * host memory) are stubs that fail: reached when NCCL_CUMEM_ENABLE / NCCL_CUMEM_HOST_ENABLE
	 * force them on such a build */
	.id = "nccl.cumem.old_build",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "CUMEM not supported prior to CUDA 11.3", "CUMEM Host is not supported prior to CUDA 12.2" },
	.title = "NCCL was asked for cuMem memory but this libnccl was built with a CUDA too old for it",
	.cause = "cuMem allocations need a NCCL compiled with CUDA 11.3 or later (host memory: CUDA 12.2); this "
		"build has only stubs that fail, and NCCL_CUMEM_ENABLE=1 or NCCL_CUMEM_HOST_ENABLE=1 (environment or "
		"/etc/nccl.conf) forces them",
	.fix = "unset NCCL_CUMEM_ENABLE NCCL_CUMEM_HOST_ENABLE   # and remove them from /etc/nccl.conf: NCCL then uses cudaMalloc\n"
		"pip install -U nvidia-nccl-cu12   # or a NCCL built with a current CUDA ('NCCL version x+cudaY' names the CUDA of the build)",
},
{
	/* enqueue.cc (2.9-2.14), misc/strongstream.cc (2.15+): a collective captured into a CUDA graph
	 * on a NCCL built with CUDA < 11.3 or a driver older than R465 */
	.id = "nccl.cuda.graph_unsupported",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "required for NCCL's CUDA Graphs support", "NCCL cannot be captured in a graph if either",
		     "does not support this CUDA version for CUDA graph feature" },
	.title = "a NCCL collective was captured into a CUDA graph that this driver or NCCL build cannot support",
	.cause = "NCCL supports CUDA graph capture only when it was built with CUDA 11.3 or later and the NVIDIA "
		"driver is R465 or later; the capture (torch.cuda.graphs, torch.compile's cudagraphs mode, vLLM/SGLang "
		"decode graphs) failed with invalid usage",
	.fix = "nvidia-smi   # the driver version: R465 or later\n"
		"python -c 'import torch; print(torch.cuda.nccl.version(), torch.version.cuda)'   # a NCCL built with CUDA >= 11.3\n"
		"run without CUDA graphs meanwhile (vLLM: --enforce-eager; torch.compile: a mode other than reduce-overhead)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* dev_runtime.cc (2.28+): symmetric memory / device communicators on a communicator without
	 * it: init.cc sets symmetricSupport from all-P2P GPUs, NCCL_WIN_ENABLE, cuMem and (across
	 * nodes) GIN, and multicast from NVLS; the INIT line "Symmetric memory is not supported"
	 * gives the values */
	.id = "nccl.symmetric.unsupported",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Communicator does not support symmetric memory", "Multicast support requested for team but none available",
		     "Multimem pointer requested but system does not support multimem" },
	.title = "code asked NCCL for symmetric memory on a communicator that cannot provide it",
	.cause = "NCCL's symmetric memory (windows, device communicators, the symmetric kernels a framework "
		"enables) needs cuMem (NCCL_CUMEM_ENABLE not 0), NCCL_WIN_ENABLE not 0, peer access between all GPUs, "
		"and across nodes a GPU-initiated network (GIN); one of them is missing here",
	.fix = "env | grep -E '^NCCL_(CUMEM_ENABLE|WIN_ENABLE|NVLS_ENABLE|P2P_DISABLE)='   # a setting that turns one of them off\n"
		"NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT python ...   # rerun: the line 'Symmetric memory is not supported' gives which condition fails",
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "ulti",
		  .title = "code asked NCCL for NVLink SHARP multicast memory that this communicator has no support for",
		  .cause = "multimem/multicast pointers of a device communicator need NVLS: NVSwitch GPUs with multicast "
			"(H100/H200/B200 HGX, a healthy fabric manager) and NCCL_NVLS_ENABLE and cuMem not turned off",
		  .fix = "env | grep -E '^NCCL_(NVLS_ENABLE|CUMEM_ENABLE)='   # neither may be 0\n"
			"systemctl status nvidia-fabricmanager   # on NVSwitch systems: running, and not restarted since the GPUs were last reset\n"
			"request the device communicator without multimem on systems without NVLS" },
		{ .when = NULL },
	},
},
{
	/* enqueue.cc (2.30+): the one-sided API (ncclPutSignal, windows) checks the driver first */
	.id = "nccl.rma.driver_old",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "One-sided RMA requires CUDA driver" },
	.cap_after = "(found ",
	.cap_stop = ")",
	.title = "NCCL's one-sided RMA needs a CUDA 12.5 or newer driver; this one supports CUDA {}",
	.cause = "ncclPutSignal and the other one-sided operations use driver functions that drivers before CUDA "
		"12.5 lack; on this node the driver is older, so those calls fail with invalid usage",
	.fix = "nvidia-smi   # 'CUDA Version' must be 12.5 or later: upgrade the NVIDIA driver",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* enqueue.cc (2.24+): fp8 reductions need sm90; copies (all-gather, broadcast) do not */
	.id = "nccl.fp8.arch",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "FP8 reduction support begins with sm90" },
	.title = "a NCCL reduction on FP8 data was asked of GPUs older than Hopper",
	.cause = "NCCL reduces fp8 (e4m3/e5m2) only when every GPU of the communicator is sm90 or newer; on "
		"this job at least one is older, so all-reduce / reduce-scatter of fp8 tensors fail with invalid "
		"argument (all-gather and broadcast of fp8 still work)",
	.fix = "nvidia-smi --query-gpu=name,compute_cap --format=csv   # on every node: every GPU must be 9.0 or later\n"
		"reduce in bf16/fp32 and cast to fp8 after the collective on these GPUs (the framework's fp8 recipe: keep reductions in higher precision)",
},
{
	/* misc/nvmlwrap.cc "nvmlInit_v2() failed: <nvmlErrorString>", os/linux.cc "Failed to open
	 * libnvidia-ml.so.1": NCCL reads the topology through NVML, so init fails without it */
	.id = "nccl.nvml.init",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	/* NCCL <= 2.8's nvmlwrap.h: "NVML failure '<nvmlErrorString>'" */
	.anchors = { "nvmlInit_v2() failed", "nvmlInit() failed", "Failed to open libnvidia-ml", "NVML failure '",
		     "nvmlDeviceGetCount", "dlsym failed on nvml" },
	.unless = "than the internal maximum",	/* more GPUs than NCCL's table: not NVML failing */
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
		{ .when = "dlsym failed on nvml",
		  .title = "NCCL's NVML library lacks a function it needs: libnvidia-ml is older than this NCCL expects",
		  .cause = "NCCL (<= 2.28) loads every NVML function it uses by name and stops when one is missing: "
			"a libnvidia-ml.so.1 from an old driver, or a stale copy in the image ahead of the one the NVIDIA "
			"runtime mounts",
		  .fix = "ldconfig -p | grep libnvidia-ml; nvidia-smi   # inside the job's environment: one libnvidia-ml, of the running driver\n"
			"upgrade the NVIDIA driver, or remove the stale libnvidia-ml.so.1 the image carries" },
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
		     "nvmlDeviceGetPciInfo", "nvmlDeviceGetCudaComputeCapability", "nvmlDeviceGetNvLink",
		     "nvmlDeviceGetP2PStatus", "nvmlDeviceGetIndex" },
	.unless = "dlsym failed",	/* a missing NVML function is nccl.nvml.init's */
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
	/* misc/argcheck.cc: a buffer NCCL cannot resolve to GPU memory (cudaPointerGetAttributes fails
	 * or gives no device address: checked with NCCL_CHECK_POINTERS=1), or a NULL argument */
	.id = "nccl.arg.pointer",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_WARN_ONLY,
	.anchors = { "is not a valid pointer", "argument is NULL" },
	.title = "a NCCL call was given a buffer that is not GPU memory NCCL can use",
	.cause = "the buffer passed to a collective is host memory (a CPU tensor, a NumPy array), memory already "
		"freed, or a pointer of another process or GPU context; NCCL fails the call with invalid argument",
	.fix = "assert tensor.is_cuda and tensor.device.index == torch.cuda.current_device()   # before the collective: a CUDA tensor of this rank's GPU\n"
		"CUDA_LAUNCH_BLOCKING=1 NCCL_CHECK_POINTERS=1 python ...   # rerun: NCCL checks every buffer and the traceback names the call",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "argument is NULL",
		  .title = "a NCCL call was given a NULL buffer or communicator",
		  .cause = "an argument NCCL needs is NULL: a communicator whose creation failed earlier (its own error "
			"comes first in the log), or a send/receive buffer that was never allocated",
		  .fix = "find the first NCCL error of this rank: a failed ncclCommInitRank leaves the communicator NULL\n"
			"check the collective's tensors are allocated (numel() > 0 on a CUDA device) before the call" },
		{ .when = NULL },
	},
},
{
	/* misc/argcheck.cc: a data type or reduction NCCL's enums do not have; NCCL added bfloat16 in
	 * 2.10, ncclAvg in 2.10, fp8 in 2.24: a caller built against newer headers than the library */
	.id = "nccl.arg.unsupported",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_WARN_ONLY,
	.anchors = { ": invalid type ", ": invalid reduction operation " },
	.title = "a NCCL call used a data type or reduction this libnccl does not have",
	.cause = "the caller (torch, a framework or an extension) was built against a newer NCCL than the "
		"libnccl.so.2 loaded at run time and passed a code it added later (bfloat16 and AVG need NCCL 2.10, "
		"fp8 2.24): a system or conda NCCL found ahead of the one torch ships",
	.fix = "python -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'; echo $LD_LIBRARY_PATH $LD_PRELOAD   # which NCCL torch expects and what is found first\n"
		"pip install -U nvidia-nccl-cu12   # the NCCL torch was built for; remove the older NCCL's directory from LD_LIBRARY_PATH",
},
{
	/* misc/argcheck.cc: a user-created reduction (ncclRedOpCreatePreMulSum) used on another
	 * communicator, or after ncclRedOpDestroy */
	.id = "nccl.arg.redop_unknown",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	/* enqueue.cc: ncclRedOpDestroy's own checks, and a PreMulSum scalar of another type */
	.anchors = { "unknown to this communicator", "ncclRedOpDestroy :", "Data type supplied to user-created ncclRedOp_t" },
	.title = "a NCCL call used a custom reduction operation that belongs to no live operation of this communicator",
	.cause = "a reduction made with ncclRedOpCreatePreMulSum is valid only on the communicator that created "
		"it and until ncclRedOpDestroy: the code passed it to another communicator or used it after "
		"destroying it",
	.fix = "create the custom reduction on the same communicator as the collective, and destroy it only after the last collective that uses it",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "ncclRedOpDestroy",
		  .title = "ncclRedOpDestroy was given an operation this communicator did not create",
		  .cause = "ncclRedOpDestroy frees only operations made by ncclRedOpCreatePreMulSum on the same "
			"communicator, once: the code passed a built-in operation, another communicator's, one already "
			"destroyed, or a communicator that is not valid",
		  .fix = "destroy each custom reduction once, on the communicator that created it, after its last collective" },
		{ .when = "Data type supplied",
		  .title = "a custom NCCL reduction was used on data of another type than it was created for",
		  .cause = "ncclRedOpCreatePreMulSum fixes the data type of its scalar; the collective that uses the "
			"operation passed a different data type",
		  .fix = "create the PreMulSum operation with the same data type as the collective's buffers" },
		{ .when = NULL },
	},
},
{
	/* misc/argcheck.cc: root >= nranks for broadcast, reduce, send/recv peers */
	.id = "nccl.arg.root",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "(root should be in the" },
	.cap_after = "invalid root ",
	.cap_stop = " ",
	.title = "a NCCL broadcast/reduce was given root {}, outside the communicator",
	.cause = "NCCL's root is a rank within the communicator (0..nranks-1): the code passed a global rank to a "
		"subgroup's communicator, or a rank of a larger world",
	.fix = "dist.broadcast(t, src=dist.get_global_rank(group, 0), group=group)   # torch takes global ranks in src/dst and maps them; code calling NCCL itself must pass a rank within the communicator",
},
{
	/* misc/argcheck.cc CommCheck (start/end magic), init.cc ncclCommDestroy on a destroyed comm */
	.id = "nccl.comm.destroyed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_WARN_ONLY,
	.anchors = { "corrupted comm object detected", "has already been destroyed" },
	.title = "a NCCL communicator was used after it was destroyed (or its memory was overwritten)",
	.cause = "the code called NCCL with a communicator that ncclCommDestroy/ncclCommAbort already freed "
		"(a process group destroyed twice, or used after destroy_process_group), or memory corruption "
		"overwrote the communicator",
	.fix = "call dist.destroy_process_group() once, after the last collective of every group\n"
		"TORCH_DISTRIBUTED_DEBUG=DETAIL python ...   # rerun: the traceback names the call that used the destroyed group",
},
{
	/* group.cc, enqueue.cc: what NCCL refuses inside one ncclGroupStart/End */
	.id = "nccl.group.usage",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "mixing different streams within a group call", "must either be all uncaptured or all captured",
		     "Blocking and nonblocking communicators are not allowed in the same group",
		     "can be CUDA graph captured", "Illegal to have some communicators in graph mode",
		     "to self without a matching", "ncclGroupEnd: not in a group call" },
	.title = "NCCL refused a group of calls that mixes streams or CUDA graph capture",
	.cause = "within one ncclGroupStart/ncclGroupEnd all calls on a communicator must use one stream, and "
		"either none or all of them may be captured into the same CUDA graph: the code (a framework's "
		"batched send/recv, torch.compile or CUDA graphs capturing part of a group) mixed them",
	.fix = "issue the grouped calls on one stream, all inside or all outside the CUDA graph capture\n"
		"TORCH_DISTRIBUTED_DEBUG=DETAIL python ...   # rerun: the traceback names the group (batch_isend_irecv, coalesced collectives)",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Blocking and nonblocking",
		  .title = "NCCL refused a group that mixes blocking and non-blocking communicators",
		  .cause = "one ncclGroupStart/ncclGroupEnd held calls on communicators created with different "
			"blocking settings (ncclConfig_t.blocking, NCCL_COMM_BLOCKING, torch's "
			"TORCH_NCCL_USE_COMM_NONBLOCKING for some groups only)",
		  .fix = "env | grep -E '^(NCCL_COMM_BLOCKING|TORCH_NCCL_USE_COMM_NONBLOCKING)='   # one setting for every communicator of the job\n"
			"create every communicator used in one group with the same blocking setting" },
		{ .when = "without a matching",
		  .title = "a NCCL send to self (or receive from self) had no matching receive (send) in its group",
		  .cause = "a rank that sends to itself must post the matching receive in the same group: an "
			"all-to-all or batch_isend_irecv whose send and receive lists differ on this rank",
		  .fix = "post the self send and the self receive in the same batch_isend_irecv / group, with the same count" },
		{ .when = "not in a group call",
		  .title = "ncclGroupEnd was called without a matching ncclGroupStart",
		  .cause = "the code's group calls are unbalanced: an extra ncclGroupEnd, or a ncclGroupStart skipped on an error path",
		  .fix = "pair every ncclGroupStart with one ncclGroupEnd, on error paths too" },
		{ .when = NULL },
	},
},
{
	/* group.cc, enqueue.cc (to 2.12): fixed-size tables per group call: MAX_ASYNC_OPS (128)
	 * communicators or NCCL_MAX_OPS (2048) operations per channel; 2.13 reworked the group code */
	.id = "nccl.group.too_many",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Too many aggregated operations on channel", "Too many async operations in progress" },
	.title = "one NCCL group call held more operations than this NCCL release allows",
	.cause = "NCCL before 2.13 keeps a group's operations in fixed tables (128 communicators, 2048 operations "
		"per channel); a ncclGroupStart/End with more (a large all-to-all built from send/recv, many "
		"coalesced collectives) fails with invalid usage",
	.fix = "python -c 'import torch; print(torch.cuda.nccl.version())'   # NCCL 2.13 or later lifts these limits: upgrade torch / nvidia-nccl\n"
		"split the batch of operations into several smaller group calls",
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
	/* net_ib.cc: ibv_open_device() of an HCA that NCCL listed (or NCCL_IB_HCA named) failed; or
	 * it opened and ibv_query_device / ibv_query_port failed: NCCL skips that device or port */
	.id = "nccl.ib.open_device",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "NET/IB : Unable to open device", "NET/IB : Unable to query device",
		     "NET/IB : Unable to query port" },
	.cap_after = "open device " SIG_UNTIL "query device ",
	.cap_stop = " \t,",
	.title = "NCCL could not open the RDMA device {}",
	.cause = "the HCA is listed in /sys but cannot be opened here: a container without its /dev/infiniband "
		"node (or without IPC_LOCK), a device that is down or being reset, or an HCA set that differs between "
		"the hosts (NCCL_IB_HCA naming a device this node does not have)",
	.fix = "ibv_devinfo -d {}   # on {node}: state PORT_ACTIVE; in a container: --device=/dev/infiniband --cap-add=IPC_LOCK\n"
		"export NCCL_IB_HCA=^{}   # to run without it meanwhile (every node the same setting)",
	.rerun = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Unable to query device",
			.title = "NCCL opened the RDMA device {} but could not query it: it skips that device",
			.cause = "ibv_query_device failed right after the device opened: a device being reset or in error, "
				"or a user-space driver (libmlx5, rdma-core) that does not match the kernel's; NCCL goes on "
				"with the other HCAs, or with TCP sockets when this was the only one",
			.fix = "ibv_devinfo -d {}   # on {node}: it must print the device's attributes and PORT_ACTIVE\n"
				"dmesg | grep -iE 'mlx5|infiniband'   # on {node}: the HCA's own report; update MLNX_OFED/rdma-core to match the kernel driver\n"
				"export NCCL_IB_HCA=^{}   # to run without it meanwhile (every node the same setting)",
		},
		{
			.when = "Unable to query port",
			.title = "NCCL could not query a port of an RDMA device on {node}: it skips that port",
			.cause = "the device opened but ibv_query_port failed on one of its ports: a port being reset, a "
				"driver or firmware fault, or a user-space driver (libmlx5) that does not match the kernel's; "
				"NCCL uses the other ports, or none (TCP sockets) when this was the only one",
			.fix = "ibv_devinfo -v   # on {node}: every port must answer, with state PORT_ACTIVE\n"
				"dmesg | grep -iE 'mlx5|infiniband'   # on {node}: the HCA's own report; update MLNX_OFED/rdma-core to match the kernel driver",
		},
		{ .when = NULL },
	},
},
{
	/* net_ib.cc (<= 2.23) ncclIbGetPciPath: /sys/class/infiniband/<dev>/device does not resolve, so
	 * NCCL cannot place the NIC in the PCI topology; it goes on with the NIC away from the GPUs */
	.id = "nccl.ib.pci_path",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "(/sys/class/infiniband/" },
	.also = "Could not find real path of ",
	.cap_after = "real path of ",
	.cap_stop = " ",
	.title = "NCCL could not find the PCI device of RDMA device {} in /sys",
	.cause = "the device's /sys/class/infiniband/<dev>/device link does not resolve: a software RDMA device "
		"(rxe, siw) with no PCI device, or a container with a partial /sys; NCCL then does not know where the "
		"NIC sits, treats it as far from the GPUs and may not use GPUDirect RDMA",
	.fix = "ls -l /sys/class/infiniband/*/device   # on {node}: each HCA must link to its PCI device (run the container with the host's /sys)\n"
		"export NCCL_IB_HCA=^{}   # if it is a software device (rxe/siw) next to real HCAs",
	.rerun = RERUN_NCCL,
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
	/* init.cc (2.20+): NCCL_MNNVL_ENABLE=1 demands multi-node NVLink and the nodes have none */
	.id = "nccl.mnnvl.forced",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "MNNVL is not supported on this system" },
	.title = "NCCL_MNNVL_ENABLE=1 demands multi-node NVLink, which these nodes do not have",
	.cause = "with NCCL_MNNVL_ENABLE=1 NCCL fails the init when the GPUs of different nodes are not in one "
		"NVLink domain (no GB200/GB300 NVL fabric, no fabric manager / IMEX, or GPUs without a fabric "
		"clique); the default (2) uses MNNVL only where it works",
	.fix = "unset NCCL_MNNVL_ENABLE   # and remove it from /etc/nccl.conf: NCCL detects MNNVL itself\n"
		"nvidia-smi -q | grep -A4 -i fabric   # on an NVL system: the fabric state must be Completed / Success",
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
	/* net_ib (2.23+, connect.cc since 2.30), InfiniBand only: the two ports have different subnet prefixes, so the path needs
	 * a global route through an IB router, and the peer's GID carries no FLID (the router's
	 * local identifier); NCCL then tries the plain LID, which does not cross a router */
	.id = "nccl.ib.flid_zero",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "remote FLID configured as zero" },
	.title = "two InfiniBand ports are in different subnets and the peer has no FLID: NCCL falls back to its LID",
	.cause = "NCCL found different subnet prefixes on the two ports, so traffic must cross an IB router; the "
		"peer's GID carries no FLID from the subnet manager, and a LID does not route across subnets, so the "
		"connection times out unless the ports are in fact on one subnet (then the subnet prefixes differ by mistake)",
	.fix = "cat /sys/class/infiniband/*/ports/*/gids/0   # on both nodes: the first 64 bits are the subnet prefix; one fabric should show one prefix\n"
		"the subnet manager (opensm/UFM): one subnet prefix per subnet, and FLIDs enabled when the fabric really spans IB routers",
	.rerun = RERUN_NCCL,
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
		     "Attempted to merge incompatible devices", "Can't merge net devices with different link_layer" },
	.title = "NCCL paired NICs of different link types (InfiniBand with RoCE/Ethernet)",
	.cause = "the HCAs NCCL uses include ports of both link layers (or the nodes' HCA sets differ), and a "
		"connection joined an InfiniBand port with an Ethernet one, which cannot talk",
	.fix = "ibv_devinfo | grep -E 'hca_id|link_layer'   # on every node: which HCAs are InfiniBand and which Ethernet\n"
		"export NCCL_IB_HCA==mlx5_0,mlx5_1   # on every node: only the HCAs of one link type ('=' for exact names)",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* net_ib: a setting asks for what the devices or the set-up cannot do; each message names it.
	 * NCCL_IB_SUBNET_PREFIX_LEN (connect.cc, 2.30+) must be 1..32; NCCL_IB_MERGE_NICS=0 (a WARN
	 * in 2.24-2.26, INFO since) forbids the merged devices NCCL's NIC fusion (or NCCL_IB_HCA's
	 * "a+b") asks for; NCCL_IB_OOO_RQ=1 (2.30+) forces out-of-order receive queues, which need adaptive routing,
	 * support on both ends and a large enough receive queue. */
	.id = "nccl.ib.setting",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "NCCL_IB_SUBNET_PREFIX_LEN=", "when NCCL_IB_MERGE_NICS=0", "OOO RQ is force enabled" },
	.title = "an NCCL_IB_* setting asks for what this set-up cannot do",
	.cause = "the IB transport stops on a setting whose value it cannot honour; the message names it",
	.fix = "env | grep ^NCCL_IB_   # unset the setting the message names, on every node",
	.rerun = RERUN_NCCL_ENV,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "NCCL_IB_SUBNET_PREFIX_LEN=",
			.title = "NCCL_IB_SUBNET_PREFIX_LEN is out of range (1-32): NCCL cannot match RoCE subnets",
			.cause = "NCCL compares the IPv4 subnets of the RoCE GIDs to pick the NIC that reaches a peer; the "
				"prefix length must be between 1 and 32",
			.fix = "unset NCCL_IB_SUBNET_PREFIX_LEN   # NCCL's default is 24; or set the prefix length of the RoCE subnets (ip -o -4 addr show)",
		},
		{
			.when = "NCCL_IB_MERGE_NICS=0",
			.title = "NCCL wants to merge NICs into one virtual NIC but NCCL_IB_MERGE_NICS=0 forbids it",
			.cause = "NCCL's NIC fusion (or an NCCL_IB_HCA entry joining ports with '+') asked the IB transport "
				"for a device made of several ports, and NCCL_IB_MERGE_NICS=0 refuses such devices",
			.fix = "unset NCCL_IB_MERGE_NICS   # allow the merge (NCCL's default)\n"
				"export NCCL_NET_MERGE_LEVEL=LOC   # or, as NCCL's message says, disable merging in NCCL itself (and drop any '+' from NCCL_IB_HCA)",
		},
		{
			.when = "OOO RQ is force enabled",
			.title = "NCCL_IB_OOO_RQ=1 forces out-of-order receive queues that this connection cannot have",
			.cause = "out-of-order receive queues need adaptive routing enabled on the device, support on both "
				"ends of the connection and a receive queue large enough; forcing them where one is missing "
				"stops the connection",
			.fix = "unset NCCL_IB_OOO_RQ   # NCCL's default (0): in-order receive queues\n"
				"ibv_devinfo | grep fw_ver   # only to use it: the same, current HCA firmware and MLNX_OFED/DOCA on every node, adaptive routing enabled in the fabric",
		},
		{ .when = NULL },
	},
},
{
	/* net_ib/connect.cc (2.30+): NCCL creates its QPs through mlx5dv_create_qp only for out-of-order
	 * receive queues (MLX5DV_QP_CREATE_OOO_DP), that is only with NCCL_IB_OOO_RQ=1 and after both
	 * ends reported support; the default path is ibv_create_qp. %m is the errno of rdma-core's
	 * mlx5 provider (or a stale one when libmlx5 lacks mlx5dv_create_qp@MLX5_1.3). */
	.id = "nccl.ib.ooo_qp_create",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "mlx5dv_create_qp failed to create QP" },
	.cap_after = "failed to create QP: ",
	.title = "the HCA refused an out-of-order receive queue that NCCL_IB_OOO_RQ=1 asked for ({})",
	.cause = "NCCL creates QPs with mlx5 direct verbs only when NCCL_IB_OOO_RQ=1 forces out-of-order receive "
		"queues; the mlx5 driver or firmware refused such a QP, for the reason the error text gives",
	.fix = "unset NCCL_IB_OOO_RQ   # NCCL's default (0): ordinary QPs through ibv_create_qp\n"
		"ibv_devinfo | grep fw_ver; ldconfig -p | grep libmlx5   # only to use it: current HCA firmware and rdma-core/DOCA, the same on every node",
	.rerun = RERUN_NCCL_ENV,
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "Cannot allocate memory",
			.title = "the HCA could not allocate an out-of-order receive queue that NCCL_IB_OOO_RQ=1 asked for",
			.cause = "creating the QP ran out of memory the process may lock or of HCA resources: a low "
				"'ulimit -l' (containers often keep 64 KiB) or many QPs per GPU",
			.fix = "ulimit -l   # in the job's environment: unlimited (docker run --ulimit memlock=-1, Slurm PropagateResourceLimits)\n"
				"unset NCCL_IB_OOO_RQ   # or go back to NCCL's ordinary QPs",
		},
		{
			.when = "Operation not supported",
			.title = "the mlx5 driver or firmware does not support the out-of-order QPs NCCL_IB_OOO_RQ=1 asked for",
			.cause = "the HCA reported out-of-order receive support, yet its driver or firmware refuses a QP "
				"created with it: an rdma-core/DOCA or firmware too old for the flag",
			.fix = "unset NCCL_IB_OOO_RQ   # NCCL's default (0): ordinary QPs\n"
				"ibv_devinfo | grep fw_ver   # only to use it: update the HCA firmware and rdma-core/DOCA on every node",
		},
		{ .when = NULL },
	},
},
{
	/* net_ib (a WARN in 2.21-2.23, INFO since): NCCL_IB_ADDR_RANGE ("<address>/<prefix>", which
	 * limits the RoCE GIDs NCCL picks) does not parse in the family NCCL_IB_ADDR_FAMILY names
	 * (AF_INET by default), so NCCL drops the range and picks a GID without it */
	.id = "nccl.ib.addr_range",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "is invalid for family" },
	.also = "NET/IB",
	.title = "NCCL_IB_ADDR_RANGE is not a valid range for NCCL_IB_ADDR_FAMILY: NCCL ignores it when it picks the RoCE GID",
	.cause = "the address or prefix length of NCCL_IB_ADDR_RANGE does not parse in the address family NCCL_IB_ADDR_FAMILY "
		"names (AF_INET unless set): an IPv6 range with the IPv4 family or the reverse, a mistyped address, or a "
		"prefix longer than the family allows; NCCL then picks the GID as if the range were unset",
	.fix = "export NCCL_IB_ADDR_RANGE=10.1.0.0/16   # the RoCE subnet as <network>/<prefix>, in the family of NCCL_IB_ADDR_FAMILY (AF_INET or AF_INET6), on every node\n"
		"unset NCCL_IB_ADDR_RANGE   # or let NCCL choose the GID itself",
	.rerun = RERUN_NCCL_ENV,
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
	/* misc/ibvsymbols.cc (ibvwrap.cc before 2.18) / mlx5dvsymbols.cc: NCCL takes every verb at a
	 * fixed symbol version (IBVERBS_1.1, MLX5_1.8); a libibverbs/libmlx5 without it is very old or
	 * not rdma-core's. Without libibverbs' symbols NCCL has no IB; without mlx5dv's only the
	 * mlx5 extras (Data Direct, DMA-BUF through mlx5dv) are off. */
	.id = "nccl.ib.verbs_symbols",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_NET,
	.anchors = { "dlvsym failed on " },
	.cap_after = "dlvsym failed on ",
	.cap_stop = " ",
	.title = "the libibverbs NCCL loaded lacks {}: NCCL cannot use InfiniBand/RoCE and falls back to TCP sockets",
	.cause = "NCCL loads the verbs at symbol version IBVERBS_1.1; the libibverbs.so found first is a very old one "
		"or not rdma-core's (a stub or another vendor's copy in the image or on LD_LIBRARY_PATH)",
	.fix = "ldconfig -p | grep libibverbs; echo $LD_LIBRARY_PATH   # which libibverbs the job finds first\n"
		"apt-get install libibverbs1 ibverbs-providers   # rdma-core's (RHEL: rdma-core libibverbs), or the MLNX_OFED/DOCA user space",
	.variants = (const struct explain_sig_variant[]){
		{
			.when = "MLX5_",
			.title = "the libmlx5 NCCL loaded lacks {}: NCCL's mlx5-specific features are off",
			.cause = "NCCL loads libmlx5's direct verbs (mlx5dv) at symbol version MLX5_1.8 for features such as "
				"Data Direct NICs; an older rdma-core's libmlx5 lacks it, so those features are disabled while "
				"plain verbs keep working",
			.fix = "ldconfig -p | grep libmlx5   # which libmlx5 the job finds first\n"
				"apt-get install ibverbs-providers   # a current rdma-core (or MLNX_OFED/DOCA); nothing to do if the job runs",
		},
		{ .when = NULL },
	},
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
	/* EROFS from open()/mkstemp() in /dev/shm (its errno is on the line from 2.19): a read-only
	 * mount, which neither size nor permissions explain */
	.id = "nccl.shm.readonly",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "shared memory segment", "failed to create shared memory file", "failed to extend", "shm_open" },
	.also = "Read-only file system",
	.title = "NCCL cannot create its shared-memory file: /dev/shm is mounted read-only",
	.cause = "the open() of NCCL's segment in /dev/shm failed with EROFS: this container or host mounts "
		"/dev/shm read-only (a read-only root file system without a tmpfs of its own at /dev/shm)",
	.fix = "mount | grep /dev/shm   # must be a tmpfs mounted rw\n"
		"docker run --ipc=host ...   # or --shm-size=16g; in Kubernetes mount an emptyDir medium: Memory at /dev/shm\n"
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
	.unless = "ermission denied" SIG_UNTIL "Read-only file system",
	.title = "NCCL could not create its shared-memory segment in /dev/shm",
	.cause = "/dev/shm is too small (docker's default is 64 MB) or not writable",
	.fix = "docker run --ipc=host ...   # or --shm-size=16g; in Kubernetes mount an emptyDir medium: Memory at /dev/shm\n"
		"df -h /dev/shm",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* transport/shm.cc: NCCL_SHM_LOCALITY other than 1 or 2 is ignored */
	.id = "nccl.env.shm_locality",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "Ignoring SHM locality, must be 1" },
	.title = "NCCL_SHM_LOCALITY={env:NCCL_SHM_LOCALITY} is not 1 or 2: NCCL ignores it",
	.cause = "NCCL_SHM_LOCALITY says on which side the SHM transport's buffer lives (1 sender, 2 receiver); "
		"any other value is ignored and the default (2) is used",
	.fix = "unset NCCL_SHM_LOCALITY   # or set it to 1 or 2, on every node",
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
	/* dev_runtime.cc (2.30+): the device API's version check, an application built with newer
	 * NCCL headers than the library it runs with (NCCL_ENABLE_VERSION_CHECK=0 skips it) */
	.id = "nccl.version.app_newer",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "NCCL library is too old. This application was compiled with",
		     "NCCL library is not backwards compatible. This application was compiled with" },
	.title = "the application was built against another NCCL than the libnccl it runs with",
	.cause = "code using NCCL's device API (device communicators, symmetric memory kernels) carries the NCCL "
		"version of its headers; the libnccl.so.2 loaded at run time is older, or too new to keep that "
		"version's device ABI: another NCCL found first on the library path, or an image with a different NCCL",
	.fix = "ldconfig -p | grep libnccl; echo $LD_LIBRARY_PATH $LD_PRELOAD   # which libnccl.so.2 is found first\n"
		"rebuild the application against the NCCL it runs with, or install the NCCL release its headers came from",
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
	/* rendezvous.py: an init_method URL that lacks what its handler needs, or a scheme nobody registered */
	.id = "torch.init_method.incomplete",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "rendezvous: rank parameter missing", "rendezvous: world size parameter missing",
		     "file:// rendezvous: path missing", "No rendezvous handler for ",
		     "port must have value from 0 to 65535" },
	.title = "init_process_group's init_method lacks rank or world_size",
	.cause = "tcp:// and file:// rendezvous take the rank and the world size from init_process_group's rank= "
		"and world_size= (or the URL's query); without them the handler cannot start",
	.fix = "dist.init_process_group('nccl', init_method='tcp://<rank-0 IP>:29500', rank=rank, world_size=world_size)\n"
		"dist.init_process_group('nccl')   # or env:// under torchrun, which sets RANK and WORLD_SIZE",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "path missing",
		  .title = "init_method='file://' names no file",
		  .cause = "file:// rendezvous needs the path of a file on a file system every rank sees (file:///shared/dir/init)",
		  .fix = "dist.init_process_group('nccl', init_method='file:///<shared dir>/init_file', rank=rank, world_size=world_size)   # a file that does not exist yet, on storage every node mounts" },
		{ .when = "No rendezvous handler for ",
		  .title = "init_method has a URL scheme torch does not know",
		  .cause = "torch's rendezvous knows env://, tcp:// and file://; the init_method string has another "
			"scheme (a typo, a missing '://', or a bare host:port)",
		  .fix = "dist.init_process_group('nccl', init_method='tcp://<rank-0 IP>:29500', rank=rank, world_size=world_size)   # or 'env://' under torchrun" },
		{ .when = "port must have value from 0 to 65535",
		  .title = "MASTER_PORT (or the init_method port) is not a port number",
		  .cause = "the port torch was given is outside 0-65535: a typo, or a variable that expanded to something else",
		  .fix = "export MASTER_PORT=29500   # on every node: a free port from 1024 to 65535" },
		{ .when = NULL },
	},
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
	.anchors = { "The client socket has failed to connect to", "has timed out, will retry" },
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
			/* socket.cpp: connect() itself returned ETIMEDOUT; c10d retries until its timeout */
			.when = "has timed out, will retry",
			.title = "connecting to the TCPStore timed out and c10d retries (no answer to the SYNs)",
			.cause = "SYNs to MASTER_ADDR:MASTER_PORT get no answer: a firewall or security group that DROPs the "
				"port, or an address the other nodes cannot reach (a public or docker address)",
			.fix = "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from the failing node\n"
				"export MASTER_ADDR=<rank-0 node's address on the network the nodes share>   # on every node",
		},
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
	.unless = "The local ",	/* socket.cpp's listen side: getaddrinfo(NULL, port), no host name involved */
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
	.unless = "Call to bind" SIG_UNTIL "UDS: " SIG_UNTIL "EADDRNOTAVAIL" SIG_UNTIL "EACCES" SIG_UNTIL "errno: 13",	/* NCCL's own binds, not torch's store; a refused permission */
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
	/* socket.cpp / TCPStoreLibUvBackend.cpp: bind(2) of MASTER_PORT refused with EACCES ("errno: 13 -
	 * Permission denied", libuv "name: EACCES") */
	.id = "torch.store.port_denied",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "name: EACCES", "failed to bind to" },
	.also = "ermission denied",
	.title = "the rank-0 node may not listen on MASTER_PORT (permission denied)",
	.cause = "the TCPStore's bind of MASTER_PORT was refused: ports below 1024 (or below "
		"net.ipv4.ip_unprivileged_port_start) need root or CAP_NET_BIND_SERVICE, or an SELinux/AppArmor "
		"policy forbids the port",
	.fix = "export MASTER_PORT=29500   # on every node: a port of 1024 or above that nothing else uses\n"
		"sysctl net.ipv4.ip_unprivileged_port_start   # ports below it need privileges\n"
		"sudo ausearch -m avc -ts recent   # SELinux: a denial for the port names the policy",
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
	/* TCPStore.cpp (torch 2.2+): the store's host reads /proc/sys/net/core/somaxconn and warns when
	 * the listen backlog is smaller than the number of workers that will connect at once */
	.id = "torch.store.somaxconn",
	.sev = SEV_WARN, .conf = CONF_HIGH,
	.anchors = { "but somaxconn is" },
	.cap_after = "but somaxconn is ",
	.cap_stop = ".",
	.title = "net.core.somaxconn ({}) is smaller than the number of ranks that connect to the TCPStore",
	.cause = "every rank connects to the TCPStore at start; the kernel queues at most somaxconn connections "
		"the store has not accepted yet, and the rest are dropped and retried: at scale, connect timeouts "
		"and slow or failed start-up",
	.fix = "sudo sysctl -w net.core.somaxconn=65535   # on the node that hosts the store (rank 0); persist it in /etc/sysctl.d/\n"
		"docker run --sysctl net.core.somaxconn=65535 ...   # in a container: the setting is per network namespace",
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
	.anchors = { "Socket Timeout", "wait timeout after", "waitForInput: socket" },
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
	.variants = (const struct explain_sig_variant[]){
		{ .when = "wait timeout after",	/* torch 2.3+: the store key it waited for is named */
		  .title = "a rank timed out waiting for a key in the rendezvous store (wait timeout)",
		  .cause = "the key named after 'keys:' was never written within the store timeout: the rank that "
			"writes it (rank 0 for the NCCL id, every rank for a barrier) was not up yet, crashed, or is "
			"slower to arrive than the timeout",
		  .fix = "read the log of the rank that writes the key (rank 0 first): an error there before the timeout is the cause\n"
			"init_process_group(..., timeout=datetime.timedelta(minutes=30))   # when ranks legitimately start far apart" },
		{ .when = NULL },
	},
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
	.anchors = { "op.preamble.length <= op.nbytes", "Received data size doesn't match expected size" },
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
	/* "Read timeout [peer]" / "Write timeout [peer]": pair.cc's sync-mode recv/send hit the timeout */
	.anchors = { "ms for send operation to complete", "ms for recv operation to complete", "Read timeout [",
		     "Write timeout [" },
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
	.anchors = { "Connection reset by peer", "DistNetworkError: Broken pipe" },
	.unless = "failed" SIG_UNTIL "Read error [",	/* Gloo's pair: a peer rank, not the store */
	.title = "the TCPStore connection to rank 0 was reset",
	.cause = "rank 0 (which hosts the TCPStore) exited or crashed; its log has the cause",
	.fix = "read rank 0's log for its first error and fix that",
	.rerun = RERUN_TORCH,
},
{
	/* Utils.hpp / TCPStore.cpp (torch 2.3+): a store client's recv returned 0 bytes or the socket
	 * failed: "recvValue failed on SocketImpl(...): Failed to recv, got 0 bytes. Connection was
	 * likely closed. Did the remote server shutdown or crash?"; ProcessGroupNCCL's heartbeat polls
	 * the store, so a rank that outlives rank 0 prints it at a normal exit too */
	.id = "torch.store.closed",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "Failed to recv, got 0 bytes", "recvValue failed on SocketImpl", "recvVector failed on SocketImpl",
		     "sendBytes failed on SocketImpl", "recvValueWithTimeout failed on SocketImpl",
		     "Failed to check the \"should dump\" flag on TCPStore" },
	.title = "the process hosting the TCPStore closed this rank's store connection",
	.cause = "the TCPStore lives in rank 0 (or in torchrun's agent on the node with --node-rank=0); that "
		"process exited: it crashed or was killed, or it finished before this rank and took the store "
		"with it (at the end of a job that otherwise completed, this is shutdown noise)",
	.fix = "read rank 0's log (node 0's) for its first error: that is the cause when the job did not finish\n"
		"dist.destroy_process_group()   # at the end of every rank's script, so no rank still uses the store when rank 0 exits",
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
	/* 2.18+: "Failed to find CUDA library %s (NCCL_CUDA_PATH='%s') : %s"; unset it is
	 * nccl.cuda.libcuda */
	.anchors = { "Failed to find CUDA library in", "Failed to find CUDA library " },
	.also = "NCCL_CUDA_PATH=",
	.unless = "NCCL_CUDA_PATH='')",
	.cap_after = "NCCL_CUDA_PATH=",
	.cap_stop = ")",
	.title = "NCCL_CUDA_PATH={} holds no CUDA driver library",
	.cause = "NCCL_CUDA_PATH tells NCCL where libcuda.so is; the directory given has none, so NCCL cannot use CUDA",
	.fix = "unset NCCL_CUDA_PATH   # NCCL finds the driver's libcuda.so.1 itself\n"
		"ldconfig -p | grep libcuda.so.1   # where the driver's library really is",
},
{
	/* init.cc: NCCL_* values it corrects or ignores; the communicator still works */
	.id = "nccl.env.value_ignored",
	.sev = SEV_WARN, .conf = CONF_HIGH, .flags = SIG_NCCL | SIG_WARN_ONLY,
	.anchors = { "is being ignored because it is not a power of 2", "is too big. Limiting value to", "is not a valid value 0/1, set it to",
		     "is larger than #channels upper limit", "is larger than maxCTAs",
		     "Both NCCL_CTA_POLICY_ZERO and NCCL_CTA_POLICY_EFFICIENCY are set" },
	.title = "an NCCL setting has a value NCCL ignores or corrects",
	.cause = "an NCCL_* variable (NCCL_WORK_FIFO_BYTES / _DEPTH, NCCL_CGA_CLUSTER_SIZE, NCCL_MIN_CTAS / "
		"NCCL_MAX_CTAS, NCCL_CTA_POLICY, NCCL_COMM_SPLIT_SHARE_RESOURCES) or the matching ncclConfig_t field "
		"is out of range; NCCL uses its default or the nearest valid value instead, so the setting does not "
		"do what it was meant to",
	.fix = "env | grep -E '^NCCL_(WORK_FIFO|CGA_CLUSTER|MIN_CTAS|MAX_CTAS|CTA_POLICY|COMM_SPLIT)'; cat /etc/nccl.conf ~/.nccl.conf 2>/dev/null   # the setting named in the WARN line: fix its value or unset it",
	.rerun = RERUN_NCCL_ENV,
},
{
	/* enqueue.cc (2.13-2.21): a work FIFO smaller than two entries per channel fails every launch */
	.id = "nccl.env.fifo_depth",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "' is too small. Minimum value is" },
	.also = "NCCL_WORK_FIFO_DEPTH",
	.title = "NCCL_WORK_FIFO_DEPTH is below NCCL's minimum: collectives fail with invalid usage",
	.cause = "NCCL_WORK_FIFO_DEPTH sizes the queue of work NCCL hands its kernels; a value under the minimum "
		"the WARN line gives (two entries per channel) makes every launch fail",
	.fix = "unset NCCL_WORK_FIFO_DEPTH   # on every node, and remove it from /etc/nccl.conf: the default fits",
},
{
	/* misc/cudawrap.cc 2.13-2.20: NCCL dlopen()s "libcuda.so" (the development link name, not
	 * libcuda.so.1) and goes on without the driver API when it is missing: no cuMem, no DMA-BUF,
	 * NVLS off (vllm#4411 on WSL, nccl-tests#166) */
	.id = "nccl.cuda.libcuda",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Failed to find CUDA library " },
	.also = "NCCL_CUDA_PATH='')",
	.title = "NCCL could not load the CUDA driver library by the name libcuda.so and runs without its driver-API features",
	.cause = "NCCL 2.13-2.20 opens 'libcuda.so', a name the driver installs only as a development link; where only "
		"libcuda.so.1 exists (containers, WSL at /usr/lib/wsl/lib, driver-only installs) NCCL continues without "
		"cuMem, DMA-BUF and NVLS, and later CUDA errors of those paths follow from it",
	.fix = "ldconfig -p | grep libcuda   # where the driver's libcuda.so.1 is\n"
		"export NCCL_CUDA_PATH=<that directory>   # with a libcuda.so link there (ln -s libcuda.so.1 libcuda.so), or upgrade NCCL to 2.21+, which opens libcuda.so.1",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* misc/cudawrap.cc: the driver API NCCL loads by name (cuGetProcAddress, cudaGetDriverEntryPoint)
	 * is missing: a driver older than the CUDA NCCL was built for, or the toolkit's stub libcuda
	 * (CUDA_ERROR_STUB_LIBRARY, 34) found first */
	.id = "nccl.cuda.driver_api",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_NCCL | SIG_WARN_ONLY,
	.anchors = { "Failed to load CUDA missing symbol", "CUDA some PFN functions not found", "cuDriverGetVersion failed with",
		     "CUDA Driver version found is", "Retrieve cu" },
	.title = "NCCL could not load the CUDA driver functions it needs: the driver is older than NCCL's CUDA",
	.cause = "the libcuda NCCL loaded lacks functions of the CUDA version NCCL was built with (see 'NCCL version "
		"x+cudaY'): an older NVIDIA driver, or a stale libcuda ahead of the driver's on the library path; NCCL "
		"then runs without cuMem, NVLS and DMA-BUF or fails",
	.fix = "nvidia-smi   # 'CUDA Version' must be at least the CUDA in NCCL's version line: upgrade the driver, or use a NCCL/torch built for an older CUDA\n"
		"ldconfig -p | grep libcuda; echo $LD_LIBRARY_PATH   # the libcuda.so.1 found must be the installed driver's",
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		{ .when = "failed with 34",
		  .title = "NCCL loaded the CUDA toolkit's stub libcuda instead of the driver's",
		  .cause = "error 34 is CUDA_ERROR_STUB_LIBRARY: the libcuda.so NCCL found is the link-time stub of the "
			"CUDA toolkit (.../lib64/stubs), put on LD_LIBRARY_PATH for a build, not the driver's library",
		  .fix = "echo $LD_LIBRARY_PATH | grep -o '[^:]*stubs[^:]*'   # remove the stubs directory from LD_LIBRARY_PATH at run time\n"
			"ldconfig -p | grep libcuda.so.1   # the driver's library must be the one found" },
		{ .when = NULL },
	},
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
	/* bootstrap.cc (2.26+): the same miss is an error ("verify NCCL_OOB_NET_IFNAME",
	 * ncclInvalidArgument); the names are the network plugin's devices (mlx5_0:1, or an interface
	 * for NET/Socket), "^" excludes and "=" matches exactly */
	.id = "nccl.env.oob_ifname_none",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "verify NCCL_OOB_NET_IFNAME" },
	.cap_after = "matching exactly " SIG_UNTIL "excluding exactly " SIG_UNTIL "found matching " SIG_UNTIL "after excluding ",
	.cap_stop = ",",
	.title = "NCCL_OOB_NET_IFNAME ({}) leaves no network device for the out-of-band bootstrap: NCCL stops",
	.cause = "with NCCL_OOB_NET_ENABLE=1 NCCL bootstraps over a device of its network plugin, chosen by "
		"NCCL_OOB_NET_IFNAME; since 2.26 a value that matches none of them (or excludes all) is an error",
	.fix = "NCCL_DEBUG=INFO python ... 2>&1 | grep 'NET/'   # the device names NCCL's network lists (mlx5_0:1, eth0)\n"
		"unset NCCL_OOB_NET_IFNAME   # or set it to one of them, on every node",
	.rerun = RERUN_NCCL_ENV,
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
	.anchors = { "Watchdog caught collective operation timeout", "Timeout at NCCL work:",
		     "Received a dump signal due to a collective timeout from" },
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
	.variants = (const struct explain_sig_variant[]){
		{ .when = "timeout from this local rank",	/* torch 2.4+: this rank's own watchdog, before the dump */
		  .title = "a collective timed out in this rank's watchdog, which is dumping its flight recorder",
		  .cause = "a collective did not finish within the process-group timeout: a rank never called it "
			"(diverging code, a crashed or slower rank), or the network between the nodes stalls",
		  .fix = "compare the SeqNum of every rank: the rank with the lowest SeqNum is the one that diverged\n"
			"export TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1   # flight recorder for the next hang" },
#define DUMP_FROM_RANK_VARIANT(w) { .when = w, \
	.title = "another rank's collective timed out, and it asked this rank to dump its flight recorder", \
	.cause = "a collective did not finish within the process-group timeout on the rank this line names: a " \
	"rank never called it (diverging code, a crashed or slower rank), or the network between the nodes stalls", \
	.fix = "read the named rank's log for its 'Watchdog caught collective operation timeout' line, and compare the SeqNum of every rank: the lowest one diverged\n" \
	"export TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1   # flight recorder for the next hang" \
	}
		DUMP_FROM_RANK_VARIANT("timeout from  rank"),	/* another rank's watchdog asked for the dump (torch 2.4+) */
		DUMP_FROM_RANK_VARIANT("timeout from rank"),	/* the same, one space (later releases) */
#undef DUMP_FROM_RANK_VARIANT
		{ .when = NULL },
	},
},
{
	.id = "torch.comm.aborted",
	.sev = SEV_ERROR, .conf = CONF_LOW, .flags = SIG_SYMPTOM,
	.anchors = { "NCCL communicator was aborted", "Some NCCL operations have failed or timed out",
		     "detected by watchdog at work", "we are taking the entire process down",
		     "Terminating the process after attempting to dump debug info" },
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
	/* init.cc ncclCommInitAll (single process, all GPUs, e.g. nccl-tests -g N): "Invalid device
	 * %d (totalnDev=%d)" for a device list naming a GPU the process cannot see */
	.anchors = { "nvalid device ordinal", "(totalnDev=" },
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
	.anchors = { "ChildFailedError", "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html" },
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
	.anchors = { "failed (exitcode: ", "exitcode  : -11 ", "exitcode  : -7 ", "exitcode  : -6 " },
	.cap_after = "failed (exitcode: ",
	.cap_stop = ")",
	.title = "a worker exited with code {} and torchrun stopped the job",
	.cause = "torchrun only reports the exit; the worker's own output (its traceback, or the kernel log for a "
		"signal) says why",
	.fix = "read the named local_rank's traceback: the first exception there is the cause",
	.variants = (const struct explain_sig_variant[]){
#define EXIT_SEGV_VARIANT(w) { .when = w, \
	.title = "a worker died of a segmentation fault (exitcode -11)", \
	.cause = "SIGSEGV in the worker: a crash in native code (a CUDA or NCCL library mismatch, a " \
	"custom extension, a torch/NCCL bug); the faulthandler or core dump names the library", \
	.fix = "export TORCH_SHOW_CPP_STACKTRACES=1 PYTHONFAULTHANDLER=1   # rerun: the crashing frames are printed\n" \
	"python -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.nccl.version())'   # on every node: one torch, one NCCL" \
	}
		EXIT_SEGV_VARIANT("exitcode: -11"),
		EXIT_SEGV_VARIANT("exitcode  : -11"),	/* ChildFailedError's report */
#undef EXIT_SEGV_VARIANT
#define EXIT_BUS_VARIANT(w) { .when = w, \
	.title = "a worker died of a bus error (exitcode -7): shared memory could not be backed", \
	.cause = "SIGBUS when touching shared memory: /dev/shm is full or too small (a container's 64 MB " \
	"default), used by NCCL and by DataLoader workers", \
	.fix = "df -h /dev/shm   # on the node\ndocker run --shm-size=16g ...   # or --ipc=host; Kubernetes: an emptyDir with medium: Memory at /dev/shm" \
	}
		EXIT_BUS_VARIANT("exitcode: -7"),
		EXIT_BUS_VARIANT("exitcode  : -7"),	/* ChildFailedError's report */
#undef EXIT_BUS_VARIANT
#define EXIT_ABRT_VARIANT(w) { .when = w, \
	.title = "a worker aborted (exitcode -6, SIGABRT)", \
	.cause = "the worker called abort(): torch's NCCL watchdog tearing the process down after a " \
	"timeout or NCCL error, a C++ exception nobody caught, or a failed assertion; the lines before " \
	"it name which", \
	.fix = "read the worker's last lines before the abort: a watchdog timeout or NCCL error there is the cause" \
	}
		EXIT_ABRT_VARIANT("exitcode: -6"),
		EXIT_ABRT_VARIANT("exitcode  : -6"),	/* ChildFailedError's report */
#undef EXIT_ABRT_VARIANT
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
	.anchors = { "death signal, shutting down workers", "SignalException: Process", "Got termination signal: " },
	.unless = "SIGHUP" SIG_UNTIL "Received 1 death" SIG_UNTIL "got signal: 1\n",
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
		SIGTERM_VARIANT("got signal: 15"),	/* SignalException: Process N got signal: 15 */
#undef SIGTERM_VARIANT
		{ .when = "SIGINT",
		  .title = "torchrun itself received SIGINT (Ctrl-C) and stopped its workers",
		  .cause = "an interrupt from the terminal (or a kill -INT) stops torchrun, and it stops its workers",
		  .fix = "nohup torchrun ... > train.log 2>&1 &   # a run that must outlive the terminal; or submit it to the scheduler" },
		{ .when = NULL },
	},
},
{
	/* elastic/agent/server/api.py: a node's workers finished and its agent waited at the exit
	 * barrier (default 300 s) for the other agents; "Error waiting on exit barrier. Elapsed: N
	 * seconds", usually with the store's Socket Timeout below it */
	.id = "torch.elastic.exit_barrier",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "Error waiting on exit barrier" },
	.title = "this node finished, and the other nodes did not finish within torchrun's exit barrier",
	.cause = "torchrun's agents wait for each other after their workers exit; another node's workers were still "
		"running past the barrier's timeout (a final checkpoint or evaluation on some ranks only) or had "
		"failed or hung",
	.fix = "read the other nodes' logs: a failure there is the cause; if they were still working at the end, this is harmless\n"
		"dist.barrier(); dist.destroy_process_group()   # at the end of the script: every rank finishes together",
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
	.anchors = { "closing signal SIGTERM", "Worker group FAILED", "forcefully exiting via" },
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
		     "Guessing device ID based on global rank",
		     "as device used by this process is currently unknown" },
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
	/* distributed_c10d.py: init_process_group when the default group exists already */
	.id = "torch.pg.init_twice",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "trying to initialize the default process group twice" },
	.title = "init_process_group() was called twice in one process",
	.cause = "the default process group exists already: the script calls init_process_group and so does a "
		"library or framework it uses (Lightning, Accelerate, DeepSpeed, a trainer), or it is called in a loop",
	.fix = "if not dist.is_initialized(): dist.init_process_group('nccl')   # guard the script's own call\n"
		"let only one layer set up distributed: the framework's launcher or the script, not both",
},
{
	/* distributed_c10d.py: init_process_group / new_group arguments that cannot fit together */
	.id = "torch.pg.init_args",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Cannot specify both init_method and store", "must be positive if using store",
		     "must be non-negative if using store", "Invalid backend: '", "rank should be in the interval [0,",
		     "The new group's rank should be within the world_size",
		     "has node-specific arguments(rank, world_size) already" },
	.title = "init_process_group() or new_group() got arguments that do not fit together",
	.cause = "the message names the argument: a store needs rank= and world_size=, init_method and store "
		"exclude each other, the backend name is not one torch knows, or a rank lies outside the group",
	.fix = "dist.init_process_group('nccl', store=store, rank=rank, world_size=world_size)   # with a store: rank and world_size, no init_method\n"
		"python -c 'import os; print({k: os.environ.get(k) for k in (\"RANK\", \"WORLD_SIZE\", \"LOCAL_RANK\")})'   # in the failing process: the values the launcher gave",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "Invalid backend: '",
		  .title = "init_process_group() got a backend name torch does not know",
		  .cause = "the backend string is not nccl, gloo, mpi, ucc, xccl or a registered third-party backend: "
			"a typo, or a plugin backend whose package was not imported",
		  .fix = "dist.init_process_group(backend='nccl')   # or 'gloo', or 'cuda:nccl,cpu:gloo'" },
		{ .when = "rank should be in the interval [0,",
		  .title = "a rank number lies outside the process group",
		  .cause = "a collective or new_group named a rank that is not below the group's world size: a global "
			"rank used on a subgroup, or WORLD_SIZE smaller than the ranks launched",
		  .fix = "dist.get_global_rank(group, group_rank)   # subgroups count their own ranks from 0\n"
			"start every node with the same --nnodes and --nproc-per-node (WORLD_SIZE = nodes x processes)" },
		{ .when = "has node-specific arguments(rank, world_size) already",
		  .title = "rank or world_size was given twice: in the init_method URL and as arguments",
		  .cause = "rendezvous adds init_process_group's rank= and world_size= to the URL, and refuses a URL whose "
			"query has them already",
		  .fix = "dist.init_process_group('nccl', init_method='tcp://<rank-0 IP>:29500', rank=rank, world_size=world_size)   # the URL without ?rank=...&world_size=..." },
		{ .when = "The new group's rank should be within the world_size",
		  .title = "new_group() got a rank outside the world size",
		  .cause = "a rank listed for new_group is not below the world size init_process_group set",
		  .fix = "dist.new_group(ranks=[r for r in ranks if r < dist.get_world_size()])   # and check how the list is built on every rank" },
		{ .when = NULL },
	},
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
	/* python-etcd's "EtcdConnectionFailed: No more machines in the cluster": the etcd backend's
	 * endpoint answers nowhere */
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NET,
	.anchors = { "RendezvousConnectionError", "EtcdConnectionFailed" },
	.unless = "keep-alive heartbeat to the rendezvous" SIG_UNTIL "failed to shutdown the rendezvous",
	.title = "torchrun could not reach its rendezvous endpoint",
	.cause = "--rdzv-endpoint is wrong or not reachable from this node, or its port is firewalled",
	.fix = "nc -zv <rdzv host> <rdzv port>   # from this node\ntorchrun --rdzv-endpoint=<rank-0 private IP>:29400 ...",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* elastic/rendezvous (api.py, utils.py, c10d_rendezvous_backend.py, dynamic_rendezvous.py,
	 * static_tcp_rendezvous.py): torchrun's --rdzv-* arguments rejected before any node is contacted */
	.id = "torch.rdzv.config",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "is not registered. Did you forget", "number of rendezvous nodes (", "The rendezvous configuration ",
		     "of the rendezvous endpoint '", "is absent in RendezvousParameters",
		     "The read timeout must be a positive integer", "The join timeout (",
		     "Invalid store type given. Currently only supports file and tcp" },
	.title = "torchrun's rendezvous arguments are invalid",
	.cause = "torchrun checks --rdzv-backend, --rdzv-endpoint, --rdzv-conf and --nnodes before it contacts "
		"anyone; the message names the argument that does not parse",
	.fix = "torchrun --nnodes=<N> --nproc-per-node=<GPUs> --rdzv-backend=c10d --rdzv-endpoint=<rank-0 IP>:29400 --rdzv-id=<job id> train.py   # the same on every node\n"
		"torchrun ... --rdzv-conf=read_timeout=120,is_host=false   # --rdzv-conf: key=value pairs joined by commas",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "of the rendezvous endpoint '",
		  .title = "--rdzv-endpoint is not host:port",
		  .cause = "--rdzv-endpoint must be <hostname or IP>[:<port below 65536>]; the value given has another "
			"form (a URL scheme, a path, a variable that did not expand)",
		  .fix = "torchrun --rdzv-endpoint=<rank-0 IP>:29400 ...   # no tcp://, no trailing slash" },
		{ .when = "is absent in RendezvousParameters",
		  .title = "static rendezvous without --node-rank or --master-addr/--master-port",
		  .cause = "with --rdzv-backend=static (the default without --rdzv-backend) every node needs its "
			"--node-rank and the master's --master-addr and --master-port",
		  .fix = "torchrun --nnodes=<N> --node-rank=<this node, 0..N-1> --master-addr=<node-0 IP> --master-port=29500 ...\n"
			"torchrun --nnodes=<N> --rdzv-backend=c10d --rdzv-endpoint=<node-0 IP>:29400 ...   # or c10d rendezvous: no node rank needed" },
		{ .when = "is not registered. Did you forget",
		  .title = "--rdzv-backend names a rendezvous backend torchrun does not have",
		  .cause = "torchrun knows c10d, static and etcd/etcd-v2; another name (a typo), or a custom backend that "
			"was not registered, is rejected",
		  .fix = "torchrun --rdzv-backend=c10d --rdzv-endpoint=<rank-0 IP>:29400 ..." },
		{ .when = "number of rendezvous nodes (",
		  .title = "--nnodes is not a valid MIN:MAX",
		  .cause = "--nnodes must be N or MIN:MAX with 1 <= MIN <= MAX",
		  .fix = "torchrun --nnodes=2 ...   # or --nnodes=1:4 for elastic jobs" },
		{ .when = NULL },
	},
},
{
	/* dynamic_rendezvous.py: "The node '<node>' has failed to send a keep-alive heartbeat to the
	 * rendezvous '<id>' due to an error of type RendezvousConnectionError." -- the rendezvous had
	 * completed; its store (in the agent on the --rdzv-endpoint node) went away afterwards */
	.id = "torch.elastic.rendezvous_lost",
	.sev = SEV_WARN, .conf = CONF_MEDIUM, .flags = SIG_SYMPTOM,
	.anchors = { "keep-alive heartbeat to the rendezvous", "failed to shutdown the rendezvous" },
	.title = "this node lost the rendezvous store after the rendezvous had completed",
	.cause = "the c10d rendezvous store lives in the torchrun agent on the --rdzv-endpoint node; that agent "
		"exited (its workers failed, it was killed, or it finished first) or the node became unreachable",
	.fix = "read the log of the node named by --rdzv-endpoint: its first error is the cause\n"
		"at the end of a job that otherwise finished, a shutdown failure here is noise",
	.variants = (const struct explain_sig_variant[]){
		{ .when = "failed to shutdown the rendezvous",
		  .title = "torchrun could not close the rendezvous at exit: its store had already gone",
		  .cause = "at shutdown the agent tells the rendezvous store that it leaves; the agent hosting the store "
			"(on the --rdzv-endpoint node) had exited already, which is usual when that node finished first",
		  .fix = "nothing to do when the job finished; otherwise read the --rdzv-endpoint node's log for its first error" },
		{ .when = NULL },
	},
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
	.anchors = { "Unable to find address for hostname", "; bind(2) for " },
	.cap_after = "hostname: ",
	.cap_stop = " ",
	.title = "Gloo could not resolve this node's hostname ({})",
	.cause = "without GLOO_SOCKET_IFNAME Gloo binds to the address the hostname resolves to; this hostname is "
		"in neither /etc/hosts nor DNS (containers and cloud images with generated names)",
	.fix = FIX_GLOO_IFNAME "   # on every node: Gloo then needs no name resolution\n"
		"echo \"$(hostname -I | cut -d' ' -f1) $(hostname)\" | sudo tee -a /etc/hosts   # or make the name resolve to the node's own address",
	.rerun = RERUN_TORCH,
	.check = EXPLAIN_CHECK_NODE,
	.variants = (const struct explain_sig_variant[]){
		/* gloo device.cc: "Unable to find address for <host>; bind(2) for <addr> failed with: ..." */
		{ .when = "; bind(2) for ",
		  .title = "this node's hostname resolves to an address Gloo cannot bind: not one of this host's own",
		  .cause = "without GLOO_SOCKET_IFNAME Gloo binds to the address the hostname resolves to; that address "
			"is not on this host (a stale /etc/hosts entry, a DNS record of another or an old address, a "
			"container that inherited the host's /etc/hosts)",
		  .fix = FIX_GLOO_IFNAME "   # on every node: Gloo then binds the interface's own address\n"
			"getent hosts $(hostname); ip -o addr   # the first address must be one of this host's" },
		{ .when = NULL },
	},
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
	/* gloo's connectLoop (2024+): "timed out connecting: SO_ERROR: <errno text>, remote=[addr]:port",
	 * and its retry warning "failed to connect, willRetry=..." */
	.anchors = { "Gloo connectFullMesh failed", "timed out connecting: SO_ERROR", "failed to connect, willRetry=" },
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
	/* pair.cc: EOF, a reset ("Read error [peer]: ..."), a failed write ("writev [peer]: Broken pipe") */
	.anchors = { "Connection closed by peer [", "Socket closed [", "Socket unexpectedly closed [", "Read error [",
		     "writev [" },
	.cap_after = "closed by peer [" SIG_UNTIL "Socket closed [" SIG_UNTIL "unexpectedly closed [" SIG_UNTIL "Read error ["
		SIG_UNTIL "writev [",
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
	/* run.py: torchrun's own argument checks (--nproc-per-node, --nnodes, --local-ranks-filter) */
	.id = "torch.launch.args",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Unsupported nproc_per_node value", "is not in \"MIN:MAX\" format",
		     "--local-ranks-filter must be a comma-separated list" },
	.title = "torchrun rejected its command line",
	.cause = "the message names the argument torchrun cannot parse: --nproc-per-node takes a number, gpu, "
		"cpu or auto, --nnodes takes N or MIN:MAX",
	.fix = "torchrun --nnodes=<N> --nproc-per-node=<GPUs per node> ... train.py\n"
		"echo \"$NNODES $NPROC_PER_NODE\"   # when the values come from variables: they must have expanded",
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
	/* "You requested GPUs:" is the text before 2020 (pytorch_lightning/utilities/device_parser.py) */
	.anchors = { "You requested gpu:", "You requested GPUs:" },
	.cap_after = "You requested gpu: " SIG_UNTIL "You requested GPUs: ",
	.cap_stop = SIG_UNTIL " But your machine",
	.title = "Lightning was asked for GPUs {} this node does not have",
	.cause = "Trainer(devices=...) names more or other GPUs than are visible on this node",
	.fix = "nvidia-smi -L   # then Trainer(devices=<that count>) or devices='auto'",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* the count forms: find_usable_cuda_devices() (Fabric and Trainer's devices='auto' helpers) and
	 * the 1.x tuner's auto_select_gpus */
	.id = "lightning.gpu_count",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "devices but this machine only has", "GPUs but your machine only has" },
	.cap_after = "only has ",
	.cap_stop = ".",
	.title = "Lightning was asked for more GPUs than this node has ({})",
	.cause = "the count passed to devices (or find_usable_cuda_devices/auto_select_gpus) is larger than the "
		"GPUs this process sees: fewer GPUs on the node, or CUDA_VISIBLE_DEVICES/the scheduler's GPU "
		"allocation hides some",
	.fix = "nvidia-smi -L; echo $CUDA_VISIBLE_DEVICES   # the GPUs this process may use\n"
		"Trainer(devices=<that count>)   # or request more: #SBATCH --gpus-per-node=<count>",
	.check = EXPLAIN_CHECK_NODE,
},
{
	/* find_usable_cuda_devices(): allocating a tensor failed on the other GPUs */
	.id = "lightning.gpus_busy",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "are occupied by other processes and can't be used at the moment" },
	.cap_after = "The devices ",
	.cap_stop = SIG_UNTIL " are occupied",
	.title = "Lightning found GPUs {} unusable: a tensor could not be put on them",
	.cause = "Lightning tries a small allocation on each GPU; it failed on these, usually because another "
		"process holds them in EXCLUSIVE_PROCESS compute mode or has filled their memory (a leftover run), "
		"less often because the GPU is in an error state",
	.fix = "nvidia-smi --query-compute-apps=pid,gpu_uuid,used_memory --format=csv   # who holds them\n"
		"nvidia-smi --query-gpu=index,compute_mode --format=csv   # Exclusive_Process allows one process per GPU",
	.check = EXPLAIN_CHECK_NODE,
},
{
	.id = "lightning.accelerator_unavailable",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "can not run on your system since the accelerator is not available",
		     "GPUs requested but none are available", "there are no visible CUDA devices on this machine",
		     "No supported gpu backend found" },
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
	/* torchelastic.py: TORCHELASTIC_RUN_ID is set (torchrun, or inherited) but MASTER_ADDR is not */
	.id = "lightning.master_addr_default",
	.sev = SEV_WARN, .conf = CONF_MEDIUM,
	.anchors = { "MASTER_ADDR environment variable is not defined. Set as localhost",
		     "MASTER_PORT environment variable is not defined. Set as 12910" },
	.title = "Lightning found no MASTER_ADDR/MASTER_PORT and used localhost:12910",
	.cause = "Lightning saw a torchelastic launch without MASTER_ADDR/MASTER_PORT; each node then looks for "
		"rank 0 on itself, so with more than one node the ranks never meet (one node alone is fine)",
	.fix = "torchrun --nnodes=<N> --node-rank=<0..N-1> --master-addr=<node 0's address> --master-port=29500 train.py\n"
		"export MASTER_ADDR=<node 0's address> MASTER_PORT=29500   # when another launcher starts the ranks",
},
{
	/* lsf.py: LSFEnvironment reads jsrun's JSM_NAMESPACE_* and LSF's LSB_* variables */
	.id = "lightning.lsf.not_jsrun",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Make sure you run your executable with `jsrun`", "the environment variable `LSB_DJOB_RANKFILE`",
		     "The environment variable `LSB_DJOB_RANKFILE` is empty",
		     "Could not find job id in environment variable LSB_JOBID" },
	.title = "Lightning's LSF environment lacks the variables jsrun and bsub set",
	.cause = "Lightning chose its LSF cluster environment but the process was not started by jsrun inside a "
		"bsub job: the rank and size variables (JSM_NAMESPACE_*) or the job's rank file (LSB_DJOB_RANKFILE) "
		"it reads are missing",
	.fix = "jsrun --nrs <nodes x GPUs per node> --tasks_per_rs 1 --gpu_per_rs 1 --rs_per_host <GPUs per node> python train.py   # inside the bsub job",
},
{
	.id = "lightning.num_nodes",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "`num_nodes` must be a positive integer, but got" },
	.cap_after = "but got ",
	.title = "Lightning's num_nodes is not a positive integer ({})",
	.cause = "num_nodes was 0, negative or not an integer, often read from a variable that was not set "
		"(e.g. int(os.environ.get('SLURM_NNODES', 0)) outside the job)",
	.fix = "Trainer(num_nodes=<number of nodes>)   # e.g. int(os.environ['SLURM_NNODES']) inside the Slurm job",
},
{
	.id = "lightning.devices_zero",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "` value is not a valid input using" },
	.cap_after = "(devices=",
	.cap_stop = ")",
	.title = "Lightning was given devices={}, which selects no device",
	.cause = "devices=0, [] or \"0\" selects no device of the chosen accelerator; often a GPU count read "
		"from a variable that was empty on this node",
	.fix = "Trainer(devices=<GPUs per node>)   # or devices='auto'; for CPU only: Trainer(accelerator='cpu')",
},
{
	.id = "lightning.interactive",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "is not compatible with an interactive environment" },
	.title = "Lightning's strategy cannot run in a notebook or interactive session",
	.cause = "ddp and the other strategies start each rank as a new run of the script, which a Jupyter "
		"notebook or an interactive interpreter does not have",
	.fix = "python train.py   # run it as a script (torchrun or srun for several nodes)\n"
		"Trainer(strategy='ddp_notebook')   # to stay in the notebook: one node only",
},
{
	.id = "lightning.interactive_one_gpu",
	.sev = SEV_WARN, .conf = CONF_HIGH,
	.anchors = { "GPUs because it is running inside an interactive / notebook environment" },
	.title = "Lightning uses one GPU only: it runs in a notebook or interactive session",
	.cause = "in an interactive session Lightning falls back to a single device unless devices is given",
	.fix = "python train.py   # a script uses all GPUs; or Trainer(devices=<count>) in the notebook (ddp_notebook)",
},
{
	.id = "lightning.fork_unsupported",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "but process forking is not supported on this platform" },
	.title = "Lightning's fork strategy is not available on this platform",
	.cause = "ddp_fork/ddp_notebook fork the main process, which Windows (and macOS' default) does not offer",
	.fix = "Trainer(strategy='ddp_spawn')   # or strategy='ddp' when run as a script",
},
{
	.id = "lightning.fabric_cli_conflict",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "set through the CLI.  Remove it either from the CLI or from the Lightning Fabric object",
		     "set through the CLI. Remove it either from the CLI or from the Lightning Fabric object" },
	.title = "Fabric's arguments in the code contradict those of `fabric run`",
	.cause = "a setting (devices, num_nodes, strategy, accelerator, precision) is given both in Fabric(...) "
		"and on the fabric run command line with different values",
	.fix = "Fabric()   # leave the setting to the command line: fabric run --devices=<n> --num-nodes=<N> train.py",
},
{
	.id = "lightning.no_distributed",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "torch.distributed is not available. Cannot initialize distributed process group" },
	.title = "this PyTorch build has no torch.distributed",
	.cause = "torch was built without distributed support (USE_DISTRIBUTED=0: some macOS, Windows or "
		"custom builds), so Lightning cannot start a process group",
	.fix = "python -c 'import torch.distributed as d; print(d.is_available())'   # must print True\n"
		"pip install torch --index-url https://download.pytorch.org/whl/cu124   # an official Linux CUDA build",
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
	/* DeepSpeed's runner (parse_resource_filter): an --include/--exclude slot the resource pool
	 * lacks; older releases spell it "specificied" and print no quotes */
	.id = "deepspeed.no_slot",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "specificied on host", "' specified on host '" },
	.title = "DeepSpeed's --include names a GPU slot that host does not have",
	.cause = "the deepspeed launcher numbers each host's GPUs 0..slots-1 from the hostfile's slots=N (without a "
		"hostfile, from the GPUs it sees), and --include (also built from CUDA_VISIBLE_DEVICES) names one past "
		"them: a slots count lower than the host's GPUs, GPU ids hard-coded in a script for another machine, or "
		"CUDA_VISIBLE_DEVICES holding indices the launcher renumbered",
	.fix = "cat hostfile   # 'node-0 slots=N': N is the host's GPU count, not the GPUs you want to use\n"
		"deepspeed --include localhost:0,2 train.py ...   # pick the GPUs here, by nvidia-smi index, with CUDA_VISIBLE_DEVICES unset",
},
{
	/* DeepSpeed's runner: its ssh check of every hostfile host failed before launch */
	.id = "deepspeed.ssh_unreachable",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "was not reachable via ssh" },
	.title = "DeepSpeed could not reach a hostfile host with ssh",
	.cause = "before launching, the deepspeed runner runs 'ssh -o PasswordAuthentication=no <host> hostname' for "
		"each hostfile host; it fails when the host name does not resolve from the launching node, passwordless "
		"ssh is not set up for that user, or sshd is not reachable on port 22",
	.fix = "ssh -v -o PasswordAuthentication=no <host> hostname   # must print the name without a prompt; "
		"'Could not resolve hostname' means the hostfile name is unknown here\n"
		"use resolvable names or IP addresses in the hostfile and install the launching node's key on every host "
		"(one node only: remove the hostfile)",
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
	/* accelerate launch (commands/launch.py): it disabled P2P and IB itself */
	.id = "accelerate.rtx4000_disabled",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "Ensuring P2P and IB communications are disabled" },
	.title = "benign: accelerate launch turned NCCL's P2P and InfiniBand off for RTX 40xx GPUs",
	.cause = "these GeForce boards have no GPU peer-to-peer; accelerate sets NCCL_P2P_DISABLE=1 and "
		"NCCL_IB_DISABLE=1 so that NCCL goes through host memory instead",
	.fix = "nothing to do on one node; across nodes without InfiniBand NCCL uses TCP sockets",
},
{
	/* accelerate (utils/launch.py): asserts of prepare_multi_gpu_env when --num_machines > 1 */
	.id = "accelerate.main_process",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "When using multiple machines, you need to specify the main process" },
	.title = "accelerate launch on several machines needs the main process's address and port",
	.cause = "with --num_machines above 1 every machine must be told where rank 0 listens: "
		"--main_process_ip and --main_process_port (or main_process_ip/main_process_port in the config file)",
	.fix = "accelerate launch --num_machines <N> --machine_rank <0..N-1> --num_processes <GPUs in all> "
		"--main_process_ip <machine 0's address> --main_process_port 29500 train.py   # each machine its own --machine_rank",
},
{
	/* accelerate (utils/launch.py): machine 0 of a multi-machine launch found its port taken */
	.id = "accelerate.port_in_use",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "but another process is utilizing it" },
	.cap_after = "on port `",
	.cap_stop = "`",
	.title = "accelerate launch's main process port {} is already taken on machine 0",
	.cause = "another process on machine 0 listens on --main_process_port: a previous run that has not "
		"exited yet, or another job's launcher",
	.fix = "ss -ltnp 'sport = :29500'   # on machine 0: who holds the port\n"
		"accelerate launch --main_process_port <a free port> ...   # the same port on every machine",
},
{
	/* accelerate (utils/launch.py): one machine only, so it picked another port itself */
	.id = "accelerate.port_in_use_standalone",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "Accelerate will attempt to launch in a standalone-like mode" },
	.title = "benign: accelerate launch found its port taken and picked a free one (one machine)",
	.cause = "on a single machine accelerate moves to a free port by itself; only a problem if the launch fails afterwards",
	.fix = "accelerate launch --main_process_port 0 ...   # optional: always choose a free port",
},
{
	/* accelerate (state.py): a multi-CPU (MPI/oneCCL) run over several nodes without MASTER_ADDR */
	.id = "accelerate.master_addr",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "Tried to launch on distributed with multinode, but `MASTER_ADDR` env was not set" },
	.title = "accelerate's multi-node CPU run has no MASTER_ADDR",
	.cause = "the ranks were started by mpirun on several nodes (local size below world size), which does "
		"not tell them where rank 0 is",
	.fix = "export MASTER_ADDR=<rank 0's hostname> MASTER_PORT=29500   # on the launching node\n"
		"mpirun -x MASTER_ADDR -x MASTER_PORT ...   # passes them to every rank",
},
{
	.id = "accelerate.mpirun_missing",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "mpirun or mpiexec were not found" },
	.title = "accelerate launch with an MPI hostfile found no mpirun",
	.cause = "--mpirun_hostfile starts the ranks through mpirun/mpiexec, and neither is on PATH",
	.fix = "which mpirun mpiexec   # install Open MPI or Intel MPI, or load its module (module load openmpi)",
},
{
	.id = "accelerate.multi_gpu_count",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "You need to use at least 2 processes to use `--multi_gpu`",
		     "Less than two GPU ids were configured and tried to run on multiple GPUs" },
	.title = "accelerate launch --multi_gpu was given fewer than two processes or GPUs",
	.cause = "--multi_gpu needs at least two processes: --num_processes (all machines together) or "
		"--gpu_ids (this machine) names fewer",
	.fix = "accelerate launch --multi_gpu --num_processes <GPUs on all machines> --gpu_ids all train.py",
},
{
	.id = "accelerate.num_processes_config",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "You need to manually pass in `--num_processes` using this config yaml" },
	.title = "accelerate's config file leaves the process count to the command line",
	.cause = "the config file has num_processes: -1, so accelerate launch needs --num_processes",
	.fix = "accelerate launch --config_file <file> --num_processes <GPUs on all machines> train.py",
},
{
	.id = "accelerate.one_paradigm",
	.sev = SEV_ERROR, .conf = CONF_HIGH,
	.anchors = { "You can only use one of `--cpu`, `--multi_gpu`, `--tpu`" },
	.title = "accelerate launch was given more than one of --cpu, --multi_gpu, --tpu, --use_deepspeed, --use_fsdp",
	.cause = "these flags each choose the launcher; accelerate takes exactly one",
	.fix = "accelerate launch --use_deepspeed --num_processes <n> train.py   # keep one of them (DeepSpeed and FSDP runs already use several GPUs)",
},
{
	.id = "accelerate.backend",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM,
	.anchors = { "is not available, please use" },
	.also = "Your assigned backend",
	.cap_after = "Your assigned backend ",
	.cap_stop = " ",
	.title = "accelerate cannot use the distributed backend {} on this machine",
	.cause = "the backend asked for (Accelerator/PartialState backend=) is not built into this torch or "
		"needs a device this machine does not have (nccl without a CUDA GPU)",
	.fix = "python -c 'import torch, torch.distributed as d; print(torch.cuda.is_available(), d.is_nccl_available())'\n"
		"Accelerator()   # leave the backend out: accelerate picks the one this machine supports",
},
{
	/* accelerate (commands/launch.py): a summary of the defaults it filled in */
	.id = "accelerate.launch_defaults",
	.sev = SEV_INFO, .conf = CONF_MEDIUM, .flags = SIG_BENIGN,
	.anchors = { "were not passed to `accelerate launch` and had defaults used instead" },
	.title = "benign: accelerate launch filled in defaults for missing flags",
	.cause = "harmless on one machine; for a multi-machine run, `--num_machines` set to 1 means each "
		"machine started its own single-machine job",
	.fix = "accelerate config   # or pass --num_machines, --machine_rank, --num_processes explicitly",
},
{
	.id = "accelerate.omp_threads",
	.sev = SEV_INFO, .conf = CONF_HIGH, .flags = SIG_BENIGN,
	.anchors = { "OMP_NUM_THREADS/MKL_NUM_THREADS unset, we set it at" },
	.title = "benign: accelerate set OMP_NUM_THREADS for its CPU processes",
	.cause = "accelerate's default thread count per process on CPU runs; only performance-relevant",
	.fix = "export OMP_NUM_THREADS=<cores per process>   # optional",
},
{
	/* accelerate (utils/other.py), huggingface/accelerate#1929: hangs of multi-process runs on old kernels */
	.id = "accelerate.old_kernel",
	.sev = SEV_WARN, .conf = CONF_MEDIUM,
	.anchors = { "which is below the recommended minimum of" },
	.also = "Detected kernel version",
	.cap_after = "Detected kernel version ",
	.cap_stop = ",",
	.title = "this node's Linux kernel {} is older than accelerate recommends",
	.cause = "accelerate has seen multi-process runs hang on kernels below its minimum (5.5); a hang on "
		"this node may come from that, not from the network",
	.fix = "uname -r   # upgrade the kernel (or the node image) to 5.5 or later",
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
	/* libgdrapi: NCCL_GDRCOPY_ENABLE's optional library (nccl.gdrcopy.failed), not the launch */
	.unless = "libnccl-net" SIG_UNTIL "NET/Plugin" SIG_UNTIL "libibverbs" SIG_UNTIL "libnvidia-ml"
		SIG_UNTIL "libgdrapi",
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
	/* plugin/net.cc ncclNetInitFromParent (2.28.7+): a communicator split (or shrunk) that shares its parent's
	 * resources (splitShare / NCCL_COMM_SPLIT_SHARE_RESOURCES=1) also shares its network, so a
	 * config.netName naming another one is refused */
	.id = "nccl.config.netname_split",
	.sev = SEV_ERROR, .conf = CONF_HIGH, .flags = SIG_NCCL,
	.anchors = { "does not match the parent" },
	.also = "netName",
	.title = "a child communicator asks for another network (config netName) than the parent whose resources it shares",
	.cause = "a communicator created by ncclCommSplit/ncclCommShrink with resource sharing on (config.splitShare=1 "
		"or NCCL_COMM_SPLIT_SHARE_RESOURCES=1) uses its parent's network plugin; its ncclConfig_t netName names "
		"another network, which NCCL refuses",
	.fix = "leave netName unset in the child's ncclConfig_t, or set it to the parent's\n"
		"unset NCCL_COMM_SPLIT_SHARE_RESOURCES   # or config.splitShare=0: the child then opens its own network",
},
{
	/* init.cc parseCommConfig: a field of the caller's ncclConfig_t out of range (the NCCL_*
	 * environment equivalents are checked and ignored separately, with an INFO line); the
	 * blocking field's garbage value is nccl.config.mismatch */
	.id = "nccl.config.invalid",
	.sev = SEV_ERROR, .conf = CONF_MEDIUM, .flags = SIG_NCCL,
	.anchors = { "Invalid config ", "Invalig config " },
	.also = "attribute value",	/* other software's "Invalid config file" is not NCCL's */
	.unless = "blocking attribute",
	.cap_after = "nvalid config " SIG_UNTIL "nvalig config ",
	.cap_stop = SIG_UNTIL " attribute",
	.title = "NCCL rejected a communicator's config: the {} field of ncclConfig_t has a value out of range",
	.cause = "the code that creates the communicator fills ncclConfig_t (torch: ProcessGroupNCCL.Options().config "
		"or init_process_group's pg_options; JAX, DeepSpeed or an extension likewise) with a value NCCL does not "
		"accept: a negative or zero CTA count, a flag other than 0/1, or a struct not started from "
		"NCCL_CONFIG_INITIALIZER; NCCL then fails the init with invalid argument",
	.fix = "grep -rn -e pg_options -e 'config\\.' -e NCCL_CONFIG_INITIALIZER <your code>   # where the field named in the title is set: give it a valid value or leave it unset\n"
		"use the environment equivalents (NCCL_MIN_CTAS, NCCL_MAX_CTAS, NCCL_CGA_CLUSTER_SIZE) instead of the config field: NCCL checks those itself and ignores a bad value",
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
/* the segment creation failure is the cause either way; before 2.18.3 NCCL then crashed on the
 * half-made segment instead of returning an error */
{
	.id = "nccl.known_bug.shm_create_crash_2183",
	.from = 0, .to = 21803, .fixed_in = "2.18.3",
	.symptom = "nccl.shm.create", .needs = KB_NEED_SEGFAULT | KB_MEDIUM, .version_required = 1,
	.title = "NCCL crashed after its /dev/shm segment could not be created: a known NCCL bug before 2.18.3 (fixed in 2.18.3)",
	.cause = "NCCL before 2.18.3 crashed when creating its shared-memory segment failed instead of reporting "
		"the error; the failure itself (a small or full /dev/shm) is still the thing to fix",
	.fix = "docker run --ipc=host ...   # or --shm-size=16g: the segment creation must succeed\n"
		"upgrade NCCL to 2.18.3 or later (pip install -U nvidia-nccl-cu12)   # it then reports the error instead of crashing",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.18.3-1",
},
/* resource sharing came with ncclCommSplit in 2.18.1 */
{
	.id = "nccl.known_bug.split_share_hang_2262",
	.from = 21801, .to = 22602, .fixed_in = "2.26.2",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_SPLIT_SHARE | KB_MEDIUM, .version_required = 1,
	.title = "a hang with NCCL_COMM_SPLIT_SHARE_RESOURCES=1 and NCCL 2.18-2.25: a known race in connection set-up (fixed in 2.26.2)",
	.cause = "NCCL 2.18.1-2.25 could hang during connection set-up when several communicators that share "
		"resources (split with NCCL_COMM_SPLIT_SHARE_RESOURCES=1) were set up in one group",
	.fix = "unset NCCL_COMM_SPLIT_SHARE_RESOURCES   # or =0: split communicators get their own resources\n"
		"upgrade NCCL to 2.26.2 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.26.2-1",
},
{
	.id = "nccl.known_bug.split_share_corruption_2273",
	.from = 21801, .to = 22703, .fixed_in = "2.27.3",
	.symptom = "sys.heap_corruption", .needs = KB_NEED_SPLIT_SHARE | KB_MEDIUM, .version_required = 1,
	.title = "memory corruption with NCCL_COMM_SPLIT_SHARE_RESOURCES=1 before NCCL 2.27.3: a known ncclCommSplit bug (fixed in 2.27.3)",
	.cause = "NCCL 2.18.1-2.27.2 could corrupt memory in ncclCommSplit() when the split communicator shares "
		"its parent's resources and spans a smaller NVLink domain than the parent",
	.fix = "unset NCCL_COMM_SPLIT_SHARE_RESOURCES   # or =0: split communicators get their own resources\n"
		"upgrade NCCL to 2.27.3 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.27.3-1",
},
/* graph capture since 2.9; 2.19.0-2.19.3 also meet cumem_cudagraph_memory's cuMem growth */
{
	.id = "nccl.known_bug.graph_capture_leak_2194",
	.from = 20900, .to = 21904, .fixed_in = "2.19.4",
	.symptom = "cuda.oom", .needs = KB_NEED_CUDAGRAPH | KB_MEDIUM, .version_required = 1,
	.title = "out of GPU memory with CUDA graphs before NCCL 2.19.4: a known NCCL leak on graph capture (fixed in 2.19.4)",
	.cause = "NCCL before 2.19.4 leaked memory each time NCCL operations were captured into a CUDA graph, "
		"so repeated captures (recompiles, new shapes) run the GPU out of memory",
	.fix = "upgrade NCCL to 2.19.4 or later (pip install -U nvidia-nccl-cu12)\n"
		"capture each graph once and replay it   # every new capture leaks on the affected releases",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.19.4-1",
},
/* NCCL_NET_GDR_C2C arrived in 2.26.2; an init failure only across several MNNVL domains */
{
	.id = "nccl.known_bug.gdr_c2c_mnnvl_2263",
	.from = 22602, .to = 22603, .fixed_in = "2.26.3",
	.symptom = "nccl.error.internal", .needs = KB_NEED_GDR_C2C | KB_NEED_ARM | KB_MEDIUM,
	.or_needs = KB_NEED_NCCL_ERROR | KB_NEED_GDR_C2C | KB_NEED_ARM, .version_required = 1,
	.title = "NCCL init failed with NCCL_NET_GDR_C2C=1 on NCCL 2.26.2: a known bug across MNNVL domains (fixed in 2.26.3)",
	.cause = "NCCL 2.26.2 failed to initialise with NCCL_NET_GDR_C2C=1 when the job spans several MNNVL "
		"(GB200 NVL) domains whose nodes have different network configurations",
	.fix = "unset NCCL_NET_GDR_C2C   # or =0\n"
		"upgrade NCCL to 2.26.3 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.26.3-1",
},
/* multi-node NVLink support came in 2.20.3 */
{
	.id = "nccl.known_bug.topo_file_mnnvl_2273",
	.from = 22003, .to = 22703, .fixed_in = "2.27.3",
	.symptom = "nccl.error.internal", .needs = KB_NEED_TOPO_FILE | KB_NEED_ARM | KB_MEDIUM,
	.or_needs = KB_NEED_NCCL_ERROR | KB_NEED_TOPO_FILE | KB_NEED_ARM, .version_required = 1,
	.title = "NCCL init failed with NCCL_TOPO_FILE on an aarch64 (MNNVL) system with NCCL 2.20-2.27.2: a known bug (fixed in 2.27.3)",
	.cause = "NCCL 2.20.3-2.27.2 failed to initialise when NCCL_TOPO_FILE was used on multi-node NVLink "
		"(GB200 NVL) systems, even with a valid file (a WARN that the file cannot be read or parsed is "
		"a different cause)",
	.fix = "unset NCCL_TOPO_FILE   # NCCL detects the topology itself; try the job without the file\n"
		"upgrade NCCL to 2.27.3 or later (pip install -U nvidia-nccl-cu12)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.27.3-1",
},
/* buffers registered by the user and by graph capture shared one registration record until 2.24.3:
 * freeing one freed the other's */
{
	.id = "nccl.known_bug.reg_graph_crash_2243",
	.from = 0, .to = 22403, .fixed_in = "2.24.3",
	.symptom = "sys.segfault", .needs = KB_NEED_USER_REG | KB_NEED_CUDAGRAPH | KB_MEDIUM, .version_required = 1,
	.title = "a crash with registered buffers and CUDA graphs before NCCL 2.24.3: a known NCCL bug (fixed in 2.24.3)",
	.cause = "NCCL before 2.24.3 could crash when buffers registered by the user (ncclCommRegister, torch's "
		"allocator hook) were also registered by CUDA graph capture, once the buffers were freed",
	.fix = "upgrade NCCL to 2.24.3 or later (pip install -U nvidia-nccl-cu12)\n"
		"export NCCL_GRAPH_REGISTER=0   # or stop registering the buffers yourself: one registration path only",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.24.3-1",
},
/* several network plugins and their assignment to a communicator came in 2.27.3 */
{
	.id = "nccl.known_bug.net_assign_crash_2287",
	.from = 22703, .to = 22807, .fixed_in = "2.28.7",
	.symptom = "nccl.net.not_found", .needs = KB_NEED_SEGFAULT | KB_MEDIUM, .version_required = 1,
	.title = "NCCL crashed after no network plugin could be used (NCCL 2.27.3-2.28.3): a known NCCL bug (fixed in 2.28.7)",
	.cause = "NCCL 2.27.3-2.28.3 could crash when assigning a network plugin to the communicator failed, "
		"instead of returning the error; that no plugin could be used is still the thing to fix",
	.fix = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET   # the lines before 'Failed to initialize any NET plugin' say which plugin failed and why\n"
		"upgrade NCCL to 2.28.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)   # it then reports the error instead of crashing",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.28.7-1",
},
/* several QPs per connection came in 2.10.3; 2.12.10 rounds each QP's share of a message up to
 * 128 bytes, the unit LL128 relies on */
{
	.id = "nccl.known_bug.multi_qp_split_21210",
	.from = 21003, .to = 21210, .fixed_in = "2.12.10",
	.symptom = NULL, .needs = KB_NEED_WRONG | KB_NEED_MULTI_QP | KB_MEDIUM, .version_required = 1,
	.or_needs = KB_NEED_HANG | KB_NEED_MULTI_QP,
	.title = "wrong results or a hang with NCCL_IB_QPS_PER_CONNECTION above 1 before NCCL 2.12.10: a known NCCL bug (fixed in 2.12.10)",
	.cause = "NCCL 2.10.3-2.12.7 split a message over several IB queue pairs in pieces that were not multiples "
		"of 128 bytes, which breaks the LL and LL128 protocols (corrupted data or a hang)",
	.fix = "unset NCCL_IB_QPS_PER_CONNECTION   # the default, one QP per connection\n"
		"upgrade NCCL to 2.12.10 or later (pip install -U nvidia-nccl-cu11)",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.12.10-1",
},
/* symmetric kernels came in 2.27.3 */
{
	.id = "nccl.known_bug.symk_corruption_2287",
	.from = 22703, .to = 22807, .fixed_in = "2.28.7",
	.symptom = NULL, .needs = KB_NEED_WRONG | KB_NEED_SYMMETRIC | KB_MEDIUM, .version_required = 1,
	.title = "wrong results with symmetric-memory windows on NCCL 2.27.3-2.28.3: a known bug in NCCL's symmetric kernels (fixed in 2.28.7)",
	.cause = "NCCL 2.27.3-2.28.3's built-in symmetric kernels could corrupt data for small messages whose size is "
		"not a multiple of 8 bytes, or when several symmetric operations were aggregated in one group",
	.fix = "upgrade NCCL to 2.28.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"register the buffers without NCCL_WIN_COLL_SYMMETRIC   # to test it: the regular kernels are not affected",
	.source = "https://github.com/NVIDIA/nccl/releases/tag/v2.28.7-1",
},
{
	/* NVIDIA/nccl#1808 (a 2.27 log): "socketFinalizeAccept: wrong magic" from an external TCP
	 * request, after which the proxy thread's ncclProxyService hangs. Fix PR #1834 "do not retry
	 * on bad magic when proxy and ras net accept"; maintainer (kiskra-nvidia): "The proposed fix
	 * was accepted and merged to the v2.30u1 branch", released in 2.30.7 (its release notes name
	 * PR #1834). The proxy service thread came with 2.12.7. Beside proxy_stranger_2307, which
	 * needs the reporter to name the scan: here NCCL's own wrong-magic line shows the stranger. */
	.id = "nccl.known_bug.proxy_magic_hang_2307",
	.from = 21207, .to = 23007, .fixed_in = "2.30.7",
	.symptom = "nccl.socket.magic_mismatch", .needs = KB_NEED_HANG | KB_MEDIUM, .version_required = 1,
	.title = "a hang after NCCL dropped a stranger's connection (wrong magic), with NCCL before 2.30.7: the proxy service can stall on it (fixed in 2.30.7)",
	.cause = "NCCL's proxy service and RAS threads accept TCP connections; before 2.30.7 a connection with a "
		"wrong magic (a port scanner, a health check, a rank of another job) was retried instead of "
		"dropped, and the proxy thread could stall on it, hanging the ranks of that process",
	.fix = "upgrade NCCL to 2.30.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"ss -tnp | grep <the address the WARN names>   # what connects: stop it, or keep it off the job's hosts while jobs run",
	.source = "https://github.com/NVIDIA/nccl/issues/1808",
},
{
	/* NVIDIA/nccl#2241, fix PR #2290: "Copy-engine collectives can hang or fail with `invalid
	 * resource handle` on two-rank LSA (sub)communicators": ncclMemOpSync picks multicast
	 * synchronisation whenever NVLS is available, but two-rank teams never set multicast up.
	 * NCCL 2.31.2 release notes (PR #2339): "Fixes a hang during the first Copy Engine collective
	 * on a two-rank communicator (GitHub Issue #2241)". CE collectives came with 2.28.3. The NVLS
	 * line tells it from ce_default_stream_2283 (the default stream, any GPU). */
	.id = "nccl.known_bug.ce_two_rank_2312",
	.from = 22803, .to = 23102, .fixed_in = "2.31.2",
	.symptom = "nccl.cuda.failure", .needs = KB_NEED_CE_COLL | KB_NEED_NVLS | KB_MEDIUM, .version_required = 1,
	.title = "a CUDA failure in a copy-engine collective on NVLS GPUs with NCCL 2.28.3-2.31.1: a two-rank communicator uses a multicast sync it never set up (fixed in 2.31.2)",
	.cause = "where NVLS is usable, NCCL before 2.31.2 synchronises copy-engine collectives through multicast "
		"memory, but a communicator of two ranks never creates that multicast team: its first CE "
		"collective fails ('invalid resource handle') or waits forever",
	.fix = "upgrade NCCL to 2.31.2 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"export NCCL_SYM_CE_THRESHOLD=1000000000000   # meanwhile: no copy-engine collectives",
	.source = "https://github.com/NVIDIA/nccl/pull/2290",
},
{
	/* NVIDIA/nccl#2198 (reported on the v2.30u1 branch): the RMA proxy path pairs window-relative
	 * offsets with the RMA handle of the backing allocation, so cross-node one-sided operations
	 * on a window carved from a larger allocation read and write the wrong bytes ("worker 8
	 * expected data from rank 7, but received rank 6 / zeros"); same-node paths are right. NCCL
	 * 2.31.2 release notes: "Fixes data corruption when multiple symmetric windows are carved
	 * from the same backing memory allocation (GitHub Issue #2198)". From 2.30.3, the first
	 * release of the line the report names: earlier releases are not confirmed affected. */
	.id = "nccl.known_bug.rma_subwindow_2312",
	.from = 23003, .to = 23102, .fixed_in = "2.31.2",
	.symptom = NULL, .needs = KB_NEED_WRONG | KB_NEED_SYMMETRIC | KB_MEDIUM, .version_required = 1,
	.title = "wrong results with symmetric windows on NCCL 2.30: windows carved from one allocation get wrong offsets between nodes (fixed in 2.31.2)",
	.cause = "NCCL 2.30's RMA proxy path (one-sided operations between nodes) applies an offset relative to the "
		"user's window to the RMA handle of the whole backing allocation: with several windows inside one "
		"allocation, remote reads and writes hit the wrong bytes, while peers on the same node get the right data",
	.fix = "upgrade NCCL to 2.31.2 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"register every window on an allocation of its own   # meanwhile: no two windows share a backing allocation",
	.source = "https://github.com/NVIDIA/nccl/issues/2198",
},
{
	/* NCCL commit 428f0f20 (NVIDIA, first released in 2.30.3): "Workaround for race condition in
	 * CE AllToAll and AllGather ... a race condition that can occur with CE AllToAll and
	 * AllGather when the number of intra-batch syncs is odd". Copy-engine collectives run on
	 * symmetric-memory windows and came with 2.28.3. */
	.id = "nccl.known_bug.ce_batch_race_2303",
	.from = 22803, .to = 23003, .fixed_in = "2.30.3",
	.symptom = NULL, .needs = KB_NEED_WRONG | KB_NEED_SYMMETRIC | KB_MEDIUM, .version_required = 1,
	.title = "wrong results with symmetric-memory windows on NCCL 2.28.3-2.30.2: a race in copy-engine all-to-all and all-gather (fixed in 2.30.3)",
	.cause = "NCCL's copy-engine all-to-all and all-gather (on symmetric windows, 2.28.3+) could race when a "
		"collective needed an odd number of batch synchronisations, before 2.30.3 added the missing sync",
	.fix = "upgrade NCCL to 2.30.3 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"export NCCL_SYM_CE_THRESHOLD=1000000000000   # meanwhile: no copy-engine collectives",
	.source = "https://github.com/NVIDIA/nccl/commit/428f0f20",
},
{
	/* NCCL commit 22bf8764 (Kamil Iskra, NVIDIA; first released in 2.30.7): "Fix the window
	 * creation during graph capture. Ensure that all the invocations of cudaStreamSynchronize()
	 * (which is not supported for graph capturing) are performed in the relaxed mode. This
	 * affects primarily ncclDevrWindowRegisterInGroup, but also ncclCommWindowDeregister ...".
	 * ncclDevrWindowRegisterInGroup came with 2.28.3. The window call tells it from
	 * rma_graph_2304 (RMA signal buffers, 2.30.4 only). */
	.id = "nccl.known_bug.window_graph_2307",
	.from = 22803, .to = 23007, .fixed_in = "2.30.7",
	.symptom = "nccl.cuda.failure", .needs = KB_NEED_CUDAGRAPH | KB_NEED_SYMMETRIC | KB_MEDIUM, .version_required = 1,
	.title = "a CUDA failure registering a symmetric window during CUDA graph capture with NCCL 2.28.3-2.30.6 (fixed in 2.30.7)",
	.cause = "NCCL before 2.30.7 synchronises a stream while it registers or deregisters a window "
		"(ncclCommWindowRegister), which CUDA refuses while a graph is being captured",
	.fix = "upgrade NCCL to 2.30.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"register the windows before the capture starts   # meanwhile: no window call inside the captured region",
	.source = "https://github.com/NVIDIA/nccl/commit/22bf8764",
},
{
	/* NVIDIA/nccl PR #2047, mirrored as commit a93ef9a5 and first released in 2.30.3: "Correct
	 * inverted boolean logic in matchSubnet causing incorrect interface selection ... When a
	 * user specifies NCCL_COMM_ID ... the correct interface (e.g., eth0 with 172.17.16.2/20) is
	 * rejected ... A non-matching interface such as loopback (lo with 127.0.0.1/8) can be
	 * accepted ... 'Bootstrap: Using lo:127.0.0.1<0>', completely breaking multi-node
	 * communication". The inverted line ("== ... ? false : true") came with the 2.29.2 release
	 * commit (ebd1e929; 2.28.9 had the XOR form); IPv4 only. */
	.id = "nccl.known_bug.comm_id_subnet_2292",
	.from = 22902, .to = 23003, .fixed_in = "2.30.3",
	.symptom = NULL, .needs = KB_NEED_HANG | KB_NEED_COMM_ID_LO | KB_MEDIUM, .version_required = 1,
	.title = "a hang with NCCL_COMM_ID on NCCL 2.29.2-2.30.2: NCCL picks the interface outside NCCL_COMM_ID's subnet (loopback) for its bootstrap (fixed in 2.30.3)",
	.cause = "with NCCL_COMM_ID set NCCL bootstraps on the interface in that address's subnet, but 2.29.2-2.30.2 "
		"inverted the IPv4 subnet test: it rejects the right interface and takes the first one outside the "
		"subnet, usually lo, so ranks advertise 127.0.0.1 and the nodes cannot reach each other",
	.fix = "upgrade NCCL to 2.30.3 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"unset NCCL_COMM_ID   # meanwhile: let torch pass the unique id through its TCPStore; the interface then comes from NCCL_SOCKET_IFNAME",
	.source = "https://github.com/NVIDIA/nccl/pull/2047",
},
{
	/* NCCL commit a12d73a8 (NVIDIA, first released in 2.30.7): "net: add aarch64 GDR flush path
	 * ... The previous implementation was x86-only inline asm and failed with a WARN on
	 * aarch64." The WARN ('GDR Flush only supported on x86_64') came with 2.9.6 (a46ea105) and
	 * exists only in the affected releases, so the line alone names the bug. */
	.id = "nccl.known_bug.gdr_flush_arm_2307",
	.from = 20906, .to = 23007, .fixed_in = "2.30.7",
	.symptom = "nccl.gdrcopy.flush_arch", .version_required = 0,
	.title = "a known NCCL limitation before 2.30.7: no GDRCopy flush on aarch64 (fixed in 2.30.7)",
	.cause = "NCCL 2.9.6-2.30.6 implement the GDRCopy flush (NCCL_GDRCOPY_FLUSH_ENABLE=1) only for x86_64 and "
		"fail with an internal error on aarch64; 2.30.7 adds the aarch64 path",
	.fix = "upgrade NCCL to 2.30.7 or later (pip install -U nvidia-nccl-cu12 / nvidia-nccl-cu13)\n"
		"unset NCCL_GDRCOPY_FLUSH_ENABLE   # meanwhile: the network plugin flushes",
	.source = "https://github.com/NVIDIA/nccl/commit/a12d73a8",
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
