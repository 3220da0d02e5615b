/*
 * Which cloud this node runs on, decided offline: the SMBIOS strings the firmware leaves in
 * /sys/class/dmi/id and Xen's /sys/hypervisor/uuid, matched exactly as cloud-init's ds-identify
 * does, then hints from devices when DMI says nothing (containers often have no DMI): the RDMA
 * driver (efa, erdma), the NIC driver (ena, gve), Azure's HPC-image nccl.conf, and the AutoDL host
 * name. Never asks a metadata server. Runs after the nic, rdma and nccl_libs probes: it reads
 * their facts. Rules turn the provider into cloud-specific tips (rules/cloud.c).
 */
#include "probe/probe.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define DMI_MAX 128

struct dmi {
	int present;			/* class/dmi/id exists */
	char sys_vendor[DMI_MAX];
	char product_name[DMI_MAX];
	char product_serial[DMI_MAX];
	char product_uuid[DMI_MAX];
	char chassis_asset_tag[DMI_MAX];
	char board_asset_tag[DMI_MAX];
	char hv_uuid[DMI_MAX];		/* /sys/hypervisor/uuid (Xen guests) */
	struct strbuf unreadable;	/* "product_uuid, product_serial": files only root may read */
};

struct verdict {
	const char *provider;		/* NULL until something decides */
	const char *method;		/* "dmi", "device", "config", "hostname" */
	char *evidence;
	char *source;
};

/* Printable ASCII only, trimmed: DMI strings are firmware bytes, and facts must be valid UTF-8. */
static void clean(char *s)
{
	size_t n;
	char *p;

	for (p = s; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
	p = s + strspn(s, " ");
	memmove(s, p, strlen(p) + 1);
}

static void read_attr(const struct probe_ctx *ctx, const char *rel, const char *name, char *buf,
		      struct strbuf *unreadable)
{
	char *path = probe_sys_path(ctx, rel);
	struct strbuf sb = STRBUF_INIT;

	buf[0] = '\0';
	if (file_read(path, &sb, DMI_MAX - 1, NULL) == 0) {
		char *nl = strchr(sb.buf, '\n');
		if (nl)
			*nl = '\0';
		snprintf(buf, DMI_MAX, "%s", sb.buf);
		clean(buf);
	} else if (unreadable && file_exists(path)) {
		/* product_uuid and the serials are mode 0400: unprivileged runs cannot see them */
		strbuf_addf(unreadable, "%s%s", unreadable->len ? ", " : "", name);
	}
	strbuf_release(&sb);
	free(path);
}

static void read_dmi(const struct probe_ctx *ctx, struct dmi *d)
{
	static const struct {
		const char *name;
		size_t off;
	} attrs[] = {
		{ "sys_vendor", offsetof(struct dmi, sys_vendor) },
		{ "product_name", offsetof(struct dmi, product_name) },
		{ "product_serial", offsetof(struct dmi, product_serial) },
		{ "product_uuid", offsetof(struct dmi, product_uuid) },
		{ "chassis_asset_tag", offsetof(struct dmi, chassis_asset_tag) },
		{ "board_asset_tag", offsetof(struct dmi, board_asset_tag) },
	};
	char *dir = probe_sys_path(ctx, "class/dmi/id");

	d->present = file_is_dir(dir);
	free(dir);
	for (size_t i = 0; d->present && i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "class/dmi/id/%s", attrs[i].name);
		read_attr(ctx, rel, attrs[i].name, (char *)d + attrs[i].off, &d->unreadable);
	}
	read_attr(ctx, "hypervisor/uuid", "hypervisor/uuid", d->hv_uuid, NULL);
}

static void decide(struct verdict *v, const char *provider, const char *method, char *evidence, char *source)
{
	if (v->provider) {
		free(evidence);
		free(source);
		return;
	}
	v->provider = provider;
	v->method = method;
	v->evidence = evidence;
	v->source = source;
}

static int is_hex(int c)
{
	return isxdigit((unsigned char)c);
}

/*
 * ds-identify's ec2 test on the product UUID's first group: "EC2..." or, with the bytes of the
 * first field swapped (SMBIOS 2.4 little-endian), "...2?EC" as in 45E12AEC. Returns 1, 2 when
 * swapped, 0 when neither.
 */
static int ec2_uuid(const char *uuid)
{
	size_t n = strcspn(uuid, "-");

	if (n >= 3 && (uuid[0] == 'E' || uuid[0] == 'e') && (uuid[1] == 'C' || uuid[1] == 'c') && uuid[2] == '2')
		return 1;
	if (n >= 4 && uuid[n - 4] == '2' && is_hex(uuid[n - 3]) && (uuid[n - 2] == 'E' || uuid[n - 2] == 'e') &&
	    (uuid[n - 1] == 'C' || uuid[n - 1] == 'c'))
		return 2;
	return 0;
}

static char *dmi_src(const struct probe_ctx *ctx, const char *attr)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "class/dmi/id/%s", attr);
	return probe_sys_path(ctx, rel);
}

/* cloud-init's signatures (research/launch-and-cloud.md §2.9), plus systemd's "Amazon EC2" vendor. */
static void match_dmi(const struct probe_ctx *ctx, const struct dmi *d, struct verdict *v)
{
	int k;

	if (!strcmp(d->product_name, "Google Compute Engine"))
		decide(v, "gcp", "dmi", xstrdup("DMI product_name 'Google Compute Engine'"), dmi_src(ctx, "product_name"));
	if (!strncmp(d->product_serial, "GoogleCloud-", 12))
		decide(v, "gcp", "dmi", xstrdup("DMI product_serial 'GoogleCloud-...'"), dmi_src(ctx, "product_serial"));
	if (!strcmp(d->chassis_asset_tag, "7783-7084-3265-9085-8269-3286-77"))
		decide(v, "azure", "dmi", xasprintf("DMI chassis_asset_tag '%s' (Azure's)", d->chassis_asset_tag),
		       dmi_src(ctx, "chassis_asset_tag"));
	if (!strcmp(d->chassis_asset_tag, "OracleCloud.com"))
		decide(v, "oci", "dmi", xstrdup("DMI chassis_asset_tag 'OracleCloud.com'"), dmi_src(ctx, "chassis_asset_tag"));
	if (!strcmp(d->product_name, "Alibaba Cloud ECS"))
		decide(v, "alibaba", "dmi", xstrdup("DMI product_name 'Alibaba Cloud ECS'"), dmi_src(ctx, "product_name"));
	if (!strncmp(d->hv_uuid, "ec2", 3))
		decide(v, "aws", "dmi", xasprintf("/sys/hypervisor/uuid begins 'ec2' (a Xen EC2 instance)"),
		       probe_sys_path(ctx, "hypervisor/uuid"));
	if (!strcmp(d->sys_vendor, "Amazon EC2"))
		decide(v, "aws", "dmi", xstrdup("DMI sys_vendor 'Amazon EC2' (a Nitro instance)"), dmi_src(ctx, "sys_vendor"));
	if (d->product_uuid[0] && (k = ec2_uuid(d->product_uuid)) != 0)
		decide(v, "aws", "dmi", xasprintf("DMI product_uuid begins '%.*s'%s", (int)strcspn(d->product_uuid, "-"),
						  d->product_uuid, k == 2 ? " (EC2, byte-swapped)" : ""),
		       dmi_src(ctx, "product_uuid"));
}

/* The driver bound to a sysfs device directory: the last part of the device/driver link. */
static int driver_of(const char *devdir, char *buf, size_t len)
{
	char *p = path_join(devdir, "device/driver"), target[PATH_MAX];
	ssize_t n = readlink(p, target, sizeof(target) - 1);
	const char *slash;

	free(p);
	if (n < 0)
		return -1;
	target[n] = '\0';
	slash = strrchr(target, '/');
	snprintf(buf, len, "%.63s", slash ? slash + 1 : target);
	return 0;
}

static void add_hint(json_t *hints, const char *fmt, const char *a, const char *b)
{
	char *s = xasprintf(fmt, a, b);
	json_array_append_new(hints, json_string(s));
	free(s);
}

/* RDMA devices whose driver names a cloud fabric: efa (AWS), erdma (Alibaba). */
static void rdma_hints(const struct probe_ctx *ctx, json_t *cloud, json_t *hints, struct verdict *v)
{
	char *root = probe_sys_path(ctx, "class/infiniband");
	DIR *dir = opendir(root);
	struct dirent *de;
	json_t *efa = json_array(), *erdma = json_array();

	while (dir && (de = readdir(dir))) {
		char drv[64] = "", *p;

		if (de->d_name[0] == '.')
			continue;
		p = path_join(root, de->d_name);
		if (driver_of(p, drv, sizeof(drv)) < 0) {
			/* no driver link (some fixtures, odd kernels): the device's name */
			if (!strncmp(de->d_name, "efa", 3))
				snprintf(drv, sizeof(drv), "efa");
			else if (!strncmp(de->d_name, "erdma", 5))
				snprintf(drv, sizeof(drv), "erdma");
		}
		if (!strcmp(drv, "efa")) {
			json_array_append_new(efa, json_string(de->d_name));
			add_hint(hints, "RDMA device %s uses the %s driver (AWS Elastic Fabric Adapter)", de->d_name, drv);
			decide(v, "aws", "device", xasprintf("RDMA device %s uses the efa driver (Elastic Fabric Adapter)",
							     de->d_name), path_join(p, "device/driver"));
		} else if (!strcmp(drv, "erdma")) {
			json_array_append_new(erdma, json_string(de->d_name));
			add_hint(hints, "RDMA device %s uses the %s driver (Alibaba Cloud elastic RDMA)", de->d_name, drv);
			decide(v, "alibaba", "device", xasprintf("RDMA device %s uses the erdma driver (elastic RDMA)",
								 de->d_name), path_join(p, "device/driver"));
		}
		free(p);
	}
	if (dir)
		closedir(dir);
	json_object_set_new(cloud, "efa", efa);
	json_object_set_new(cloud, "erdma", erdma);
	free(root);
}

/* NIC drivers only one cloud uses: ena (AWS), gve (Google's gVNIC); hv_netvsc is any Hyper-V. */
static void nic_hints(const json_t *facts, json_t *hints, struct verdict *v)
{
	const json_t *it;
	size_t i;

	json_array_foreach(jpath(facts, "net.interfaces"), i, it) {
		const char *name = jpath_str(it, "name"), *drv = jpath_str(it, "driver");

		if (!name || !drv)
			continue;
		if (!strcmp(drv, "ena")) {
			add_hint(hints, "%s uses the %s driver (AWS Elastic Network Adapter)", name, drv);
			decide(v, "aws", "device", xasprintf("%s uses the ena driver (Elastic Network Adapter)", name),
			       xasprintf("net.interfaces[%s].driver", name));
		} else if (!strcmp(drv, "gve")) {
			add_hint(hints, "%s uses the %s driver (Google Virtual NIC)", name, drv);
			decide(v, "gcp", "device", xasprintf("%s uses the gve driver (gVNIC)", name),
			       xasprintf("net.interfaces[%s].driver", name));
		} else if (!strcmp(drv, "hv_netvsc")) {
			/* Azure, but also any other Hyper-V host: a hint, not a verdict */
			add_hint(hints, "%s uses the %s driver (a Hyper-V guest: Azure or on-premises Hyper-V)", name, drv);
		}
	}
}

/* Azure's HPC images write /etc/nccl.conf with NCCL_TOPO_FILE=/opt/microsoft/nd*.../topo.xml. */
static void conf_hints(const json_t *facts, json_t *hints, struct verdict *v)
{
	const json_t *c;
	size_t i;

	json_array_foreach(jpath(facts, "nccl.conf"), i, c) {
		const char *topo = jpath_str(json_object_get(c, "vars"), "NCCL_TOPO_FILE");
		const char *path = jpath_str(c, "path");

		if (topo && !strncmp(topo, "/opt/microsoft/", 15)) {
			add_hint(hints, "%s sets NCCL_TOPO_FILE=%s (an Azure HPC image)", path ? path : "nccl.conf", topo);
			decide(v, "azure", "config", xasprintf("%s sets NCCL_TOPO_FILE=%s, as Azure's HPC images do",
							       path ? path : "nccl.conf", topo),
			       xstrdup(path ? path : "nccl.conf"));
		}
	}
}

/*
 * AutoDL publishes no signature (research §2.1); its containers' host names start with
 * "autodl-container-" in users' shell prompts. A heuristic, and said to be one.
 */
static void hostname_hint(const json_t *facts, json_t *hints, struct verdict *v)
{
	const char *h = jpath_str(facts, "host.hostname");

	if (h && !strncmp(h, "autodl-container-", 17)) {
		add_hint(hints, "host name '%s' has AutoDL's container pattern%s", h, " (a heuristic)");
		decide(v, "autodl", "hostname",
		       xasprintf("host name '%s' starts with 'autodl-container-' (a heuristic: AutoDL "
				 "documents no signature)", h), xstrdup("host.hostname"));
	}
}

/* Nitro's product_name is the instance type ("p5.48xlarge"): lower case, one dot. */
static int looks_like_instance_type(const char *s)
{
	const char *dot = strchr(s, '.');

	if (!dot || dot == s || strchr(dot + 1, '.') || !dot[1])
		return 0;
	for (const char *p = s; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '.' || *p == '-'))
			return 0;
	return 1;
}

static const char *provider_name(const char *p)
{
	static const struct {
		const char *id, *name;
	} names[] = {
		{ "aws", "Amazon Web Services EC2" },
		{ "gcp", "Google Cloud Compute Engine" },
		{ "azure", "Microsoft Azure" },
		{ "oci", "Oracle Cloud Infrastructure" },
		{ "alibaba", "Alibaba Cloud ECS" },
		{ "autodl", "AutoDL" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].id, p))
			return names[i].name;
	return p;
}

void probe_cloud(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *cloud = jobj_child(facts, "cloud"), *hints = json_array(), *dj;
	struct dmi d;
	struct verdict v;

	memset(&d, 0, sizeof(d));
	strbuf_init(&d.unreadable, 0);
	memset(&v, 0, sizeof(v));
	read_dmi(ctx, &d);
	match_dmi(ctx, &d, &v);
	rdma_hints(ctx, cloud, hints, &v);
	nic_hints(facts, hints, &v);
	conf_hints(facts, hints, &v);
	hostname_hint(facts, hints, &v);

	if (d.present) {
		dj = json_object();
		/*
		 * vendor strings only: serials and the UUID identify the hardware and stay out of
		 * facts (the AWS instance id above is the one identifier a fix needs)
		 */
		if (d.sys_vendor[0])
			jset_str(dj, "sys_vendor", d.sys_vendor);
		if (d.product_name[0])
			jset_str(dj, "product_name", d.product_name);
		if (d.chassis_asset_tag[0])
			jset_str(dj, "chassis_asset_tag", d.chassis_asset_tag);
		if (d.unreadable.len)
			jset_str(dj, "unreadable", d.unreadable.buf);
		jset_str(dj, "source", "class/dmi/id");
		json_object_set_new(cloud, "dmi", dj);
	} else {
		char *p = probe_sys_path(ctx, "class/dmi/id");
		jset_unknown(cloud, "dmi", "no '%s': a container or a VM without SMBIOS", p);
		free(p);
	}
	if (v.provider) {
		jset_str(cloud, "provider", v.provider);
		jset_str(cloud, "name", provider_name(v.provider));
		jset_str(cloud, "method", v.method);
		jset_str(cloud, "evidence", v.evidence);
		jset_str(cloud, "source", v.source);
		if (!strcmp(v.provider, "aws") && !strcmp(d.sys_vendor, "Amazon EC2") &&
		    looks_like_instance_type(d.product_name))
			jset_str(cloud, "instance_type", d.product_name);
		/*
		 * Nitro's board_asset_tag is the instance id, which the AWS fixes need (it names no
		 * hardware and opens nothing; model/node.c accepts only its exact form); Xen has none
		 */
		if (!strcmp(v.provider, "aws") && !strncmp(d.board_asset_tag, "i-", 2))
			jset_str(cloud, "instance_id", d.board_asset_tag);
	} else {
		struct strbuf why = STRBUF_INIT;

		jset_str(cloud, "provider", "unknown");
		/* whole sentences (msgids), so the inventory reads them in the reader's language */
		if (!d.present)
			strbuf_addstr(&why, N_("no DMI strings to read (a container or a VM without "
					       "SMBIOS), and no cloud NIC, RDMA device or image marker"));
		else
			strbuf_addf(&why, N_("no cloud signature in DMI (sys_vendor '%s', product_name "
					     "'%s'), and no cloud NIC, RDMA device or image marker"),
				    d.sys_vendor[0] ? d.sys_vendor : "-", d.product_name[0] ? d.product_name : "-");
		if (d.unreadable.len)
			strbuf_addf(&why, "; %s readable by root only", d.unreadable.buf);
		jset_str(cloud, "why", why.buf);
		strbuf_release(&why);
	}
	json_object_set_new(cloud, "hints", hints);
	free(v.evidence);
	free(v.source);
	strbuf_release(&d.unreadable);
}
