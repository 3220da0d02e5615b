/*
 * The node model: one facts document (this node's, a --facts FILE, a peer's) decoded once, at the
 * boundary, into a typed read-only view that every node rule and renderer reads. It makes the
 * decisions the rules used to re-derive each on its own: which NCCL version runs (one answer),
 * the NCCL_* settings NCCL will see and where each comes from, NCCL's interface prediction, the
 * route to MASTER_ADDR, the ephemeral port range, the firewall model, the software stack. Pure:
 * no I/O, no environment (NCCLCHECK_ASSUME_NCCL reaches it as the fact net.assume_nccl or as an
 * option). A document whose members have the wrong types is rejected, never half-used.
 *
 * The "what if" helpers re-run the interface prediction with other settings; that is how a
 * recommended NCCL_SOCKET_IFNAME is proven before any rule (or config/cluster) prints it.
 */
#ifndef NCCLCHECK_MODEL_NODE_H
#define NCCLCHECK_MODEL_NODE_H

#include <stddef.h>

#include <jansson.h>

#include "model/fwmodel.h"
#include "model/ifselect.h"
#include "model/nccl_vars.h"
#include "util/addr.h"
#include "util/err.h"

/* torchrun's MASTER_PORT when none is set, and Linux's default ephemeral port range. */
#define NM_MASTER_PORT_DEFAULT 29500
#define NM_PORT_LO_DEFAULT 32768
#define NM_PORT_HI_DEFAULT 60999

/* Which NCCL runs, and why we think so. */
struct nm_nccl {
	const char *version;	/* the version whose behaviour every rule models; never NULL */
	const char *why;	/* in words, for findings */
	int assumed;		/* nothing names an NCCL: NCCL_MODEL_DEFAULT is a guess */
	int user_assumed;	/* NCCLCHECK_ASSUME_NCCL (or the model option) chose it */
	/* what the stack says the job loads (stack_effective_nccl, as written); NULL when none is known */
	const char *loaded, *loaded_path, *loaded_why;
};

struct nm_master {
	int recorded;		/* the facts have net.master */
	int set;		/* MASTER_ADDR (or --master-addr) given */
	const char *addr;	/* as given */
	const char *from;	/* "MASTER_ADDR" or "--master-addr" */
	long port;		/* MASTER_PORT, NM_MASTER_PORT_DEFAULT when unset */
	int port_recorded;	/* the facts record a port (else port is the default) */
	const char *resolved;	/* first getaddrinfo answer, NULL when unresolved */
	const char *resolve_error;	/* why it did not resolve, else NULL */
	const char *source_addr;	/* the kernel's source address towards it, NULL when no route */
	const char *route_error;	/* why there is no route, else NULL */
	const char *ifname;	/* the interface the kernel reaches it through (the owner when local) */
	int local;		/* MASTER_ADDR is one of this node's addresses */
	int loopback;		/* 127.x, ::1 or through lo*: a single-node run */
};

struct nm_ports {
	long lo, hi;		/* NCCL's listeners take ports from here */
	int known;		/* read from sysctl.ip_local_port_range; else the Linux default */
	const char *unknown;	/* why the range could not be read, else NULL */
	const char *reserved;	/* sysctl.ip_local_reserved_ports, or NULL */
};

/* One address of an interface as /sys/class/net lists it. */
struct nm_iface_addr {
	const char *addr;
	int family;		/* 4, 6, or 0 when unknown */
	const char *cls;	/* "private", "public", ... (util/addr.h names), or NULL */
	long prefixlen;		/* -1 when unknown */
};

/* One /sys/class/net entry. */
struct nm_iface {
	const char *name;
	const char *driver;	/* "ena", "gve", "virtio_net", ...; may be NULL */
	struct nm_iface_addr *addrs;
	const char *kind;	/* "physical", "veth", "loopback", "ib", ...; may be NULL */
	const char *vendor;	/* PCI vendor id ("0x1d0f"), may be NULL */
	const char *first_addr;	/* its first address from addrs[], may be NULL */
	long mtu;		/* -1 when unknown */
	long speed_mbps;	/* -1 when unknown */
	int up;
	int running;		/* up with a carrier */
	int virtual;		/* no device behind it (veth, bridge, tun): NCCL assumes 10 Gb/s */
	size_t naddrs;		/* addresses listed for it */
};

/* One installed wheel the job imports (torch, Lightning, NCCL) and its RECORD check. */
struct nm_dist {
	const char *name;		/* the distribution ("torch", "nvidia-nccl-cu12") */
	const char *version;
	const char *installer;		/* INSTALLER ("pip", "uv", "conda"), NULL when absent */
	const char **mismatch;		/* files that differ from RECORD, NULL-terminated */
	const char **mismatch_kind;	/* "sha256" or "size", one per mismatch */
	size_t nmismatch;
};

/* One Python environment with a torch that could be imported. */
struct nm_python {
	const char *path;
	const char *version;		/* the interpreter's */
	int torch_installed;		/* the probe found torch (torch.installed) */
	const char *torch;		/* torch.__version__, NULL when torch is missing or unreadable */
	const char *torch_cuda;		/* torch.version.cuda */
	const char *torch_nccl;		/* torch.cuda.nccl.version() */
	const char *nccl_mapped;	/* the libnccl the torch process mapped */
	int nccl_static;		/* NCCL linked into torch: 1, 0, or -1 when torch did not say */
	const char *lightning;		/* lightning / pytorch_lightning version, NULL when absent */
	const char *lightning_pkg;	/* the "lightning" package's version, NULL when absent */
	const char *pl_pkg;		/* the "pytorch_lightning" package's version, NULL when absent */
	int lightning_installed, pl_installed;	/* lightning / pytorch_lightning .installed */
	const char *torch_path;		/* where torch was imported from */
	const char **site_packages;	/* its site-packages directories, NULL-terminated */
	struct nm_dist *dists;		/* supply.dists: the wheels checked against RECORD */
	size_t ndists;
	const char **payloads;		/* installed lightning/_runtime/ directories, NULL-terminated */
	/* what the inventory shows of it */
	const char *version_unknown;	/* why the interpreter could not be asked, else NULL */
	const char **why;		/* why it was inspected (NULL entries: not a string) */
	size_t nwhy;
	long long elapsed_ms;
	const char *torch_unknown;	/* why torch could not be inspected, else NULL */
	const char *torch_cudnn;
	int torch_cuda_available_known;	/* torch said whether CUDA is available */
	long long torch_device_count;
	const char *lightning_unknown, *pl_unknown;
};

struct nm_nccl_lib {
	const char *path;	/* the name the loader opens */
	const char *realpath;
	const char *version;	/* NULL when its version could not be read ... */
	const char *unknown;	/* ... and why */
	int is_default;		/* the copy the dynamic loader picks */
	const char *default_how;	/* how the loader finds it (LD_LIBRARY_PATH, ld.so.cache, ...) */
	const char **paths;	/* every name found for it, NULL-terminated */
	const char **found_by;	/* the routes that found it ("LD_LIBRARY_PATH", ...), NULL-terminated */
	/* NCCL 2.32+ (nccl.libs[].tls): built with TLS; libssl.so.3 + libcrypto.so.3 load; -1 unknown */
	int tls_built, tls_libssl;
};

/* One nccl.conf candidate in NCCL's precedence (probe/nccl_libs.c). */
struct nm_conf {
	const char *path;
	const char *source;	/* "NCCL_CONF_FILE", "~/.nccl.conf", "/etc/nccl.conf", ... */
	int exists;
	const char *unreadable;	/* why its variables could not be read, or NULL */
	const char *applies;	/* which NCCL reads it, or NULL */
	struct nm_env *vars;	/* its NCCL_* lines, in the file's order */
	size_t nvars;
};

struct nm_gpu {
	long index;
	const char *name;
	const char *bus_id;
	const char *compute_capability;
	long long memory_mb, numa_node;	/* valid when has_memory / has_numa */
	int has_memory, has_numa;
	long long nvlinks_up;		/* 0 when none or unknown */
	int nvswitch;			/* some of its links go to an NVSwitch */
};

/* How two GPUs, or a GPU and a NIC, connect (topology.gpu_gpu / gpu_nic). */
struct nm_gpu_link {
	long long a;		/* a GPU index */
	long long b;		/* gpu_gpu: the other GPU's index; gpu_nic: -1 */
	const char *nic;	/* gpu_nic: the NIC, or NULL */
	const char *level;	/* "NV12", "PIX", "SYS", ...; NULL when not said */
};

/* One CUDA toolkit installation (probe/cuda.c). */
struct nm_toolkit {
	const char *path;	/* its real path */
	const char *version;	/* NULL when no version file says */
	const char *source;	/* where the version came from */
	int is_default;		/* /usr/local/cuda points at it */
	const char **aliases;	/* other paths that name it (/usr/local/cuda) */
	size_t naliases;
};

struct nm_cuda {
	int known;		/* the cuda section is present (possibly {"unknown": ...}) */
	struct nm_toolkit *toolkits;
	size_t ntoolkits;
	int nvcc_found;		/* nvcc on PATH */
	const char *nvcc_toolkit, *nvcc_path, *nvcc_version;
};

/* One cuDNN copy (probe/cudnn.c). */
struct nm_cudnn {
	const char *path, *version, *source;
	const char *toolkit;	/* the toolkit it sits in, or NULL */
	const char **found_by;	/* "site-packages", "venv", "conda", "toolkit", ..., NULL-terminated */
};

/* The NVIDIA driver as NVML, the kernel module and libcuda report it (probe/nvml.c, cuda.c). */
struct nm_driver {
	int section;		/* the driver section is an object */
	int present;		/* 1, 0, or -1 when unknown (present_unknown says why) */
	const char *present_unknown;
	const char *reason;	/* why there is none */
	const char *version, *source;
	const char *cuda_max, *cuda_max_source;
	const char *nvml_status, *nvml_error, *nvml_hint, *nvml_library, *nvml_library_version;
	const char *nvml_cuda_version;
	long long nvml_error_code, nvml_cuda_version_code;
	const char *version_unknown;	/* why the version is not known, else NULL */
	const char *kmod_version, *kmod_source, *kmod_flavor;
	/* libcuda as the probe loaded it: status "ok" or else error */
	const char *cuda_status, *cuda_error;
	long long cuda_device_count;
	int has_cuda_device_count;
	const char *cuda_init, *cuda_init_hint, *cuda_library, *cuda_version;
	long long cuda_version_code;
};

struct nm_stack {
	const char *driver;		/* the NVIDIA driver version, NULL when none */
	const char *cuda_driver;	/* the CUDA version the driver supports ("13.0"), NULL */
	struct nm_python *python;	/* every python[] entry, in the facts' order */
	size_t npython;
	const struct nm_python *torch;	/* the first with a readable torch, or NULL */
	const struct nm_python *nccl_python;	/* the first whose torch reports an NCCL (a CUDA build) */
	struct nm_nccl_lib *nccl_libs;
	size_t nnccl_libs;
	const char *nccl_default_why;	/* why the loader picks the default copy (or finds none) */
	struct nm_conf *confs;
	size_t nconfs;
	const char **plugin_names;	/* nccl.plugins[].name (NULL where a plugin has none) */
	const char **plugin_paths;	/* nccl.plugins[].path, the same order */
	const char **plugin_realpaths;	/* nccl.plugins[].realpath, the same order */
	const char *nccl_unknown;	/* why the nccl section is unknown, else NULL */
	const char *python_unknown;	/* why no interpreter could be listed, else NULL */
	size_t nplugins;
	/* what NCCL will do about a net plugin (probe/nccl_libs.c nccl.net_plugin) */
	const char *net_plugin_state;	/* "loads", "disabled", "none", ...; NULL when unknown */
	const char *net_plugin_path, *net_plugin_env, *net_plugin_tries;
};

/* CPUs as sysfs (online) and hwloc (allowed to this process) count them; -1 when unknown. */
struct nm_cpus {
	long long online, allowed, bound;	/* bound: the process's affinity mask */
	long long numa_online, numa_allowed;
};

/* Per-process and kernel limits that decide how many sockets NCCL can have. */
struct nm_limits {
	long long nofile_soft, nofile_hard;	/* -1 unlimited, -2 unknown */
	int nofile_known;			/* limits.nofile was read */
	long long rmem_max, wmem_max;		/* net.core.*, -1 unknown */
	long long neigh_gc_thresh2, neigh_gc_thresh3;	/* the host's ARP table limits, -1 unknown */
	long long neigh_table_fulls, neigh_entries;	/* new entries refused since boot, entries
							 * now; -1 unknown */
};

/* /dev/shm (probe/resources.c). */
struct nm_shm {
	int known;		/* the shm section was read */
	const char *path;	/* "/dev/shm" unless the probe said otherwise */
	int exists, writable, read_only;
	long long size, avail;	/* bytes, -1 unknown */
	const char *error;	/* why the write test failed, or NULL */
	int writable_said;	/* writable as recorded (0 when not) */
	int size_known, avail_known;
};

/* RLIMIT_MEMLOCK (probe/resources.c); -1 is unlimited. */
struct nm_memlock {
	int known;
	const char *unknown;	/* why it could not be read, else NULL */
	long long soft, hard;
	int soft_known, hard_known;
};

/* How this node's host name resolves (probe/nic.c). */
struct nm_hostname {
	int recorded;		/* the facts have hostname_resolution */
	const char *unknown;	/* why it could not be looked up, else NULL */
	const char *addrs_unknown;	/* why the name did not resolve, else NULL */
	const char **addrs;	/* every address it resolves to (NULL entries: not a string) */
	size_t naddrs;
	const char *name;	/* NULL when unknown */
	const char *first;	/* first address it resolves to, NULL when none */
	int loopback;		/* one of them is 127.x / ::1 */
};

struct nm_rdma_port {
	const char *dev;
	int dev_index;		/* into nm_rdma.devs */
	long port;
	const char *state;	/* "ACTIVE", "DOWN", ... */
	const char *rate;	/* "400 Gb/sec (4X NDR)", or NULL */
	int port_known;		/* the port number was recorded (port is 1 otherwise) */
	const char *link_layer;	/* "InfiniBand", "Ethernet" (RoCE), or NULL */
};

/* RDMA devices (/sys/class/infiniband) and whether NCCL's IB transport can use them. */
struct nm_rdma {
	int recorded;		/* the facts have an rdma section (possibly unknown) */
	int known;		/* the rdma section was read */
	int ndevices;
	const char **dev_names;	/* ndevices names (NULL entries when a device has none) */
	const char ***dev_netdevs;	/* per device: its network interfaces, NULL-terminated */
	struct nm_rdma_port *ports;
	size_t nports;
	int verbs_probed;	/* rdma.verbs present */
	int verbs_loaded;	/* 1, 0, or -1 when the probe did not say */
	const char *verbs_error, *verbs_path;
	long verbs_devices;	/* devices libibverbs lists, -1 when not recorded */
	int peermem_probed;
	int peermem_loaded;
	const char *peermem_module;
};

/* The default route (net.default_route). */
struct nm_route {
	int recorded;		/* the facts have it */
	const char *unknown;	/* why it could not be read, else NULL */
	int present;
	const char *ifname, *gateway;
};

/* Where this node runs (probe/cloud.c, probe/host.c). */
struct nm_cloud {
	const char *provider;	/* "aws", "gcp", ...; NULL when unknown */
	const char *evidence;	/* why we think so */
	const char *container;	/* host.container.kind: "none", "docker", "kubernetes"...; or NULL */
	const char *container_evidence;
	/*
	 * host.container.netns: "container" (this process's network namespace is the container's
	 * own), "nested" (one made inside it, e.g. ip netns: the runtime's network is not what
	 * NCCL sees here), NULL unknown
	 */
	const char *container_netns;
	const char *instance_type;	/* "p5.48xlarge", ...; NULL when unknown */
	const char *instance_id;	/* AWS "i-0123...": only ever i- and hex (it goes into commands) */
	const char **efa, **erdma;	/* EFA / eRDMA device names, NULL-terminated (empty: none) */
	size_t nefa, nerdma;
	/* what the inventory shows: recorded is 1 when the section names a provider at all */
	int recorded;
	const char *unknown, *name, *method, *why;
	const char **hints;		/* NULL entries: not a string */
	size_t nhints;
};

/* A string fact as shown: its value, or why it is unknown; both NULL when not recorded. */
struct nm_text {
	const char *value, *unknown;
};

/* One environment variable as the facts recorded it. */
struct nm_env {
	const char *name, *value;
};

struct node_model {
	const char *hostname;
	const char *boot_id;	/* host.boot_id: its kernel's, NULL when unknown */
	int schema_version;	/* -1 when absent */
	int interactive;	/* host.interactive: stdin is a terminal (1), not (0), unknown (-1) */
	struct nm_nccl nccl;
	struct nm_env *env;	/* the env section, in its order */
	size_t nenv;
	/* NCCL_* names from the environment and the nccl.conf files this NCCL reads, in its precedence */
	struct nccl_settings settings;
	/*
	 * NCCL's interface choice (rules/ifselect.c) for nccl.version with the settings above.
	 * have_ifs is 0 when the facts have no interface list; ifs and pred are zero then.
	 */
	int have_ifs;
	struct ifs_facts ifs;
	struct ifs_result pred;
	const char **addr_class;	/* per ifs.addrs entry: its class (util/addr.h names) */
	struct nm_master master;
	struct nm_ports ports;
	const char *default_ifname;	/* the default route's interface, or NULL */
	struct nm_route default_route;
	int net_recorded;		/* the facts have a net section */
	const char *ifaces_unknown;	/* why net.interfaces could not be listed, else NULL */
	/* the local packet filter: NULL when no rules were read (fw_unknown says why, if unreadable) */
	struct fw_model *fw;
	const char *fw_unknown;
	size_t fw_nrules;		/* rules the probe read */
	const char *fw_source;		/* the first tool they came from ("iptables-save"), or NULL */
	int fw_recorded;		/* the facts have a firewall section */
	const char **fw_sources;	/* every tool (NULL entries: not a string) */
	size_t fw_nsources, fw_nchains;
	const char *comm_id_unresolved;	/* why NCCL_COMM_ID's host did not resolve, or NULL */
	struct nm_iface *ifaces;	/* /sys/class/net order */
	size_t nifaces;
	struct nm_gpu *gpus;
	size_t ngpus;
	int gpus_known;		/* the facts list GPUs (possibly none) */
	const char *gpus_unknown;	/* why the GPUs could not be listed, else NULL */
	struct nm_gpu_link *gpu_gpu, *gpu_nic;
	size_t ngpu_gpu, ngpu_nic;
	const char *gpu_nic_unknown;	/* why the GPU-NIC distances are unknown, else NULL */
	struct nm_cpus cpus;
	struct nm_limits limits;
	struct nm_shm shm;
	struct nm_memlock memlock;
	struct nm_hostname hostname_res;
	struct nm_rdma rdma;
	struct nm_cloud cloud;
	struct nm_stack stack;
	struct nm_cuda cuda;
	struct nm_driver driver;
	struct nm_cudnn *cudnn;
	size_t ncudnn;
	int cudnn_listed;	/* the facts have a cudnn list (possibly empty) */
	const char *os_id;	/* host.os.id: "ubuntu", "rhel", ... */
	/* the host section as the inventory shows it */
	struct nm_text host_name, os_pretty, kernel, container_kind;
};

struct node_model_opts {
	/* model this NCCL version instead of the one the facts name (NULL: the facts decide) */
	const char *assume_nccl;
};

/*
 * Builds the model of `facts` (a bare facts object; borrowed, must outlive the model, whose
 * strings point into it). The model does not hand the document on: rules and renderers read the
 * typed fields; only the verbs that print the document itself hold it. Returns NULL with the reason in `e` (ERR_PARSE) when a member the model reads has the wrong type or
 * an impossible value. Members that are absent or {"unknown": ...} are fine: the model says so.
 */
struct node_model *node_model_new(const json_t *facts, struct err *e);
struct node_model *node_model_new_opts(const json_t *facts, const struct node_model_opts *o,
				       struct err *e);
void node_model_free(struct node_model *m);

/* The interface called `name`, or NULL. */
const struct nm_iface *node_model_iface(const struct node_model *m, const char *name);
/* The first address of interface `name` in getifaddrs order (family 4, 6, or 0 for any), or NULL. */
const struct ifs_addr *node_model_addr(const struct node_model *m, const char *name, int family);
/*
 * The class of this node's address `text` ("private", "public", "documentation", ...): the one
 * the probe recorded, else util/addr's; NULL when `text` is none of this node's addresses.
 */
const char *node_model_addr_class(const struct node_model *m, const char *text);
/*
 * The interface the nodes talk over: MASTER_ADDR's (not loopback), else NCCL's bootstrap, else
 * the default route's.
 */
const char *node_model_cluster_ifname(const struct node_model *m);

/* The nccl.libs[] copy the job loads (nccl.loaded_path among its names), or NULL. */
const struct nm_nccl_lib *node_model_loaded_lib(const struct node_model *m);
enum nm_tls {
	NM_TLS_UNKNOWN = 0,	/* no loaded copy known, NCCL before 2.32, or not recorded */
	NM_TLS_NONE,		/* 2.32+ built without TLS: ncclSetEncryption with a key fails */
	NM_TLS_NO_LIBSSL,	/* built with TLS, but libssl.so.3 / libcrypto.so.3 do not load */
	NM_TLS_READY,		/* built with TLS and OpenSSL 3 loads: it encrypts if the program asks */
};
/* What NCCL 2.32's socket encryption can do on this node (whether the job asks is not known). */
enum nm_tls node_model_nccl_tls(const struct node_model *m);
const char *nm_tls_words(enum nm_tls t);

/* A setting NCCL will see (the effective one), or NULL. */
const struct nccl_setting *node_model_setting(const struct node_model *m, const char *name);
/* The value of an environment variable as the facts recorded it (env section), or NULL. */
const char *node_model_env(const struct node_model *m, const char *name);

/*
 * "What if": re-runs NCCL's interface prediction with `n` overrides of NCCL_SOCKET_IFNAME,
 * NCCL_SOCKET_FAMILY or NCCL_COMM_ID (value NULL: unset; other names are ignored). Returns -1 when
 * the model has no interface list. `out` points into the model and the override strings.
 */
struct nm_override {
	const char *name;
	const char *value;
};
int node_model_predict(const struct node_model *m, const struct nm_override *ov, size_t n,
		       struct ifs_result *out);
/*
 * The NCCL_SOCKET_IFNAME value that makes NCCL bootstrap on `ifname` and use only it for
 * NET/Socket: the plain name, or "=name" when the name is also a prefix of an interface that
 * would come first. Proven with node_model_predict. Returns 0 with the value in `out`, or -1 when
 * no value does it (the interface is down on 2.28+, or NCCL_COMM_ID decides).
 */
int node_model_ifname_for(const struct node_model *m, const char *ifname, char *out, size_t len);

#endif
