/*
 * Host resources NCCL needs: /dev/shm for its shared-memory transport between local GPUs
 * (Docker's 64 MB default fails with "unhandled system error" once a few segments are
 * allocated), and an unlimited locked-memory limit wherever RDMA registers host buffers.
 * Pure: reads facts only.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

#define MiB (1024LL * 1024)
#define GiB (1024 * MiB)
/* NCCL's documentation asks containers for --shm-size=1g; below it several GPUs run out. */
#define SHM_WANT GiB
/* One SHM connection's segment is about 9.6 MB with default buffers; a few of them fill 64 MB. */
#define SHM_FREE_MIN (64 * MiB)
#define MEMLOCK_TINY (64 * MiB)

static void human(long long b, char *buf, size_t len)
{
	if (b < 0)
		snprintf(buf, len, "unlimited");
	else if (b >= GiB && b % GiB == 0)
		snprintf(buf, len, "%lld GiB", b / GiB);
	else if (b >= GiB)
		snprintf(buf, len, "%.1f GiB", (double)b / (double)GiB);
	else if (b >= MiB)
		snprintf(buf, len, "%lld MiB", b / MiB);
	else
		snprintf(buf, len, "%lld KiB", b / 1024);
}

static void shm_fixes(struct finding *f, const char *kind)
{
	int docker = kind && !strcmp(kind, "docker"), k8s = kind && !strcmp(kind, "kubernetes");

	if (k8s) {
		finding_fix(f, "%s", N_("# pod spec: volumes: [{name: dshm, emptyDir: {medium: Memory, "
				      "sizeLimit: 8Gi}}]"));
		finding_fix(f, "%s", N_("# container: volumeMounts: [{name: dshm, mountPath: /dev/shm}]"));
	} else if (docker) {
		finding_fix(f, "%s", N_("docker run --shm-size=8g ...   # restart the container with this"));
		finding_fix(f, "%s", N_("# or share the host's IPC namespace: docker run --ipc=host ..."));
	} else {
		finding_fix(f, "mount -o remount,size=8G /dev/shm");
		finding_fix(f, "%s", N_("# in a container: docker run --shm-size=8g (or --ipc=host); on "
				      "Kubernetes mount an emptyDir with medium: Memory at /dev/shm"));
	}
}

static void rule_shm(const struct node_model *m, struct findings *out)
{
	const struct nm_shm *shm = &m->shm;
	const char *path = shm->path, *kind = m->cloud.container;
	long long size = shm->size, avail = shm->avail, ngpus = -1;
	struct finding *f;
	char a[32], b[32];

	if (!shm->known)
		return;
	if (m->gpus_known)
		ngpus = (long long)m->ngpus;
	if (!shm->exists || !shm->writable) {
		int missing = !shm->exists;
		/* whole sentences: a translation words each (util/i18n.h) */
		f = finding_add(out, SEV_ERROR, missing ? "shm.missing" : "shm.not_writable",
				missing ? N_("%s does not exist") : N_("%s is not writable"), path);
		finding_evidence(f, "shm: %s: %s", path, str_or(shm->error, "write test failed"));
		finding_why(f, "NCCL creates its shared-memory segments there (shm_open) for the SHM "
			    "transport and proxy buffers; without it initialisation fails with "
			    "\"unhandled system error\" and a WARN about /dev/shm.");
		if (missing || shm->read_only)
			shm_fixes(f, kind);
		else
			finding_fix(f, "chmod 1777 %s", path);
		return;
	}
	if (size >= 0 && size < SHM_WANT) {
		human(size, a, sizeof(a));
		f = finding_add(out, ngpus == 0 || ngpus == 1 ? SEV_INFO : SEV_WARN, "shm.small",
				"%s is only %s; NCCL's shared-memory transport wants at least 1 GiB",
				path, a);
		finding_evidence(f, "shm: size %s%s%s", a, kind ? ", container " : "", kind ? kind : "");
		if (ngpus >= 0)
			finding_evidence(f, "gpus: %lld", ngpus);
		finding_why(f, "Each SHM connection between two local GPUs takes a segment of about "
			    "10 MB, and there are several per pair and channel; %s fills up and NCCL "
			    "fails with \"Error while creating shared memory segment\" (Docker's default "
			    "is 64 MB). PyTorch's DataLoader workers share the same space.%s", a,
			    ngpus == 1 ? N_(" With one GPU here, NCCL itself does not need it.") : "");
		shm_fixes(f, kind);
		return;
	}
	if (avail >= 0 && avail < SHM_FREE_MIN) {
		human(avail, a, sizeof(a));
		human(size, b, sizeof(b));
		f = finding_add(out, SEV_WARN, "shm.full", "%s has only %s free of %s", path, a, b);
		finding_evidence(f, "shm: size %s, available %s", b, a);
		finding_why(f, "Leftover segments of crashed jobs (nccl-*, torch_*) keep the memory; "
			    "NCCL fails to create new ones.");
		finding_fix(f, N_("ls -la %s   # remove leftovers of jobs that are no longer running"),
			    path);
		return;
	}
	human(size, a, sizeof(a));
	f = finding_add(out, SEV_OK, "shm", "%s: %s, writable", path,
			size >= 0 ? a : N_("size unknown"));
	finding_evidence(f, "shm: size %s", a);
}

/* Names of the RDMA devices in facts, or 0 when there are none (or the probe did not say). */
static size_t rdma_names(const struct node_model *m, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->rdma.ndevices; i++) {
		if (o + 2 < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
					      str_or(m->rdma.dev_names[i], "?"));
		if (o >= len)
			o = len - 1;
	}
	return (size_t)m->rdma.ndevices;
}

static void rule_memlock(const struct node_model *m, struct findings *out)
{
	const char *ibdis = node_model_env(m, "NCCL_IB_DISABLE");
	const char *kind = m->cloud.container;
	long long soft = m->memlock.soft, hard = m->memlock.hard;
	char names[256], s[32], h[32];
	struct finding *f;

	if (!m->memlock.known || !rdma_names(m, names, sizeof(names)))
		return;
	human(soft, s, sizeof(s));
	human(hard, h, sizeof(h));
	if (soft < 0) {
		f = finding_add(out, SEV_OK, "memlock", "locked memory is unlimited for RDMA (%s)",
				names);
		finding_evidence(f, "limits.memlock: soft %s, hard %s", s, h);
		return;
	}
	if (ibdis && ibdis[0] == '1') {
		f = finding_add(out, SEV_INFO, "memlock.limited",
				"locked memory is limited to %s, but NCCL_IB_DISABLE=1 keeps NCCL off "
				"RDMA (%s)", s, names);
		finding_evidence(f, "limits.memlock: soft %s, hard %s; env NCCL_IB_DISABLE=%s", s, h,
				 ibdis);
		finding_why(f, "Enable RDMA later and this limit becomes the next failure.");
		finding_fix(f, "ulimit -l unlimited");
		return;
	}
	f = finding_add(out, soft < MEMLOCK_TINY ? SEV_ERROR : SEV_WARN, "memlock.limited",
			"locked memory is limited to %s while RDMA devices exist (%s)", s, names);
	finding_evidence(f, "limits.memlock: soft %s, hard %s (getrlimit RLIMIT_MEMLOCK)", s, h);
	finding_evidence(f, "rdma.devices: %s", names);
	finding_why(f, "NCCL's IB/RoCE transport pins its host buffers with ibv_reg_mr, which counts "
		    "against RLIMIT_MEMLOCK; at %s registration fails (\"NET/IB : ... ibv_reg_mr "
		    "failed\", \"unhandled system error\"). NCCL's documentation asks for an unlimited "
		    "limit.", s);
	finding_fix(f, hard >= 0 ? N_("ulimit -l unlimited   # in the shell or job script that "
				      "starts training; the hard limit must allow it") :
				   N_("ulimit -l unlimited   # in the shell or job script that starts "
				      "training"));
	if (kind && !strcmp(kind, "docker"))
		finding_fix(f, "%s", N_("docker run --ulimit memlock=-1 ...   # restart the container "
				      "with this"));
	finding_fix(f, "%s", N_("printf '* soft memlock unlimited\\n* hard memlock unlimited\\n' >> "
			      "/etc/security/limits.conf   # then log in again"));
	finding_fix(f, "%s", N_("# under systemd or Slurm daemons: LimitMEMLOCK=infinity in the unit "
			      "file"));
}

void rule_resources(const struct node_model *m, struct findings *out)
{
	rule_shm(m, out);
	rule_memlock(m, out);
}
