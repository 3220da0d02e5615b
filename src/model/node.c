/* The node model: see node.h. */
#include "model/node.h"
#include "model/check.h"

#include <stdlib.h>
#include <string.h>

#include "model/supply.h"
#include "model/stack.h"
#include "util/json.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ---- decoding ---- */

static void decode_nccl(struct node_model *m, const json_t *facts, const struct node_model_opts *o)
{
	struct version v;
	const char *s = o && o->assume_nccl ? o->assume_nccl : jpath_str(facts, "net.assume_nccl");

	m->nccl.loaded = stack_effective_nccl(facts, &m->nccl.loaded_path, &m->nccl.loaded_why);
	if (s && version_parse(s, &v) == 0) {
		m->nccl.version = s;
		m->nccl.why = "NCCLCHECK_ASSUME_NCCL";
		m->nccl.user_assumed = 1;
	} else if (m->nccl.loaded && version_parse(m->nccl.loaded, &v) == 0) {
		m->nccl.version = m->nccl.loaded;
		m->nccl.why = m->nccl.loaded_why;
	} else {
		m->nccl.version = NCCL_MODEL_DEFAULT;
		m->nccl.why = "no NCCL found on this node; assuming the one PyTorch 2.10/2.11 wheels ship";
		m->nccl.assumed = 1;
	}
}

static void decode_ifs(struct node_model *m, const json_t *facts)
{
	const json_t *list = jpath(facts, "net.ifaddrs"), *x;
	const struct nccl_setting *st;
	size_t i, n = 0;

	if (!json_is_array(list))
		return;
	m->have_ifs = 1;
	version_parse(m->nccl.version, &m->ifs.in.nccl);
	m->ifs.version = xstrdup(m->nccl.version);
	m->ifs.version_why = m->nccl.why;
	m->ifs.version_assumed = m->nccl.assumed;
	m->ifs.addrs = xcalloc(json_array_size(list) + 1, sizeof(*m->ifs.addrs));
	m->addr_class = xcalloc(json_array_size(list) + 1, sizeof(*m->addr_class));
	json_array_foreach(list, i, x) {
		struct ifs_addr *a = &m->ifs.addrs[n];
		const char *name = jpath_str(x, "ifname"), *addr = jpath_str(x, "addr");
		int fam;

		if (!name || !addr || addr_parse(addr, &fam, a->addr) < 0)
			continue;
		a->name = name;
		a->family = fam;
		a->text = addr;
		a->prefixlen = (int)jpath_int(x, "prefixlen", -1);
		a->scope_id = (unsigned)jpath_int(x, "scope_id", 0);
		a->ifindex = (unsigned)jpath_int(x, "index", 0);
		a->running = jpath_bool(x, "flags.running", 1);
		m->addr_class[n] = jpath_str(x, "class");
		if (!m->addr_class[n])
			m->addr_class[n] = addr_class_name(addr_classify(fam, a->addr));
		n++;
	}
	m->ifs.in.addrs = m->ifs.addrs;
	m->ifs.in.naddrs = n;
	if ((st = nccl_settings_get(&m->settings, "NCCL_SOCKET_IFNAME")) != NULL) {
		m->ifs.in.socket_ifname = st->value;
		m->ifs.ifname_source = st->source;
	}
	if ((st = nccl_settings_get(&m->settings, "NCCL_SOCKET_FAMILY")) != NULL) {
		m->ifs.in.socket_family = st->value;
		m->ifs.family_source = st->source;
	}
	if ((st = nccl_settings_get(&m->settings, "NCCL_COMM_ID")) != NULL) {
		m->ifs.in.comm_id = st->value;
		m->ifs.comm_id_source = st->source;
		/* the probe resolved the environment's value; a file's value may differ */
		if (!st->from_file)
			m->ifs.in.comm_id_resolved = jpath_str(facts, "net.comm_id.resolved");
	}
	ifs_predict(&m->ifs.in, &m->pred);
}

static void decode_master(struct node_model *m, const json_t *facts)
{
	const json_t *j = jpath(facts, "net.master");
	struct nm_master *ma = &m->master;

	ma->recorded = j != NULL;
	ma->port = (long)jpath_int(j, "port", NM_MASTER_PORT_DEFAULT);
	ma->port_recorded = json_is_number(jpath(j, "port"));
	ma->set = jpath_bool(j, "set", 0);
	ma->addr = jpath_str(j, "addr");
	ma->from = jpath_str(j, "from");
	ma->resolved = jpath_str(j, "resolved");
	ma->resolve_error = junknown(jpath(j, "resolved"));
	ma->source_addr = jpath_str(j, "source_addr");
	ma->route_error = junknown(jpath(j, "source_addr"));
	ma->ifname = jpath_str(j, "source_ifname");
	ma->local = jpath_bool(j, "local", 0);
	if (ma->resolved && addr_classify_text(ma->resolved) == ADDR_LOOPBACK)
		ma->loopback = 1;
	if (ma->ifname && !strncmp(ma->ifname, "lo", 2))
		ma->loopback = 1;
}

static void decode_ports(struct node_model *m, const json_t *facts)
{
	const json_t *range = jpath(facts, "sysctl.ip_local_port_range");

	m->ports.lo = NM_PORT_LO_DEFAULT;
	m->ports.hi = NM_PORT_HI_DEFAULT;
	m->ports.unknown = junknown(range);
	m->ports.reserved = jpath_str(facts, "sysctl.ip_local_reserved_ports");
	if (json_is_array(range)) {
		m->ports.lo = (long)json_integer_value(json_array_get(range, 0));
		m->ports.hi = (long)json_integer_value(json_array_get(range, 1));
		m->ports.known = 1;
	}
}

static void decode_ifaces(struct node_model *m, const json_t *facts)
{
	const json_t *list = jpath(facts, "net.interfaces"), *x, *a;
	size_t i, j;

	m->ifaces_unknown = junknown(list);
	if (!json_is_array(list))
		return;
	m->ifaces = xcalloc(json_array_size(list) + 1, sizeof(*m->ifaces));
	json_array_foreach(list, i, x) {
		struct nm_iface *it = &m->ifaces[m->nifaces];
		const json_t *addrs = json_object_get(x, "addrs");

		if (!(it->name = jpath_str(x, "name")))
			continue;
		it->kind = jpath_str(x, "kind");
		it->vendor = jpath_str(x, "vendor");
		it->driver = jpath_str(x, "driver");
		it->mtu = (long)jpath_int(x, "mtu", -1);
		it->speed_mbps = (long)jpath_int(x, "speed_mbps", -1);
		it->up = jpath_bool(x, "up", 0);
		it->running = jpath_bool(x, "running", 0);
		it->virtual = jpath_bool(x, "virtual", 0);
		it->naddrs = json_is_array(addrs) ? json_array_size(addrs) : 0;
		it->first_addr = jpath_str(json_array_get(addrs, 0), "addr");
		it->addrs = xcalloc(it->naddrs + 1, sizeof(*it->addrs));
		json_array_foreach(addrs, j, a) {
			it->addrs[j].addr = jpath_str(a, "addr");
			it->addrs[j].family = (int)jpath_int(a, "family", 0);
			it->addrs[j].cls = jpath_str(a, "class");
			it->addrs[j].prefixlen = (long)jpath_int(a, "prefixlen", -1);
		}
		m->nifaces++;
	}
}

/* Every member of array `a` as a list (borrowed): a NULL entry where one is not a string. */
static const char **any_str_list(const json_t *a, size_t *n)
{
	const char **v = xcalloc((json_is_array(a) ? json_array_size(a) : 0) + 1, sizeof(*v));
	const json_t *x;
	size_t i;

	*n = 0;
	json_array_foreach(a, i, x)
		v[(*n)++] = json_string_value(x);
	return v;
}

/* The strings of array `a` as a NULL-terminated list (borrowed); non-strings are skipped. */
static const char **str_list(const json_t *a, size_t *n)
{
	const char **v = xcalloc((json_is_array(a) ? json_array_size(a) : 0) + 1, sizeof(*v));
	const json_t *x;
	size_t i;

	*n = 0;
	json_array_foreach(a, i, x)
		if (json_is_string(x))
			v[(*n)++] = json_string_value(x);
	return v;
}

static struct nm_gpu_link *links(const json_t *list, const char *a, const char *b, size_t *n)
{
	struct nm_gpu_link *v = xcalloc((json_is_array(list) ? json_array_size(list) : 0) + 1,
					sizeof(*v));
	const json_t *x;
	size_t i;

	*n = 0;
	json_array_foreach(list, i, x) {
		struct nm_gpu_link *l = &v[(*n)++];

		l->a = jpath_int(x, a, -1);
		l->b = b ? jpath_int(x, b, -1) : -1;
		l->nic = b ? NULL : jpath_str(x, "nic");
		l->level = jpath_str(x, "level");
	}
	return v;
}

static void decode_topology(struct node_model *m, const json_t *facts)
{
	const json_t *topo = json_object_get(facts, "topology");

	m->gpu_gpu = links(json_object_get(topo, "gpu_gpu"), "a", "b", &m->ngpu_gpu);
	m->gpu_nic = links(json_object_get(topo, "gpu_nic"), "gpu", NULL, &m->ngpu_nic);
	m->gpu_nic_unknown = junknown(json_object_get(topo, "gpu_nic"));
}

static void decode_stack(struct node_model *m, const json_t *facts)
{
	const json_t *list = json_object_get(facts, "python"), *x;
	size_t i, n;

	m->stack.driver = jpath_str(facts, "driver.version");
	m->stack.nccl_unknown = junknown(json_object_get(facts, "nccl"));
	m->stack.python_unknown = junknown(list);
	m->stack.cuda_driver = jpath_str(facts, "driver.cuda_driver.version");
	if (json_is_array(list)) {
		m->stack.python = xcalloc(json_array_size(list) + 1, sizeof(*m->stack.python));
		json_array_foreach(list, i, x) {
			struct nm_python *p = &m->stack.python[m->stack.npython++];
			const json_t *t = json_object_get(x, "torch");

			p->path = jpath_str(x, "path");
			p->version = jpath_str(x, "version");
			p->version_unknown = junknown(json_object_get(x, "version"));
			p->why = str_list(json_object_get(x, "why"), &p->nwhy);
			p->elapsed_ms = jpath_int(x, "elapsed_ms", 0);
			p->torch_unknown = junknown(t);
			p->lightning_unknown = junknown(json_object_get(x, "lightning"));
			p->pl_unknown = junknown(json_object_get(x, "pytorch_lightning"));
			if (json_is_object(t) && !junknown(t)) {
				p->torch = jpath_str(t, "version");
				p->torch_cuda = jpath_str(t, "cuda");
				p->torch_nccl = jpath_str(t, "nccl_version");
				p->nccl_mapped = jpath_str(t, "nccl_mapped");
				p->nccl_static = jpath_bool(t, "nccl_static", -1);
				p->torch_cudnn = jpath_str(t, "cudnn");
				p->torch_cuda_available_known =
					json_is_boolean(json_object_get(t, "cuda_available"));
				p->torch_device_count = jpath_int(t, "device_count", 0);
			}
			p->torch_installed = jpath_bool(x, "torch.installed", 0);
			p->lightning_installed = jpath_bool(x, "lightning.installed", 0);
			p->pl_installed = jpath_bool(x, "pytorch_lightning.installed", 0);
			p->lightning_pkg = jpath_str(x, "lightning.version");
			p->pl_pkg = jpath_str(x, "pytorch_lightning.version");
			p->lightning = p->lightning_pkg ? p->lightning_pkg : p->pl_pkg;
			p->torch_path = jpath_str(x, "torch.path");
			p->site_packages = str_list(json_object_get(x, "site_packages"), &n);
			nm_python_supply(p, json_object_get(x, "supply"));
			if (p->torch && !m->stack.torch)
				m->stack.torch = p;
			if (p->torch_nccl && !m->stack.nccl_python)
				m->stack.nccl_python = p;
		}
	}
	list = jpath(facts, "nccl.libs");
	if (json_is_array(list)) {
		m->stack.nccl_libs = xcalloc(json_array_size(list) + 1, sizeof(*m->stack.nccl_libs));
		json_array_foreach(list, i, x) {
			struct nm_nccl_lib *l = &m->stack.nccl_libs[m->stack.nnccl_libs++];

			l->path = jpath_str(x, "path");
			l->realpath = jpath_str(x, "realpath");
			l->version = jpath_str(x, "version");
			l->unknown = junknown(json_object_get(x, "version"));
			l->is_default = jpath_bool(x, "default", 0);
			l->default_how = jpath_str(x, "default_how");
			l->paths = str_list(json_object_get(x, "paths"), &n);
			l->found_by = str_list(json_object_get(x, "found_by"), &n);
			l->tls_built = jpath_bool(x, "tls.built", -1);
			l->tls_libssl = jpath_bool(x, "tls.libssl", -1);
		}
	}
	list = jpath(facts, "nccl.plugins");
	if (json_is_array(list)) {
		m->stack.plugin_names = xcalloc(json_array_size(list) + 1, sizeof(*m->stack.plugin_names));
		m->stack.plugin_paths = xcalloc(json_array_size(list) + 1, sizeof(*m->stack.plugin_paths));
		m->stack.plugin_realpaths = xcalloc(json_array_size(list) + 1,
						    sizeof(*m->stack.plugin_realpaths));
		json_array_foreach(list, i, x) {
			m->stack.plugin_realpaths[m->stack.nplugins] = jpath_str(x, "realpath");
			m->stack.plugin_paths[m->stack.nplugins] = jpath_str(x, "path");
			m->stack.plugin_names[m->stack.nplugins++] = jpath_str(x, "name");
		}
	}
	m->stack.nccl_default_why = jpath_str(facts, "nccl.default.why");
	list = jpath(facts, "nccl.conf");
	if (json_is_array(list)) {
		m->stack.confs = xcalloc(json_array_size(list) + 1, sizeof(*m->stack.confs));
		json_array_foreach(list, i, x) {
			struct nm_conf *c = &m->stack.confs[m->stack.nconfs++];
			const json_t *vars = json_object_get(x, "vars"), *val;
			const char *k;

			c->path = jpath_str(x, "path");
			c->source = jpath_str(x, "source");
			c->exists = jpath_bool(x, "exists", 1);
			c->unreadable = junknown(vars);
			c->applies = jpath_str(x, "applies");
			if (json_is_object(vars) && !c->unreadable) {
				c->vars = xcalloc(json_object_size(vars) + 1, sizeof(*c->vars));
				json_object_foreach((json_t *)vars, k, val) {
					c->vars[c->nvars].name = k;
					c->vars[c->nvars++].value = json_string_value(val);
				}
			}
		}
	}
	m->stack.net_plugin_state = jpath_str(facts, "nccl.net_plugin.state");
	m->stack.net_plugin_path = jpath_str(facts, "nccl.net_plugin.path");
	m->stack.net_plugin_env = jpath_str(facts, "nccl.net_plugin.env");
	m->stack.net_plugin_tries = jpath_str(facts, "nccl.net_plugin.tries");
	list = json_object_get(facts, "gpus");
	m->gpus_unknown = junknown(list);
	if (json_is_array(list)) {
		m->gpus_known = 1;
		m->gpus = xcalloc(json_array_size(list) + 1, sizeof(*m->gpus));
		json_array_foreach(list, i, x) {
			struct nm_gpu *g = &m->gpus[m->ngpus++];

			g->index = (long)jpath_int(x, "index", (long long)i);
			g->name = jpath_str(x, "name");
			g->bus_id = jpath_str(x, "bus_id");
			g->compute_capability = jpath_str(x, "compute_capability");
			g->has_memory = json_is_integer(json_object_get(x, "memory_total_mb"));
			g->memory_mb = jpath_int(x, "memory_total_mb", 0);
			g->has_numa = json_is_integer(json_object_get(x, "numa_node"));
			g->numa_node = jpath_int(x, "numa_node", -1);
			g->nvlinks_up = jpath_int(x, "nvlinks_up", 0);
			g->nvswitch = jpath_int(x, "nvlink_switch_links", 0) != 0;
		}
	}
	decode_topology(m, facts);
}

static void decode_cuda(struct node_model *m, const json_t *facts)
{
	const json_t *c = json_object_get(facts, "cuda"), *t, *a;
	size_t i, j;

	/* an unknown toolkit section still says CUDA was looked for: the rule reports "none" */
	if (!json_is_object(c))
		return;
	m->cuda.known = 1;
	m->cuda.nvcc_found = jpath_bool(c, "nvcc.found", 0);
	m->cuda.nvcc_toolkit = jpath_str(c, "nvcc.toolkit");
	m->cuda.nvcc_path = jpath_str(c, "nvcc.path");
	m->cuda.nvcc_version = jpath_str(c, "nvcc.version");
	t = json_object_get(c, "toolkits");
	if (!json_is_array(t))
		return;
	m->cuda.toolkits = xcalloc(json_array_size(t) + 1, sizeof(*m->cuda.toolkits));
	json_array_foreach(json_object_get(c, "toolkits"), i, t) {
		struct nm_toolkit *k = &m->cuda.toolkits[m->cuda.ntoolkits++];
		const json_t *al = json_object_get(t, "aliases");

		k->path = jpath_str(t, "path");
		k->version = jpath_str(t, "version");
		k->source = jpath_str(t, "source");
		k->is_default = jpath_bool(t, "default", 0);
		if (!json_is_array(al))
			continue;
		k->aliases = xcalloc(json_array_size(al) + 1, sizeof(*k->aliases));
		json_array_foreach(al, j, a)
			if (json_is_string(a))
				k->aliases[k->naliases++] = json_string_value(a);
	}
}

static void decode_driver(struct node_model *m, const json_t *facts)
{
	const json_t *d = json_object_get(facts, "driver"), *p, *x;
	struct nm_driver *r = &m->driver;
	size_t i, n;

	if (json_is_object(d)) {
		r->section = 1;
		p = json_object_get(d, "present");
		r->present = json_is_boolean(p) ? json_is_true(p) : -1;
		r->present_unknown = junknown(p);
		r->reason = jpath_str(d, "reason");
		r->version = jpath_str(d, "version");
		r->version_unknown = junknown(json_object_get(d, "version"));
		r->source = jpath_str(d, "source");
		r->kmod_flavor = jpath_str(d, "kernel_module.flavor");
		r->cuda_status = jpath_str(d, "cuda_driver.status");
		r->cuda_error = jpath_str(d, "cuda_driver.error");
		r->has_cuda_device_count = json_is_integer(jpath(d, "cuda_driver.device_count"));
		r->cuda_device_count = jpath_int(d, "cuda_driver.device_count", 0);
		r->cuda_max = jpath_str(d, "cuda_max");
		r->cuda_max_source = jpath_str(d, "cuda_max_source");
		r->nvml_status = jpath_str(d, "nvml.status");
		r->nvml_error = jpath_str(d, "nvml.error");
		r->nvml_hint = jpath_str(d, "nvml.hint");
		r->nvml_library = jpath_str(d, "nvml.library");
		r->nvml_library_version = jpath_str(d, "nvml.library_version");
		r->nvml_cuda_version = jpath_str(d, "nvml.cuda_version");
		r->nvml_error_code = jpath_int(d, "nvml.error_code", 0);
		r->nvml_cuda_version_code = jpath_int(d, "nvml.cuda_version_code", 0);
		r->kmod_version = jpath_str(d, "kernel_module.version");
		r->kmod_source = jpath_str(d, "kernel_module.source");
		r->cuda_init = jpath_str(d, "cuda_driver.init");
		r->cuda_init_hint = jpath_str(d, "cuda_driver.init_hint");
		r->cuda_library = jpath_str(d, "cuda_driver.library");
		r->cuda_version = jpath_str(d, "cuda_driver.version");
		r->cuda_version_code = jpath_int(d, "cuda_driver.version_code", 0);
	}
	d = json_object_get(facts, "cudnn");
	if (!json_is_array(d))
		return;
	m->cudnn_listed = 1;
	m->cudnn = xcalloc(json_array_size(d) + 1, sizeof(*m->cudnn));
	json_array_foreach(d, i, x) {
		struct nm_cudnn *c = &m->cudnn[m->ncudnn++];

		c->path = jpath_str(x, "path");
		c->version = jpath_str(x, "version");
		c->source = jpath_str(x, "source");
		c->toolkit = jpath_str(x, "toolkit");
		c->found_by = str_list(json_object_get(x, "found_by"), &n);
	}
}

static void decode_host(struct node_model *m, const json_t *facts)
{
	const json_t *hr = json_object_get(facts, "hostname_resolution"), *r, *d, *p, *x;
	const json_t *shm = json_object_get(facts, "shm"), *ml = jpath(facts, "limits.memlock");
	size_t i, j;

	if (json_is_object(shm) && !junknown(shm)) {
		m->shm.known = 1;
		m->shm.path = jpath_str(shm, "path") ? jpath_str(shm, "path") : "/dev/shm";
		m->shm.exists = jpath_bool(shm, "exists", 1);
		m->shm.writable = jpath_bool(shm, "writable", 1);
		m->shm.writable_said = jpath_bool(shm, "writable", 0);
		m->shm.size_known = json_is_number(json_object_get(shm, "size_bytes"));
		m->shm.avail_known = json_is_number(json_object_get(shm, "avail_bytes"));
		m->shm.read_only = jpath_bool(shm, "read_only", 0);
		m->shm.size = jpath_int(shm, "size_bytes", -1);
		m->shm.avail = jpath_int(shm, "avail_bytes", -1);
		m->shm.error = jpath_str(shm, "error");
	}
	m->memlock.unknown = junknown(ml);
	if (json_is_object(ml) && !junknown(ml)) {
		m->memlock.known = 1;
		m->memlock.soft_known = json_is_number(json_object_get(ml, "soft"));
		m->memlock.hard_known = json_is_number(json_object_get(ml, "hard"));
		m->memlock.soft = jpath_int(ml, "soft", -1);
		m->memlock.hard = jpath_int(ml, "hard", -1);
	}

	m->limits.nofile_soft = jpath_int(facts, "limits.nofile.soft", -2);
	m->limits.nofile_hard = jpath_int(facts, "limits.nofile.hard", -2);
	m->limits.rmem_max = jpath_int(facts, "sysctl.rmem_max", -1);
	m->limits.wmem_max = jpath_int(facts, "sysctl.wmem_max", -1);
	m->limits.neigh_gc_thresh2 = jpath_int(facts, "sysctl.neigh_gc_thresh2", -1);
	m->limits.neigh_gc_thresh3 = jpath_int(facts, "sysctl.neigh_gc_thresh3", -1);
	m->limits.neigh_table_fulls = jpath_int(facts, "sysctl.neigh_table_fulls", -1);
	m->limits.neigh_entries = jpath_int(facts, "sysctl.neigh_entries", -1);
	m->hostname_res.recorded = hr != NULL;
	m->hostname_res.unknown = junknown(hr);
	if (hr && !junknown(hr)) {
		m->hostname_res.addrs_unknown = junknown(json_object_get(hr, "addrs"));
		m->hostname_res.addrs = any_str_list(json_object_get(hr, "addrs"),
						     &m->hostname_res.naddrs);
		m->hostname_res.name = jpath_str(hr, "name");
		m->hostname_res.first = json_string_value(json_array_get(json_object_get(hr, "addrs"), 0));
		m->hostname_res.loopback = jpath_bool(hr, "loopback", 0);
	}
	m->limits.nofile_known = json_is_object(jpath(facts, "limits.nofile")) &&
				 !junknown(jpath(facts, "limits.nofile"));
	r = json_object_get(facts, "rdma");
	m->rdma.recorded = r != NULL;
	if (!r || junknown(r))
		return;
	m->rdma.known = 1;
	m->rdma.dev_names = xcalloc(json_array_size(json_object_get(r, "devices")) + 1,
				    sizeof(*m->rdma.dev_names));
	m->rdma.dev_netdevs = xcalloc(json_array_size(json_object_get(r, "devices")) + 1,
				      sizeof(*m->rdma.dev_netdevs));
	json_array_foreach(json_object_get(r, "devices"), i, d) {
		size_t nn;

		m->rdma.dev_netdevs[m->rdma.ndevices] = str_list(json_object_get(d, "netdevs"), &nn);
		m->rdma.dev_names[m->rdma.ndevices++] = jpath_str(d, "name");
		json_array_foreach(json_object_get(d, "ports"), j, p) {
			struct nm_rdma_port *rp;

			m->rdma.ports = xrealloc(m->rdma.ports, (m->rdma.nports + 1) * sizeof(*rp));
			rp = &m->rdma.ports[m->rdma.nports++];
			rp->dev = jpath_str(d, "name");
			rp->dev_index = m->rdma.ndevices - 1;
			rp->port = (long)jpath_int(p, "port", 1);
			rp->port_known = json_is_number(json_object_get(p, "port"));
			rp->rate = jpath_str(p, "rate");
			rp->state = jpath_str(p, "state");
			rp->link_layer = jpath_str(p, "link_layer");
		}
	}
	m->rdma.verbs_probed = json_is_object(json_object_get(r, "verbs"));
	x = jpath(r, "verbs.loaded");
	m->rdma.verbs_loaded = json_is_boolean(x) ? json_is_true(x) : -1;
	m->rdma.verbs_error = jpath_str(r, "verbs.error");
	m->rdma.verbs_path = jpath_str(r, "verbs.path");
	m->rdma.verbs_devices = json_is_array(jpath(r, "verbs.devices"))
					? (long)json_array_size(jpath(r, "verbs.devices")) : -1;
	m->rdma.peermem_probed = json_is_object(json_object_get(r, "peermem"));
	m->rdma.peermem_loaded = jpath_bool(r, "peermem.loaded", 0);
	m->rdma.peermem_module = jpath_str(r, "peermem.module");
}

/*
 * An AWS instance id as the probe records it: "i-" and 8 or 17 lower-case hex digits, else NULL.
 * It goes into shell commands, so a peer's facts get nothing else through.
 */
static const char *aws_instance_id(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!s || strncmp(s, "i-", 2) || (n != 10 && n != 19))
		return NULL;
	for (const char *p = s + 2; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return NULL;
	return s;
}

static struct nm_text text(const json_t *facts, const char *path)
{
	const json_t *v = jpath(facts, path);
	struct nm_text t = { json_string_value(v), junknown(v) };

	return t;
}

struct node_model *node_model_new_opts(const json_t *facts, const struct node_model_opts *o,
				       struct err *e)
{
	struct node_model *m;
	const json_t *fw, *x;
	struct version v;

	if (node_facts_check(facts, e) < 0)
		return NULL;
	if (o && o->assume_nccl && version_parse(o->assume_nccl, &v) < 0) {
		err_set(e, ERR_USAGE, "'%s' is not an NCCL version", o->assume_nccl);
		return NULL;
	}
	m = xcalloc(1, sizeof(*m));
	m->hostname = jpath_str(facts, "host.hostname");
	m->boot_id = jpath_str(facts, "host.boot_id");
	m->schema_version = (int)jpath_int(facts, "schema_version", -1);
	x = jpath(facts, "host.interactive");
	m->interactive = json_is_boolean(x) ? json_is_true(x) : -1;
	decode_nccl(m, facts, o);
	/* one decision: the settings, the prediction and every rule model the same NCCL */
	nccl_settings_collect(facts, m->nccl.version, &m->settings);
	decode_ifs(m, facts);
	decode_master(m, facts);
	decode_ports(m, facts);
	m->default_ifname = jpath_str(facts, "net.default_route.ifname");
	x = jpath(facts, "net.default_route");
	m->default_route.recorded = x != NULL;
	m->default_route.unknown = junknown(x);
	m->default_route.present = jpath_bool(x, "present", 0);
	m->default_route.ifname = jpath_str(x, "ifname");
	m->default_route.gateway = jpath_str(x, "gateway");
	m->net_recorded = jpath(facts, "net") != NULL;
	fw = json_object_get(facts, "firewall");
	m->fw_recorded = fw != NULL;
	m->fw_unknown = junknown(fw);
	if (fw && !m->fw_unknown) {
		m->fw = fw_model_new(fw);
		m->fw_nrules = json_array_size(json_object_get(fw, "rules"));
		m->fw_source = json_string_value(json_array_get(json_object_get(fw, "source"), 0));
		m->fw_sources = any_str_list(json_object_get(fw, "source"), &m->fw_nsources);
		m->fw_nchains = json_array_size(json_object_get(fw, "chains"));
	}
	m->comm_id_unresolved = junknown(jpath(facts, "net.comm_id.resolved"));
	decode_ifaces(m, facts);
	decode_stack(m, facts);
	decode_host(m, facts);
	decode_cuda(m, facts);
	decode_driver(m, facts);
	m->os_id = jpath_str(facts, "host.os.id");
	m->host_name = text(facts, "host.hostname");
	m->os_pretty = text(facts, "host.os.pretty_name");
	m->kernel = text(facts, "host.kernel");
	m->container_kind = text(facts, "host.container.kind");
	m->cloud.provider = jpath_str(facts, "cloud.provider");
	if (m->cloud.provider && !strcmp(m->cloud.provider, "unknown"))
		m->cloud.provider = NULL;
	m->cloud.evidence = jpath_str(facts, "cloud.evidence");
	m->cloud.container = jpath_str(facts, "host.container.kind");
	m->cloud.container_evidence = jpath_str(facts, "host.container.evidence");
	m->cloud.container_netns = jpath_str(facts, "host.container.netns");
	m->cloud.instance_type = jpath_str(facts, "cloud.instance_type");
	m->cloud.instance_id = aws_instance_id(jpath_str(facts, "cloud.instance_id"));
	m->cloud.efa = str_list(jpath(facts, "cloud.efa"), &m->cloud.nefa);
	m->cloud.erdma = str_list(jpath(facts, "cloud.erdma"), &m->cloud.nerdma);
	x = json_object_get(facts, "cloud");
	m->cloud.recorded = json_is_object(x) && jpath_str(x, "provider");
	m->cloud.unknown = junknown(x);
	m->cloud.name = jpath_str(x, "name");
	m->cloud.method = jpath_str(x, "method");
	m->cloud.why = jpath_str(x, "why");
	m->cloud.hints = any_str_list(json_object_get(x, "hints"), &m->cloud.nhints);
	x = json_object_get(facts, "env");
	if (json_is_object(x) && !junknown(x)) {
		const char *k;
		json_t *val;

		m->env = xcalloc(json_object_size(x) + 1, sizeof(*m->env));
		json_object_foreach((json_t *)x, k, val) {
			m->env[m->nenv].name = k;
			m->env[m->nenv++].value = json_string_value(val);
		}
	}
	m->cpus.online = jpath_int(facts, "host.cpus", -1);
	m->cpus.allowed = jpath_int(facts, "topology.cpus.pus", -1);
	m->cpus.bound = jpath_int(facts, "topology.cpus.bound_pus", -1);
	m->cpus.numa_online = jpath_int(facts, "host.numa_nodes", -1);
	m->cpus.numa_allowed = jpath_int(facts, "topology.cpus.numa_nodes", -1);
	return m;
}

struct node_model *node_model_new(const json_t *facts, struct err *e)
{
	return node_model_new_opts(facts, NULL, e);
}

void node_model_free(struct node_model *m)
{
	if (!m)
		return;
	nccl_settings_release(&m->settings);
	ifs_facts_release(&m->ifs);
	free(m->addr_class);
	fw_model_free(m->fw);
	free(m->fw_sources);
	free(m->hostname_res.addrs);
	free(m->env);
	for (size_t i = 0; i < m->nifaces; i++)
		free(m->ifaces[i].addrs);
	free(m->ifaces);
	free(m->gpus);
	for (int i = 0; i < m->rdma.ndevices; i++)
		free(m->rdma.dev_netdevs[i]);
	free(m->rdma.dev_netdevs);
	free(m->rdma.dev_names);
	free(m->rdma.ports);
	free(m->cloud.efa);
	free(m->cloud.erdma);
	free(m->cloud.hints);
	free(m->gpu_gpu);
	free(m->gpu_nic);
	free(m->stack.plugin_realpaths);
	for (size_t i = 0; i < m->stack.nconfs; i++)
		free(m->stack.confs[i].vars);
	for (size_t i = 0; i < m->stack.npython; i++) {
		free(m->stack.python[i].site_packages);
		free(m->stack.python[i].why);
		nm_python_supply_free(&m->stack.python[i]);
	}
	free(m->stack.python);
	for (size_t i = 0; i < m->stack.nnccl_libs; i++) {
		free(m->stack.nccl_libs[i].paths);
		free(m->stack.nccl_libs[i].found_by);
	}
	free(m->stack.nccl_libs);
	free(m->stack.confs);
	free(m->stack.plugin_names);
	free(m->stack.plugin_paths);
	for (size_t i = 0; i < m->cuda.ntoolkits; i++)
		free(m->cuda.toolkits[i].aliases);
	free(m->cuda.toolkits);
	for (size_t i = 0; i < m->ncudnn; i++)
		free(m->cudnn[i].found_by);
	free(m->cudnn);
	free(m);
}

/* ---- queries ---- */

const struct nm_nccl_lib *node_model_loaded_lib(const struct node_model *m)
{
	const char *p = m->nccl.loaded_path;

	for (size_t i = 0; p && i < m->stack.nnccl_libs; i++) {
		const struct nm_nccl_lib *l = &m->stack.nccl_libs[i];

		if ((l->path && !strcmp(l->path, p)) || (l->realpath && !strcmp(l->realpath, p)))
			return l;
		for (size_t k = 0; l->paths && l->paths[k]; k++)
			if (!strcmp(l->paths[k], p))
				return l;
	}
	return NULL;
}

enum nm_tls node_model_nccl_tls(const struct node_model *m)
{
	const struct nm_nccl_lib *l = node_model_loaded_lib(m);

	if (!l || !l->version || version_cmp_str(l->version, "2.32") < 0 || l->tls_built < 0)
		return NM_TLS_UNKNOWN;
	if (!l->tls_built)
		return NM_TLS_NONE;
	return l->tls_libssl == 1 ? NM_TLS_READY : l->tls_libssl == 0 ? NM_TLS_NO_LIBSSL : NM_TLS_UNKNOWN;
}

const char *nm_tls_words(enum nm_tls t)
{
	switch (t) {
	case NM_TLS_NONE: return "built without TLS: cannot encrypt";
	case NM_TLS_NO_LIBSSL: return "built with TLS, but libssl.so.3 / libcrypto.so.3 do not load";
	case NM_TLS_READY: return "built with TLS, OpenSSL 3 loads: can encrypt";
	default: return "not known";
	}
}

const struct nm_iface *node_model_iface(const struct node_model *m, const char *name)
{
	for (size_t i = 0; name && i < m->nifaces; i++)
		if (!strcmp(m->ifaces[i].name, name))
			return &m->ifaces[i];
	return NULL;
}

const struct ifs_addr *node_model_addr(const struct node_model *m, const char *name, int family)
{
	for (size_t i = 0; name && i < m->ifs.in.naddrs; i++) {
		const struct ifs_addr *a = &m->ifs.in.addrs[i];

		if (!strcmp(a->name, name) && (!family || a->family == family))
			return a;
	}
	return NULL;
}

const char *node_model_addr_class(const struct node_model *m, const char *text)
{
	for (size_t i = 0; text && i < m->ifs.in.naddrs; i++)
		if (!strcmp(m->ifs.in.addrs[i].text, text))
			return m->addr_class[i];
	return NULL;
}

const char *node_model_cluster_ifname(const struct node_model *m)
{
	if (m->master.ifname && strncmp(m->master.ifname, "lo", 2))
		return m->master.ifname;
	if (m->have_ifs && m->pred.boot_status == IFS_OK)
		return m->pred.boot->name;
	return m->default_ifname;
}

const struct nccl_setting *node_model_setting(const struct node_model *m, const char *name)
{
	return nccl_settings_get(&m->settings, name);
}

const char *node_model_env(const struct node_model *m, const char *name)
{
	for (size_t i = 0; name && i < m->nenv; i++)
		if (!strcmp(m->env[i].name, name))
			return m->env[i].value;
	return NULL;
}

int node_model_predict(const struct node_model *m, const struct nm_override *ov, size_t n,
		       struct ifs_result *out)
{
	struct ifs_input in;

	if (!m->have_ifs) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	in = m->ifs.in;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(ov[i].name, "NCCL_SOCKET_IFNAME")) {
			in.socket_ifname = ov[i].value;
		} else if (!strcmp(ov[i].name, "NCCL_SOCKET_FAMILY")) {
			in.socket_family = ov[i].value;
		} else if (!strcmp(ov[i].name, "NCCL_COMM_ID")) {
			in.comm_id = ov[i].value;
			/* the probe resolved only the job's own value */
			if (!m->ifs.in.comm_id || !ov[i].value || strcmp(ov[i].value, m->ifs.in.comm_id))
				in.comm_id_resolved = NULL;
		}
	}
	ifs_predict(&in, out);
	return 0;
}

int node_model_ifname_for(const struct node_model *m, const char *ifname, char *out, size_t len)
{
	char exact[IFS_PREFIX_MAX + 2];
	const char *cands[2];

	if (!ifname)
		return -1;
	snprintf(exact, sizeof(exact), "=%s", ifname);
	cands[0] = ifname;
	cands[1] = exact;
	for (int i = 0; i < 2; i++) {
		struct nm_override ov = { "NCCL_SOCKET_IFNAME", cands[i] };
		struct ifs_result r;

		if (node_model_predict(m, &ov, 1, &r) < 0)
			return -1;
		if (r.boot_status == IFS_OK && !strcmp(r.boot->name, ifname) && r.sockets.n == 1) {
			snprintf(out, len, "%s", cands[i]);
			return 0;
		}
	}
	return -1;
}
