/*
 * What the scanner saw in a set of logs: the value that scan.c produces and reason.c consumes.
 * Per-process records (streams: one per NCCL host:pid, torchrun [rankN]: / srun label, or the rest
 * of a file), signature hits, and the job-wide echoes (MASTER_ADDR, interfaces, NCCL_* settings).
 * Only line numbers are kept as evidence, so its size is bounded whatever the input.
 */
#ifndef NCCLCHECK_EXPLAIN_OBS_H
#define NCCLCHECK_EXPLAIN_OBS_H

#include <stddef.h>
#include <stdint.h>

#define OBS_MAX_STREAMS 4096	/* distinct processes/ranks tracked; more share one overflow stream */
#define OBS_MAX_INPUTS 4096
#define OBS_MAX_IFACES 64
#define OBS_MAX_ENV 48
#define OBS_SIG_EV 5		/* evidence locations kept per signature */
#define OBS_SIG_STREAMS 64	/* streams remembered per signature */
#define OBS_TEXT 200		/* kept excerpt of a line */
#define OBS_PL_RANKS 4096	/* Lightning global ranks tracked for duplicates */

struct ras_diag;

struct loc {
	uint32_t file;
	uint64_t line;		/* 0: none */
};

struct sock_if {
	char ifname[32];
	char addr[64];
};

/* What one process (or one prefixed rank of one file) printed. */
struct stream_obs {
	/* hot: touched by every line (kept together in the first cache lines) */
	uint32_t file;
	char kind;		/* 'R' [rankN]: / srun label, 'L' [defaultN]:, 'P' NCCL host:pid, 'F' the file */
	char in_tb;
	uint16_t hlen;		/* the key's host: its length and hash (compared instead of the bytes) */
	uint32_t hhash;
	int key;
	long pid;
	int rank, rank_prio;	/* the rank the lines name; how sure (-1 none, 1 Lightning … 3 prefix) */
	int rank_nranks;
	uint64_t lines, nccl_lines;
	struct loc last_loc;
	char host[64];
	/* cold: set by the lines that matter */
	char nhost[64];		/* the host and pid of NCCL's prefix, for display (never the key) */
	long npid;
	char nccl_version[40];
	struct loc ver_loc;
	char boot_if[32], boot_addr[64];
	struct loc boot_loc;
	struct sock_if sock[4];
	int nsock;
	struct loc sock_loc;
	char ib[128];
	struct loc ib_loc;
	char network[32];
	struct loc network_loc;
	/* what each host's NCCL says about its set-up, to compare hosts: the net plugin it loaded
	 * ("" none seen; "internal" NCCL's own) and the CUDA driver version */
	char net_plugin[40];
	struct loc plugin_loc;
	int cuda_driver;
	struct loc cuda_driver_loc;
	int nranks, nnodes, local_ranks;
	struct loc topo_loc;
	struct loc init_start, init_complete;
	int start_nranks;
	double init_total;	/* seconds, <0 unknown */
	unsigned transports;	/* TR_* bits */
	uint64_t nvia;
	char via_example[96];
	struct loc via_loc;
	struct loc pl_init, pl_registered;
	int pl_rank, pl_world;
	long wd_seq, wd_timeout_ms;
	char wd_op[32];
	struct loc wd_loc;
	uint32_t wd_count;
	char exception[OBS_TEXT];
	struct loc exc_loc;
	char last[OBS_TEXT];	/* the latest line, printable (filled when the scan ends) */
};

enum {
	TR_NET_SOCKET = 1 << 0,
	TR_NET_IB = 1 << 1,
	TR_NET_OTHER = 1 << 2,
	TR_P2P = 1 << 3,
	TR_SHM = 1 << 4,
	TR_COLLNET = 1 << 5,
};

/* The lines one signature (sigs.c) matched. */
struct sig_hit {
	uint64_t count;
	struct loc ev[OBS_SIG_EV];
	char ev_text[OBS_SIG_EV][OBS_TEXT];
	int nev;
	uint32_t streams[OBS_SIG_STREAMS];
	int nstreams;
	int streams_overflow;
	char capture[96];
	int variant;		/* 1 + the index of the sig's variant the first line matched; 0 none */
};

struct input_obs {
	char *name;
	uint64_t lines, bytes, long_lines;
	int name_rank;		/* rank from a file name like rank3.log; -1 */
};

struct iface_obs {
	char ifname[32];
	char addr[64];
	int prefix;		/* -1 unknown */
	uint32_t file;
	uint64_t line;		/* where a listing (ip addr, ifconfig) showed it; 0 NCCL's lines */
};

struct env_obs {
	char name[48];
	char value[96];
	struct loc loc;
	char src;		/* 'N' NCCL's own echo; 'T' torch's "... environments:" line (what the
				 * process ran with); 'S' a shell, launcher or nccl.conf assignment */
	uint32_t stream;	/* the process whose echo this is */
	char value2[96];	/* another process's NCCL echo with a different value ("" none) */
	struct loc loc2;
};

struct run_obs {
	const struct input_obs *in;
	uint32_t nin;
	const struct stream_obs *st;
	uint32_t nst;
	const struct sig_hit *hits;	/* one per row of explain_sigs */
	uint64_t stream_overflow;	/* lines that landed in the overflow stream */
	char master[64];		/* MASTER_ADDR, from --master-addr or the log */
	int master_prio;		/* -1 none */
	struct loc master_loc;
	char master_src[32];
	struct iface_obs ifs[OBS_MAX_IFACES];
	int nifs;
	struct env_obs env[OBS_MAX_ENV];
	int nenv;
	uint64_t total_lines, total_bytes, nccl_info_lines, long_lines;
	struct loc pl_registered;	/* Lightning's "All distributed processes registered" */
	int pl_world;
	/* Lightning's GLOBAL_RANK lines job-wide: a rank printed twice while others never are is a
	 * launch that started every process twice (srun without --ntasks-per-node) */
	uint64_t pl_seen[OBS_PL_RANKS / 64];
	int pl_distinct, pl_dups, pl_dup_rank, pl_world_max;
	struct loc pl_dup_loc;
	char master2[64];		/* a second, different MASTER_ADDR of the same kind of source */
	struct loc master2_loc;
	/* nccl-tests: the "# Using devices" table, its results header, and the end of the run */
	int nt_rows, nt_hosts, nt_consumer;
	int nt_rank_end;		/* one past the highest rank a row names: more than the rows, and
					 * the paste kept only part of the table */
	char nt_host[64], nt_gpu[64];
	struct loc nt_loc, nt_header_loc, nt_done_loc;
	int nt_done_count;		/* "Avg bus bandwidth" summaries: one per independent run */
	double nt_busbw;		/* the first summary's average bus bandwidth, GB/s (0 none) */
	/* the reporter names an RDMA fabric (InfiniBand, RoCE, ConnectX) or slowness, in prose */
	struct loc rdma_named_loc, slow_loc;
	long nt_oob;			/* "Out of bounds values : N FAILED": results that were wrong */
	struct loc nt_oob_loc;
	int nt_gpus;			/* GPUs per process: nccl-tests' -g N or its "nGpus N" header */
	struct loc nt_gpus_loc;
	/* torchrun's (or torch.distributed.run's) command line, the first one seen: its flags as
	 * written ("" absent) */
	struct torchrun_obs {
		char nnodes[16], node_rank[16], backend[16], endpoint[64];
		int lines;
		struct loc loc;
	} tr;
	int launch_np;			/* mpirun -np/-n N */
	struct loc launch_loc;
	struct loc launch_hosts_loc;	/* mpirun's host list (-H a,b) naming two hosts or more */
	/* other launchers named anywhere: Ray (ray::, RayWorker, ray.init, "by Ray"), Slurm's srun
	 * (or its SLURM_LOCALID), DeepSpeed's launcher, accelerate launch */
	struct loc ray_loc, srun_loc, deepspeed_loc, accelerate_loc;
	/* torchrun's agent store (pytorch/pytorch#192113): the workers were told to use it
	 * (TORCHELASTIC_USE_AGENT_STORE=True), torchrun's own lines, the port the agent hosts its
	 * store on, the script's init_method="tcp://host:port", and a store that never answered */
	struct loc agent_store_loc;
	struct loc elastic_loc;		/* torch/distributed/run.py, torch.distributed.elastic */
	int master_port;		/* --master-port / MASTER_PORT; 0 unknown */
	struct loc master_port_loc;
	char init_tcp[80];		/* "host:port" */
	int init_tcp_port;
	struct loc init_tcp_loc;
	int store_wait_port;		/* "not yet listening" / "trying to connect to (h, port)" */
	struct loc store_wait_loc;
	struct loc ras_loc;		/* NCCL's RAS thread is running (2.24+) */
	struct loc warn_loc;		/* the first NCCL WARN line no signature matched */
	char warn_text[OBS_TEXT];
	const struct ras_diag *diag;	/* NCCL's own diagnostics lines (2.31+), decoded */
	/* a pasted `nvidia-smi topo -m` matrix: how its GPU pairs are linked (each pair is counted
	 * once per row, so twice); columns after the header's GPU columns (NICs) are not pairs */
	int topo_rows, topo_gpu_cols;	/* GPU rows; GPU columns of the header (0 no header) */
	int topo_nv;			/* NV# pairs */
	int topo_switch;		/* PIX/PXB pairs: through PCIe switches, where ACS acts */
	int topo_host;			/* PHB/NODE/SYS/SOC pairs: through the CPU, where the IOMMU acts */
	struct loc topo_loc;		/* the first GPU row */
	struct loc topo_last;		/* the row read last (two anchors can hit one row) */
	char topo_row[OBS_TEXT];	/* that row, printable */
	/* the peer addresses that failing network lines name ("connect to X", "from peer X"), to
	 * find the one every failing rank points at */
	struct peer_obs {
		char addr[64];		/* without its <port> */
		uint64_t count;
		uint32_t streams[8];	/* the streams whose lines name it */
		int nstreams;
		int sock;		/* named by a socket connect ("connect to X"), not an IB/OFI
					 * completion: an address a rank advertised for NCCL's sockets */
		struct loc loc;
	} peers[16];
	int npeers;
	uint64_t peer_lines;		/* failing network lines that named an address */
	struct loc peer_last;		/* the line noted last (several signatures can match one) */
	/* "nvidia-nccl-cu12==2.20.5" pins (pip freeze of several machines pasted together): the
	 * first two different versions of one package */
	struct pin_obs {
		char pkg[24], ver[2][24];
		struct loc loc[2];
	} pins[4];
	int npins;
	/* NCCL's "via NET/IB/0/GDRDMA" against "via NET/IB/1": connections with and without
	 * GPUDirect RDMA in one job */
	uint64_t via_gdr, via_nogdr;
	struct loc via_gdr_loc, via_nogdr_loc;
	struct loc via_net_loc;		/* the first "via NET/..." connection (Socket, IB, a plugin's) */
	/* prose around a pasted log: the reporter's own words and test output */
	struct loc hang_loc;		/* "hangs", "deadlock", "freezes" outside NCCL's lines */
	struct loc wrong_loc;		/* "NaN", "wrong results" in the reporter's words */
	struct loc arm_loc;		/* an aarch64 host named: aarch64, arm64, GH200, GB200 */
	struct loc veth_loc;		/* a container's veth interface named outside NCCL's lines */
	char hca_fail[32];		/* "NET/IB : Unable to open device erdma_1": an HCA a rank lacks */
	struct loc hca_fail_loc;
	struct loc p2p_off_loc;		/* "NCCL_P2P_DISABLE=1" named (the reporter's workaround) */
	struct loc p2p_nohelp_loc;	/* ... in a sentence that says it changed nothing */
	struct loc peer_cannot_loc;	/* p2pBandwidthLatencyTest: "CANNOT Access Peer" */
	struct loc acs_loc;		/* an ACSCtl line or the lspci command that prints it */
	/* a consumer or workstation GeForce/TITAN board named anywhere (nvidia-smi, torch) */
	char consumer_gpu[64];
	struct loc consumer_loc;
	/* the NVIDIA driver named anywhere: nvidia-smi's "Driver Version: 545.23.08", torch's
	 * collect_env, a kernel's NVRM line, the reporter's "driver 560" (its branch: 545) */
	int nv_driver;
	char nv_driver_ver[16];
	struct loc nv_driver_loc;
	/* a container: a "docker run" line (and whether it sized /dev/shm: --shm-size, --ipc=host),
	 * or Docker or an NGC image named anywhere */
	struct loc docker_loc;
	int docker_shm;
	struct loc container_loc;
	/* an NGC PyTorch image named anywhere ("nvcr.io/nvidia/pytorch:23.11-py3", a Dockerfile's
	 * FROM): the image as written, the NCCL its release ships (ngc.c; 0 a release the table
	 * lacks), and whether an image of another NCCL is named too (then neither decides) */
	char ngc_image[64];
	int ngc_nccl;
	struct loc ngc_loc;
	int ngc_differs;
	struct loc nccl_frame_loc;	/* a backtrace frame in NCCL: libnccl.so, ncclGroupEnd() */
	struct loc multi_host_loc;	/* the reporter's "two machines", "multi-node", "2 nodes" */
	struct loc scan_loc;		/* the reporter names a port scan: nmap, a security scan */
	struct loc k8s_loc;		/* a Kubernetes service name (.svc.cluster.local) or Kubeflow */
	struct loc mesh_loc;		/* a service mesh named: istio, envoy, linkerd */
	struct loc store_conn_loc;	/* c10d: "The client socket has connected to ..." */
	/* the first data-center GPU model named anywhere and its compute capability (35: sm_35) */
	char gpu_model[16];
	int gpu_sm;
	struct loc boot_chain_loc;	/* an NCCL line of bootstrap.cc (an error's return chain) */
	struct loc launch_blocking_loc;	/* CUDA_LAUNCH_BLOCKING=1 set (export, launch line) */
	struct loc nonblocking_loc;	/* NCCL's non-blocking API: device_id=, or torch's variable */
	struct loc intel_cpu_loc;	/* an Intel host CPU named: GenuineIntel, Xeon */
	struct loc amd_cpu_loc;		/* an AMD host CPU named: AuthenticAMD, EPYC */
	struct loc abort_loc;		/* ncclCommAbort / ProcessGroupNCCL::abort named (a stack, prose) */
	struct loc launch_frame_loc;	/* a stack in NCCL's kernel launch (ncclLaunchKernelBefore,
					 * waitWorkFifoAvailable, doLaunches) */
	/* an NCCL version in the reporter's words ("with NCCL 2.25.1", vLLM's "using nccl==2.21.5"):
	 * its number, or -1 when two different ones were named */
	int prose_nccl;
	char prose_nccl_text[24];
	struct loc prose_nccl_loc;
	/* the torch release the log names ("PyTorch version: 2.3.0+cu121", "torch==2.3.0", "torch 2.3"):
	 * "2.3.0" and its CUDA ("12.1" from +cu121, "" unknown); torch_ver is "" when two differ */
	char torch_ver[16];
	char torch_cuda[8];
	int torch_ambiguous;
	struct loc torch_loc;
	struct loc alltoall_loc;	/* all-to-all named: a watchdog's OpType=ALLTOALL, alltoall_perf */
	struct loc nvls_loc;		/* "NVLS multicast support is available on dev N" */
	struct loc stack_unlimited_loc;	/* ulimit -s unlimited, or ulimit -a showing it */
	struct loc cudagraph_loc;	/* CUDA graphs named: "cudagraph", "CUDA graph" */
	struct loc sharp_loc;		/* IB SHARP / CollNet named (CollNet, NCCL_COLLNET_ENABLE=1) */
	struct loc bf16_loc;		/* bfloat16 named (bfloat16, bf16) */
	struct loc fp8_loc;		/* an fp8 type named (ncclFloat8e4m3, float8_e5m2, fp8) */
	struct loc enqueue_loc;		/* an NCCL line of enqueue.cc (a WARN or an error's return chain) */
	struct loc transport_loc;	/* a WARN of NCCL's transport.cc (transport set-up) */
	struct loc ce_coll_loc;		/* a WARN of NCCL's ce_coll.cc (copy-engine collectives) */
	struct loc cross_nic_loc;	/* NCCL_CROSS_NIC set (NCCL's echo, an export) */
	struct loc net_init_loc;	/* a stack frame in NCCL's network plugin init */
	struct loc gdr_off_loc;		/* NCCL_NET_GDR_LEVEL=LOC or 0 (GPUDirect RDMA off) */
	struct loc b40_loc;		/* B40 GPUs named */
	struct loc mlopart_loc;		/* MPS with MLOPart named */
	struct loc no_rtc_loc;		/* NCCL_RUNTIME_CONNECT=0 */
	struct loc inspector_loc;	/* NCCL's Inspector profiler plugin enabled */
	struct loc symmetric_loc;	/* symmetric-memory windows registered (ncclCommWindowRegister) */
	struct loc user_reg_loc;	/* user buffers registered with NCCL (ncclCommRegister, torch's hook) */
	struct loc comm_id_loc;		/* NCCL_COMM_ID named (set, or NCCL warning about it) */
};

/* "name:line" of a location. */
void obs_loc_fmt(const struct run_obs *o, struct loc l, char *buf, size_t len);
/* The name of input `file` ("?" when out of range). */
const char *obs_input_name(const struct run_obs *o, uint32_t file);
/* The value of an env echo seen in the log (NCCL_SOCKET_IFNAME...), or NULL. */
const struct env_obs *obs_env(const struct run_obs *o, const char *name);

#endif
