/*
 * emit: a Kubeflow PyTorchJob (training-operator v1) whose pods use the host's network (so the
 * measured interface is the pod's), a memory-backed /dev/shm (a pod's default is too small for
 * NCCL's shared-memory transport), the recommended env, and an init container that runs
 * `ncclcheck cluster` before the trainer starts (frontier-2026.md §3(e)).
 */
#include "emit/emit_int.h"

#include <ctype.h>
#include <string.h>

static void yaml_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

/* `cmd` split on blanks into a YAML flow list */
static void yaml_words(struct strbuf *sb, const char *cmd)
{
	const char *p = cmd;
	int first = 1;

	strbuf_addch(sb, '[');
	while (*p) {
		const char *q;
		struct strbuf w = STRBUF_INIT;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		for (q = p; *q && *q != ' ' && *q != '\t'; q++)
			;
		strbuf_add(&w, p, (size_t)(q - p));
		strbuf_addstr(sb, first ? "" : ", ");
		yaml_str(sb, w.buf);
		strbuf_release(&w);
		first = 0;
		p = q;
	}
	strbuf_addch(sb, ']');
}

/* A secret's name: it comes from a Kubernetes Secret, never from the manifest. */
static int secret_name(const char *name)
{
	return strstr(name, "TOKEN") || strstr(name, "SECRET") || strstr(name, "PASSWORD") ||
	       strstr(name, "_KEY");
}

/* A placeholder as commented YAML: a secretKeyRef stub for a secret, else a value to fill in. */
static void placeholder(struct strbuf *sb, const struct rec_var *v, const char *in)
{
	struct strbuf c = STRBUF_INIT, s = STRBUF_INIT;

	strbuf_addf(&c, "%s  # ", in);
	strbuf_addf(&s, "%s: ", v->name);
	em_fill_in(&s, v->value);
	em_comment(sb, c.buf, s.buf);
	if (secret_name(v->name)) {
		struct strbuf k = STRBUF_INIT;

		/* a Secret's name: lower case, '-' for '_' (NCCLCHECK_TOKEN -> ncclcheck-token) */
		for (const char *p = v->name; *p; p++)
			strbuf_addch(&k, *p == '_' ? '-' : (char)tolower((unsigned char)*p));
		strbuf_addf(sb, "%s  # (kubectl create secret generic %s --from-literal=value=...)\n"
			    "%s  # - name: %s\n"
			    "%s  #   valueFrom:\n"
			    "%s  #     secretKeyRef: {name: %s, key: value}\n",
			    in, k.buf, in, v->name, in, in, k.buf);
		strbuf_release(&k);
	} else {
		strbuf_addf(sb, "%s  # - name: %s\n%s  #   value: \"...\"\n", in, v->name, in);
	}
	strbuf_release(&c);
	strbuf_release(&s);
}

static void env_list(struct strbuf *sb, const struct recommendation *rec, const char *in)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		if (v->where != WHERE_ENV || v->scope != SCOPE_ALL || !v->value)
			continue;
		if (!n++)
			strbuf_addf(sb, "%senv:\n", in);
		{
			struct strbuf c = STRBUF_INIT;
			strbuf_addf(&c, "%s  # ", in);
			em_comment_tr(sb, c.buf, v->why ? v->why : N_("recommended"));
			strbuf_release(&c);
		}
		if (rec_placeholder(v->value)) {
			placeholder(sb, v, in);
			continue;
		}
		strbuf_addf(sb, "%s  - name: %s\n%s    value: ", in, v->name, in);
		yaml_str(sb, v->value);
		strbuf_addch(sb, '\n');
	}
}

static void pod(struct strbuf *sb, const struct recommendation *rec, int master)
{
	const char *in = "        ";
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(sb, "%sspec:\n", in);
	strbuf_addf(sb, "%s  # %s\n"
		    "%s  hostNetwork: true\n"
		    "%s  dnsPolicy: ClusterFirstWithHostNet\n", in,
		    _("the host's interfaces: the NIC measured by ncclcheck is the pod's NIC, and RDMA "
		      "devices are reachable"), in, in);
	strbuf_addf(sb, "%s  initContainers:\n"
		    "%s    # %s\n"
		    "%s    - name: ncclcheck\n"
		    "%s      image: ", in, in,
		    _("checks the nodes before the trainer starts; a failure fails the pod, and the job "
		      "restarts"), in, in);
	yaml_str(sb, rec->image ? rec->image : "your-registry/your-image:tag");
	strbuf_addf(sb, "\n%s      env:\n", in);
	strbuf_addf(sb, "%s        # %s\n", in, _("one ncclcheck per node; it meets the others at rank "
						    "0's pod on a port that is not the TCPStore's"));
	strbuf_addf(sb, "%s        - name: MASTER_ADDR\n"
		    "%s          value: \"%s-master-0\"\n"
		    "%s        - name: MASTER_PORT\n"
		    "%s          value: \"%d\"\n"
		    "%s        - name: WORLD_SIZE\n"
		    "%s          value: \"%d\"\n"
		    "%s        - name: REPLICA_INDEX\n"
		    "%s          valueFrom:\n"
		    "%s            fieldRef:\n"
		    "%s              fieldPath: \"metadata.labels['training.kubeflow.org/replica-index']\"\n",
		    in, in, rec->job_name, in, in, rec->master_port + 1, in, in, rec->nodes, in, in,
		    in, in);
	/* the operator numbers workers from 0; rank 0 is the master's */
	strbuf_addf(sb, "%s      command: [\"sh\", \"-c\", \"RANK=%s exec ncclcheck cluster\"]\n", in,
		    master ? "0" : "$((REPLICA_INDEX + 1))");
	strbuf_addf(sb, "%s  containers:\n"
		    "%s    # %s\n"
		    "%s    - name: pytorch\n"
		    "%s      image: ", in, in,
		    _("the operator gives the container named pytorch PET_NNODES, PET_NODE_RANK, "
		      "PET_MASTER_ADDR, PET_MASTER_PORT; torchrun reads them"), in, in);
	yaml_str(sb, rec->image ? rec->image : "your-registry/your-image:tag");
	strbuf_addf(&cmd, "%s --nproc_per_node=%d %s", rec->torchrun, rec->gpus_per_node, rec->script);
	strbuf_addf(sb, "\n%s      command: ", in);
	yaml_words(sb, cmd.buf);
	strbuf_release(&cmd);
	strbuf_addch(sb, '\n');
	{
		struct strbuf in2 = STRBUF_INIT;
		strbuf_addf(&in2, "%s      ", in);
		env_list(sb, rec, in2.buf);
		strbuf_release(&in2);
	}
	strbuf_addf(sb, "%s      resources:\n"
		    "%s        limits:\n"
		    "%s          nvidia.com/gpu: %d\n"
		    "%s      volumeMounts:\n"
		    "%s        - name: dshm\n"
		    "%s          mountPath: /dev/shm\n"
		    "%s  volumes:\n"
		    "%s    # %s\n"
		    "%s    - name: dshm\n"
		    "%s      emptyDir:\n"
		    "%s        medium: Memory\n",
		    in, in, in, rec->gpus_per_node, in, in, in, in, in,
		    _("NCCL's shared-memory transport needs more than a pod's small default /dev/shm"),
		    in, in, in);
}

void emit_k8s(struct strbuf *sb, const struct recommendation *rec)
{
	em_header(sb, rec, "# ", _("Kubeflow PyTorchJob (kubectl apply -f FILE)"));
	strbuf_addf(sb, "# %s\n# %s\n",
		    _("Kubeflow Trainer v2 (TrainJob) sets PET_NNODES, PET_NPROC_PER_NODE, "
		      "PET_NODE_RANK, PET_MASTER_ADDR and PET_MASTER_PORT=29500 instead;"),
		    _("the env, hostNetwork, /dev/shm volume and init container go into its pod "
		      "template the same way."));
	strbuf_addf(sb, "apiVersion: kubeflow.org/v1\n"
		    "kind: PyTorchJob\n"
		    "metadata:\n"
		    "  name: %s\n"
		    "spec:\n"
		    "  nprocPerNode: \"%d\"\n"
		    "  pytorchReplicaSpecs:\n"
		    "    Master:\n"
		    "      replicas: 1\n"
		    "      restartPolicy: OnFailure\n"
		    "      template:\n", rec->job_name, rec->gpus_per_node);
	pod(sb, rec, 1);
	if (rec->nodes > 1) {
		strbuf_addf(sb, "    Worker:\n"
			    "      replicas: %d\n"
			    "      restartPolicy: OnFailure\n"
			    "      template:\n", rec->nodes - 1);
		pod(sb, rec, 0);
	}
	em_notes(sb, rec, "# ");
}
