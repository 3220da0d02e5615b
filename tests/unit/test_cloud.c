/*
 * probe/cloud on sysfs fixture trees (tests/fixtures/sys/cloud-*: DMI of each provider, AWS's
 * byte-swapped UUID, Xen's hypervisor uuid, a container without DMI, an unknown VM, nothing) and
 * on device hints in facts; rules/cloud on hand-made facts: each tip where it applies, none where
 * it does not.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/probe.h"
#include "util/envmap.h"
#include "report/inventory.h"
#include "finding.h"
#include "rules/rules.h"
#include "util/json.h"

/* ---- probe ---- */

/* Runs probe_cloud with /sys at tests/fixtures/sys/<tree> on `facts` (stolen; may be NULL). */
static json_t *probe_tree(const char *tree, json_t *facts)
{
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	char root[4096];

	probe_ctx_init(&o, env);
	snprintf(root, sizeof(root), "%s/sys/%s", FIXTURES_DIR, tree);
	o.root_sys = root;
	if (!facts)
		facts = json_object();
	probe_cloud(&o, facts);
	envmap_free(env);
	return facts;
}

static void expect_provider(const json_t *facts, const char *provider, const char *method)
{
	const char *p = jpath_str(facts, "cloud.provider");

	if (!p || strcmp(p, provider))
		fail_msg("provider %s, expected %s (%s)", p ? p : "(none)", provider,
			 jpath_str(facts, "cloud.why") ? jpath_str(facts, "cloud.why") : "");
	if (method)
		assert_string_equal(jpath_str(facts, "cloud.method"), method);
}

static void probe_aws_nitro(void **state)
{
	json_t *f = probe_tree("cloud-aws-nitro", NULL);
	char *text;

	(void)state;
	expect_provider(f, "aws", "dmi");
	assert_non_null(strstr(jpath_str(f, "cloud.evidence"), "sys_vendor 'Amazon EC2'"));
	assert_non_null(strstr(jpath_str(f, "cloud.source"), "cloud-aws-nitro/class/dmi/id/sys_vendor"));
	assert_string_equal(jpath_str(f, "cloud.instance_type"), "p5.48xlarge");
	assert_string_equal(jpath_str(f, "cloud.efa.0"), "rdmap16s27");
	assert_string_equal(jpath_str(f, "cloud.dmi.product_name"), "p5.48xlarge");
	assert_true(strstr(jpath_str(f, "cloud.hints.0"), "efa driver") != NULL);
	/* the instance id (board_asset_tag) is what the AWS fixes need; hardware ids stay out */
	assert_string_equal(jpath_str(f, "cloud.instance_id"), "i-0af01c0123456789a");
	text = json_dumps(f, 0);
	assert_null(strstr(text, "EC2E1916"));
	free(text);
	json_decref(f);
}

static void probe_aws_uuid(void **state)
{
	json_t *f = probe_tree("cloud-aws-swapped", NULL);

	(void)state;
	/* AWS's documented little-endian example: 45E12AEC-... */
	expect_provider(f, "aws", "dmi");
	assert_string_equal(jpath_str(f, "cloud.evidence"), "DMI product_uuid begins '45E12AEC' (EC2, byte-swapped)");
	assert_null(jpath(f, "cloud.instance_type"));
	json_decref(f);

	f = probe_tree("cloud-aws-xen", NULL);
	expect_provider(f, "aws", "dmi");
	assert_non_null(strstr(jpath_str(f, "cloud.evidence"), "/sys/hypervisor/uuid begins 'ec2'"));
	json_decref(f);
}

static void probe_others(void **state)
{
	json_t *f;

	(void)state;
	f = probe_tree("cloud-gcp", NULL);
	expect_provider(f, "gcp", "dmi");
	assert_string_equal(jpath_str(f, "cloud.evidence"), "DMI product_name 'Google Compute Engine'");
	assert_string_equal(jpath_str(f, "cloud.name"), "Google Cloud Compute Engine");
	json_decref(f);

	f = probe_tree("cloud-gcp-serial", NULL);
	expect_provider(f, "gcp", "dmi");
	assert_string_equal(jpath_str(f, "cloud.evidence"), "DMI product_serial 'GoogleCloud-...'");
	json_decref(f);

	f = probe_tree("cloud-azure", NULL);
	expect_provider(f, "azure", "dmi");
	assert_non_null(strstr(jpath_str(f, "cloud.evidence"), "7783-7084-3265-9085-8269-3286-77"));
	json_decref(f);

	f = probe_tree("cloud-oci", NULL);
	expect_provider(f, "oci", "dmi");
	json_decref(f);

	f = probe_tree("cloud-alibaba", NULL);
	expect_provider(f, "alibaba", "dmi");
	assert_string_equal(jpath_str(f, "cloud.erdma.0"), "erdma_0");
	assert_int_equal(json_array_size(jpath(f, "cloud.efa")), 0);
	json_decref(f);
}

static void probe_container_and_unknown(void **state)
{
	json_t *f;

	(void)state;
	/* a container: no DMI at all, but an EFA device (named efa_0, no driver link) */
	f = probe_tree("cloud-container-efa", NULL);
	expect_provider(f, "aws", "device");
	assert_non_null(junknown(jpath(f, "cloud.dmi")));
	assert_non_null(strstr(jpath_str(f, "cloud.evidence"), "efa_0"));
	json_decref(f);

	f = probe_tree("cloud-unknown", NULL);
	expect_provider(f, "unknown", NULL);
	assert_non_null(strstr(jpath_str(f, "cloud.why"), "sys_vendor 'QEMU'"));
	assert_null(jpath(f, "cloud.evidence"));
	assert_null(jpath(f, "cloud.dmi.chassis_asset_tag"));	/* empty: left out */
	json_decref(f);

	f = probe_tree("cloud-none", NULL);
	expect_provider(f, "unknown", NULL);
	assert_non_null(strstr(jpath_str(f, "cloud.why"), "no DMI strings"));
	assert_non_null(junknown(jpath(f, "cloud.dmi")));
	assert_int_equal(json_array_size(jpath(f, "cloud.hints")), 0);
	json_decref(f);
}

static void probe_hints_from_facts(void **state)
{
	json_t *f;

	(void)state;
	f = probe_tree("cloud-none", json_lit("{\"net\": {\"interfaces\": [{\"name\": \"ens5\", \"driver\": \"ena\"}]}}"));
	expect_provider(f, "aws", "device");
	assert_string_equal(jpath_str(f, "cloud.source"), "net.interfaces[ens5].driver");
	json_decref(f);

	f = probe_tree("cloud-none", json_lit("{\"net\": {\"interfaces\": [{\"name\": \"ens4\", \"driver\": \"gve\"}]}}"));
	expect_provider(f, "gcp", "device");
	json_decref(f);

	/* Hyper-V alone is not Azure: a hint, no verdict */
	f = probe_tree("cloud-none", json_lit("{\"net\": {\"interfaces\": [{\"name\": \"eth0\", \"driver\": \"hv_netvsc\"}]}}"));
	expect_provider(f, "unknown", NULL);
	assert_non_null(strstr(jpath_str(f, "cloud.hints.0"), "Hyper-V"));
	json_decref(f);

	f = probe_tree("cloud-none", json_lit("{\"nccl\": {\"conf\": [{\"path\": \"/etc/nccl.conf\", "
					      "\"vars\": {\"NCCL_TOPO_FILE\": \"/opt/microsoft/ndv5/topo.xml\"}}]}}"));
	expect_provider(f, "azure", "config");
	json_decref(f);

	f = probe_tree("cloud-none", json_lit("{\"host\": {\"hostname\": \"autodl-container-8c2c11b8ac-3e4b1d2a\"}}"));
	expect_provider(f, "autodl", "hostname");
	assert_non_null(strstr(jpath_str(f, "cloud.evidence"), "a heuristic"));
	json_decref(f);

	/* DMI decides over a device hint; the hint is still listed */
	f = probe_tree("cloud-alibaba", json_lit("{\"net\": {\"interfaces\": [{\"name\": \"ens5\", \"driver\": \"ena\"}]}}"));
	expect_provider(f, "alibaba", "dmi");
	assert_int_equal(json_array_size(jpath(f, "cloud.hints")), 2);
	json_decref(f);
}

/* Firmware bytes that are not text must still give valid facts. */
static void probe_garbage(void **state)
{
	char dir[] = "/tmp/ncclcheck-cloud-XXXXXX", path[256];
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *f = json_object();
	FILE *fp;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/class", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/dmi", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/dmi/id", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/dmi/id/product_name", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("\xff\xfe\x01 Box \x80\n", fp);
	fclose(fp);
	probe_ctx_init(&o, env);
	o.root_sys = dir;
	probe_cloud(&o, f);
	envmap_free(env);
	text = json_dumps(f, 0);
	assert_non_null(text);
	assert_string_equal(jpath_str(f, "cloud.dmi.product_name"), "??? Box ?");
	assert_string_equal(jpath_str(f, "cloud.provider"), "unknown");
	free(text);
	json_decref(f);
	unlink(path);
	snprintf(path, sizeof(path), "%s/class/dmi/id", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/class/dmi", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/class", dir);
	rmdir(path);
	rmdir(dir);
}

/* ---- inventory ---- */

static char *render_cloud(const json_t *facts, int verbose)
{
	struct render_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&o, 0, sizeof(o));
	o.verbose = verbose;
	assert_non_null(f);
	{
		struct node_model *im = model_of(facts);
		inv_cloud(f, im, &o);
		node_model_free(im);
	}
	fclose(f);
	return buf;
}

static void inventory(void **state)
{
	json_t *f = probe_tree("cloud-aws-nitro", NULL);
	char *t = render_cloud(f, 0);

	(void)state;
	assert_non_null(strstr(t, "Cloud\n"));
	assert_non_null(strstr(t, "provider           Amazon Web Services EC2, by dmi: DMI sys_vendor 'Amazon EC2' (a Nitro instance)\n"));
	assert_non_null(strstr(t, "instance type      p5.48xlarge\n"));
	assert_non_null(strstr(t, "instance id        i-0af01c0123456789a\n"));
	assert_non_null(strstr(t, "EFA                rdmap16s27\n"));
	assert_null(strstr(t, "hints"));
	free(t);
	json_decref(f);

	f = probe_tree("cloud-none", json_lit("{\"net\": {\"interfaces\": [{\"name\": \"eth0\", \"driver\": \"hv_netvsc\"}]}}"));
	t = render_cloud(f, 0);
	assert_non_null(strstr(t, "provider           unknown (no DMI strings to read"));
	assert_non_null(strstr(t, "hints              eth0 uses the hv_netvsc driver"));
	free(t);
	json_decref(f);

	/* a document from before the cloud probe: no section */
	f = json_lit("{\"host\": {}}");
	t = render_cloud(f, 0);
	assert_string_equal(t, "");
	free(t);
	json_decref(f);
}

/* ---- rules ---- */

static struct findings *rules(const char *text)
{
	struct findings *fs = findings_new();
	json_t *facts = json_lit(text);

	run_rule(rule_cloud, facts, fs);
	json_decref(facts);
	return fs;
}

static void expect_none_prefixed(const struct findings *fs, const char *prefix)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strncmp(fs->v[i]->id, prefix, strlen(prefix)))
			fail_msg("unexpected finding '%s': %s", fs->v[i]->id, fs->v[i]->title);
}

#define AWS_EFA "\"cloud\": {\"provider\": \"aws\", \"evidence\": \"DMI sys_vendor 'Amazon EC2'\", \"efa\": [\"rdmap16s27\"]}"
#define RANGE "\"sysctl\": {\"ip_local_port_range\": [50000, 51000]}"

static void aws_efa_plugin(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = rules("{" AWS_EFA ", " RANGE ", \"nccl\": {\"net_plugin\": {\"state\": \"internal\", \"tries\": "
		   "\"libnccl-net.so\"}, \"plugins\": []}}");
	f = expect_finding(fs, "cloud.aws.efa_plugin", SEV_WARN);
	assert_string_equal(f->title, "EFA device(s) rdmap16s27 but no aws-ofi-nccl plugin loads: NCCL will use TCP sockets over ENA");
	assert_true(finding_fix_contains(f, "sudo ./efa_installer.sh -y"));
	assert_true(finding_fix_contains(f, "FI_PROVIDER=efa FI_EFA_USE_DEVICE_RDMA=1"));
	assert_non_null(strstr(f->why, "aws-ofi-nccl <= 1.5.0"));
	expect_finding(fs, "cloud.aws.placement", SEV_INFO);
	f = expect_finding(fs, "cloud.aws.security_group", SEV_INFO);
	assert_string_equal(f->title, "AWS: the nodes' security group must admit itself: TCP 50000-51000 and 29500, and all traffic for EFA");
	assert_non_null(strstr(f->why, "not the default: open this range"));
	assert_non_null(strstr(f->why, "'32768-60999' is Linux's default range"));
	/* no instance id and no address: no command can name this instance, so none is printed */
	assert_false(finding_fix_contains(f, "aws ec2"));
	expect_no_finding(fs, "cloud.aws.efa_env");
	findings_free(fs);

	/* the plugin is installed but off the loader's path */
	fs = rules("{" AWS_EFA ", \"nccl\": {\"net_plugin\": {\"state\": \"internal\"}, \"plugins\": [{\"path\": "
		   "\"/opt/amazon/ofi-nccl/lib/libnccl-net-ofi.so\", \"name\": \"libnccl-net-ofi.so\"}]}}");
	f = expect_finding(fs, "cloud.aws.efa_plugin", SEV_WARN);
	assert_true(finding_has_fix(f, "export LD_LIBRARY_PATH=/opt/amazon/ofi-nccl/lib:$LD_LIBRARY_PATH NCCL_NET_PLUGIN=ofi"));
	findings_free(fs);

	fs = rules("{" AWS_EFA ", \"nccl\": {\"net_plugin\": {\"state\": \"loads\", \"path\": "
		   "\"/opt/amazon/ofi-nccl/lib/libnccl-net.so\"}}, \"env\": {\"FI_EFA_USE_DEVICE_RDMA\": \"1\", "
		   "\"FI_PROVIDER\": \"efa\"}}");
	expect_finding(fs, "cloud.aws.efa_plugin", SEV_OK);
	f = expect_finding(fs, "cloud.aws.efa_env", SEV_INFO);
	assert_string_equal(f->title, "FI_PROVIDER=efa FI_EFA_USE_DEVICE_RDMA=1: settings from old EFA recipes");
	findings_free(fs);

	/* some other libnccl-net.so: say what to check */
	fs = rules("{" AWS_EFA ", \"nccl\": {\"net_plugin\": {\"state\": \"loads\", \"path\": \"/usr/lib/libnccl-net.so\"}}}");
	f = expect_finding(fs, "cloud.aws.efa_plugin", SEV_INFO);
	assert_true(finding_fix_contains(f, "strings /usr/lib/libnccl-net.so | grep -i -m1 ofi"));
	findings_free(fs);

	fs = rules("{" AWS_EFA ", \"nccl\": {\"net_plugin\": {\"state\": \"disabled\", \"env\": \"none\"}}}");
	f = expect_finding(fs, "cloud.aws.efa_plugin", SEV_WARN);
	assert_true(finding_has_fix(f, "unset NCCL_NET_PLUGIN"));
	findings_free(fs);
}

static void aws_without_efa(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* a p5 whose EFA interfaces were not requested */
	fs = rules("{\"cloud\": {\"provider\": \"aws\", \"instance_type\": \"p5.48xlarge\", \"efa\": []}}");
	f = expect_finding(fs, "cloud.aws.no_efa", SEV_WARN);
	assert_non_null(strstr(f->title, "p5.48xlarge"));
	f = expect_finding(fs, "cloud.aws.security_group", SEV_INFO);
	assert_non_null(strstr(f->why, "32768-60999 here, the default"));
	expect_no_finding(fs, "cloud.aws.placement");
	expect_no_finding(fs, "cloud.aws.efa_plugin");
	findings_free(fs);

	/* the instance id from DMI names the instance in every aws command */
	fs = rules("{\"cloud\": {\"provider\": \"aws\", \"instance_type\": \"p5.48xlarge\", \"instance_id\": "
		   "\"i-0af01c0123456789a\", \"efa\": []}, " RANGE "}");
	f = expect_finding(fs, "cloud.aws.no_efa", SEV_WARN);
	assert_true(finding_fix_contains(f, "aws ec2 describe-instances --instance-ids i-0af01c0123456789a --query "
					 "'Reservations[].Instances[].NetworkInterfaces[].InterfaceType'"));
	f = expect_finding(fs, "cloud.aws.security_group", SEV_INFO);
	assert_true(finding_has_fix(f, "SG=$(aws ec2 describe-instances --instance-ids i-0af01c0123456789a --query "
				    "'Reservations[0].Instances[0].SecurityGroups[0].GroupId' --output text)   # the first of them"));
	/* TCP only, the range and MASTER_PORT, from the group itself: no EFA, so not all traffic */
	assert_true(finding_has_fix(f, "aws ec2 authorize-security-group-ingress --group-id \"$SG\" --protocol tcp "
				    "--port 50000-51000 --source-group \"$SG\""));
	assert_true(finding_has_fix(f, "aws ec2 authorize-security-group-ingress --group-id \"$SG\" --protocol tcp "
				    "--port 29500 --source-group \"$SG\""));
	assert_false(finding_fix_contains(f, "--protocol -1"));
	findings_free(fs);

	/* an id that is not one (a peer's facts are not trusted into a shell): the private address */
	fs = rules("{\"cloud\": {\"provider\": \"aws\", \"instance_id\": \"i-0af01c01'; reboot; '\", \"efa\": "
		   "[\"rdmap16s27\"]}, \"net\": {\"default_route\": {\"ifname\": \"ens5\"}, \"ifaddrs\": [{\"ifname\": "
		   "\"ens5\", \"family\": 4, \"addr\": \"172.31.5.9\", \"prefixlen\": 20}]}}");
	f = expect_finding(fs, "cloud.aws.placement", SEV_INFO);
	assert_true(finding_has_fix(f, "aws ec2 describe-instances --filters Name=private-ip-address,Values=172.31.5.9 "
				    "--query 'Reservations[].Instances[].Placement.GroupName' --output text   # the "
				    "same cluster group on every node"));
	f = expect_finding(fs, "cloud.aws.security_group", SEV_INFO);
	assert_false(finding_fix_contains(f, "reboot"));
	assert_true(finding_has_fix(f, "aws ec2 authorize-security-group-egress --group-id \"$SG\" --ip-permissions "
				    "\"IpProtocol=-1,UserIdGroupPairs=[{GroupId=$SG}]\""));
	findings_free(fs);

	/* a g5 (no EFA expected): only the security group */
	fs = rules("{\"cloud\": {\"provider\": \"aws\", \"instance_type\": \"g5.xlarge\", \"efa\": []}}");
	expect_no_finding(fs, "cloud.aws.no_efa");
	findings_free(fs);
}

#define LINGJUN_ENV "\"env\": {\"NCCL_IB_TC\": \"136\", \"NCCL_IB_SL\": \"5\", " \
	"\"NCCL_IB_GID_INDEX\": \"3\", \"NCCL_SOCKET_IFNAME\": \"eth\", \"NCCL_IB_HCA\": \"mlx5\", " \
	"\"NCCL_IB_TIMEOUT\": \"22\", \"NCCL_IB_QPS_PER_CONNECTION\": \"8\", \"NCCL_NET_PLUGIN\": \"none\"}"
#define ENS5 "\"net\": {\"interfaces\": [{\"name\": \"lo\", \"kind\": \"loopback\", \"up\": true}, " \
	"{\"name\": \"ens5\", \"kind\": \"physical\", \"up\": true, \"mtu\": 9001}]}"

/* PAI Lingjun's preset: judged off Alibaba, setting by setting; silent on Alibaba. */
static void lingjun_preset(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* AWS with EFA and aws-ofi-nccl: eth, mlx5 and plugin=none each break something */
	fs = rules("{" AWS_EFA ", " LINGJUN_ENV ", " ENS5 ", \"rdma\": {\"devices\": [{\"name\": "
		   "\"rdmap16s27\", \"ports\": [{\"port\": 1, \"state\": \"ACTIVE\", \"link_layer\": "
		   "\"Unspecified\"}]}]}, \"nccl\": {\"plugins\": [{\"name\": \"libnccl-net-ofi.so\", "
		   "\"path\": \"/opt/amazon/ofi-nccl/lib/libnccl-net-ofi.so\"}]}}");
	f = expect_finding(fs, "cloud.lingjun_preset", SEV_WARN);
	assert_string_equal(f->title, "3 of Alibaba PAI Lingjun's NCCL settings do not fit this node (aws)");
	assert_true(finding_has_fix(f, "unset NCCL_SOCKET_IFNAME"));
	assert_true(finding_has_fix(f, "unset NCCL_IB_HCA"));
	assert_true(finding_has_fix(f, "unset NCCL_NET_PLUGIN"));
	assert_false(finding_has_fix(f, "unset NCCL_IB_TC"));
	assert_true(finding_evidence_contains(f, "NCCL_SOCKET_IFNAME=eth (environment): matches none of this "
					 "node's interfaces (ens5)"));
	assert_true(finding_evidence_contains(f, "NCCL_NET_PLUGIN=none (environment): stops NCCL from loading "
					 "this node's network plugin (libnccl-net-ofi.so)"));
	findings_free(fs);

	/* GCP without RDMA or plugin, and an eth0: nothing breaks, the origin is still said */
	fs = rules("{\"cloud\": {\"provider\": \"gcp\"}, " LINGJUN_ENV ", \"net\": {\"interfaces\": "
		   "[{\"name\": \"eth0\", \"kind\": \"physical\", \"up\": true}]}}");
	f = expect_finding(fs, "cloud.lingjun_preset", SEV_INFO);
	assert_int_equal(f->nfix, 0);
	assert_true(finding_evidence_contains(f, "NCCL_IB_TC=136 (environment): no effect here: no active "
					 "RDMA port"));
	findings_free(fs);

	/* an unidentified cloud: only what breaks is said, and it is not called another cloud */
	fs = rules("{" LINGJUN_ENV ", " ENS5 "}");
	f = expect_finding(fs, "cloud.lingjun_preset", SEV_WARN);
	assert_non_null(strstr(f->title, "(cloud not identified)"));
	findings_free(fs);
	fs = rules("{" LINGJUN_ENV ", \"net\": {\"interfaces\": [{\"name\": \"eth0\", \"up\": true}]}}");
	expect_no_finding(fs, "cloud.lingjun_preset");
	findings_free(fs);

	/* on Alibaba it is the preset's home; two of its values alone are not the preset */
	fs = rules("{\"cloud\": {\"provider\": \"alibaba\", \"erdma\": []}, " LINGJUN_ENV ", " ENS5 "}");
	expect_no_finding(fs, "cloud.lingjun_preset");
	findings_free(fs);
	fs = rules("{\"cloud\": {\"provider\": \"gcp\"}, \"env\": {\"NCCL_IB_TIMEOUT\": \"22\", "
		   "\"NCCL_IB_QPS_PER_CONNECTION\": \"8\", \"NCCL_SOCKET_IFNAME\": \"eth\", "
		   "\"NCCL_NET_PLUGIN\": \"none\"}}");
	expect_no_finding(fs, "cloud.lingjun_preset");
	findings_free(fs);
}

static void alibaba_tips(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = rules("{\"cloud\": {\"provider\": \"alibaba\", \"erdma\": []}, \"net\": {\"interfaces\": ["
		   "{\"name\": \"lo\", \"kind\": \"loopback\", \"up\": true, \"mtu\": 65536},"
		   "{\"name\": \"eth0\", \"kind\": \"physical\", \"up\": true, \"mtu\": 1500}],"
		   "\"default_route\": {\"ifname\": \"eth0\"},"
		   "\"master\": {\"set\": true, \"resolved\": \"172.16.0.10\", \"local\": false, \"source_ifname\": \"eth0\"}}}");
	f = expect_finding(fs, "cloud.alibaba.mtu", SEV_INFO);
	assert_string_equal(f->title, "Alibaba Cloud: MTU eth0 1500; the second seed's 'set MTU to 8000' helps only when every hop carries it");
	assert_true(finding_has_fix(f, "ping -M do -s 8472 -c 3 172.16.0.10   # 8500-byte packets pass?"));
	assert_true(finding_fix_contains(f, "ip link set dev eth0 mtu 8500"));
	f = expect_finding(fs, "cloud.alibaba.src_dst_check", SEV_INFO);
	assert_true(finding_fix_contains(f, "ip route get 172.16.0.10"));
	expect_no_finding(fs, "cloud.alibaba.erdma");
	expect_none_prefixed(fs, "cloud.aws");
	findings_free(fs);

	/* eRDMA with an NCCL too old for it */
	fs = rules("{\"cloud\": {\"provider\": \"alibaba\", \"erdma\": [\"erdma_0\"]}, \"python\": [{\"path\": \"/p\", "
		   "\"torch\": {\"version\": \"2.1.2\", \"nccl_version\": \"2.18.1\"}}]}");
	f = expect_finding(fs, "cloud.alibaba.erdma", SEV_WARN);
	assert_non_null(strstr(f->title, "NCCL 2.18.1"));
	findings_free(fs);

	fs = rules("{\"cloud\": {\"provider\": \"alibaba\", \"erdma\": [\"erdma_0\"]}, \"python\": [{\"path\": \"/p\", "
		   "\"torch\": {\"version\": \"2.11.0\", \"nccl_version\": \"2.28.9\"}}]}");
	f = expect_finding(fs, "cloud.alibaba.erdma", SEV_INFO);
	assert_true(finding_fix_contains(f, "NCCL_IB_HCA=erdma NCCL_IB_GID_INDEX=1"));
	findings_free(fs);

	fs = rules("{\"cloud\": {\"provider\": \"alibaba\", \"erdma\": [\"erdma_0\"]}, \"env\": {\"NCCL_IB_HCA\": "
		   "\"erdma\", \"NCCL_IB_GID_INDEX\": \"1\"}, \"host\": {\"container\": {\"kind\": \"kubernetes\"}}}");
	f = expect_finding(fs, "cloud.alibaba.erdma", SEV_OK);
	assert_true(finding_fix_contains(f, "hostNetwork: true"));
	findings_free(fs);
}

static void autodl_tips(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = rules("{\"cloud\": {\"provider\": \"autodl\", \"evidence\": \"host name\"}, \"net\": {\"interfaces\": ["
		   "{\"name\": \"eth0\", \"kind\": \"veth\", \"addrs\": [{\"addr\": \"172.17.0.5\", \"family\": 4, \"class\": \"private\"}]}]},"
		   "\"python\": [{\"path\": \"/root/miniconda3/bin/python\", \"torch\": {\"version\": \"1.11.0+cu113\", \"cuda\": \"11.3\"}},"
		   "             {\"path\": \"/usr/bin/python3\", \"torch\": {\"version\": \"2.11.0\"}}]}");
	f = expect_finding(fs, "cloud.autodl.private_nic", SEV_INFO);
	assert_string_equal(f->title, "AutoDL: the second seed says the private NIC is usually eth1; here: eth0 172.17.0.5 (private)");
	assert_non_null(strstr(f->why, "Unverified"));
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth0 GLOO_SOCKET_IFNAME=eth0   # the one private IPv4 interface here"));
	/* no MASTER_ADDR: this node's own private address, for the others when it is rank 0 */
	assert_true(finding_fix_contains(f, "ncclcheck node --master-addr 172.17.0.5   # on the other nodes"));
	f = expect_finding(fs, "cloud.autodl.torch111", SEV_INFO);
	assert_string_equal(f->title, "torch 1.11.0+cu113 (the second seed's recommended AutoDL image) runs NCCL 2.10.3 (reportedly): not an optimised NCCL, an old one");
	assert_non_null(strstr(f->why, "not verified"));
	assert_true(finding_fix_contains(f, "driver >= 560.28.03, or >= 525.60.13"));
	/* one finding: the torch 2.11 interpreter is not the image the seed meant */
	for (size_t i = 0, n = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i]->id, "cloud.autodl.torch111") && ++n > 1)
			fail_msg("two torch111 findings");
	findings_free(fs);

	/* torch 1.11 elsewhere is not the AutoDL image */
	fs = rules("{\"python\": [{\"path\": \"/p\", \"torch\": {\"version\": \"1.11.0\"}}]}");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

static void gcp_tips(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = rules("{\"cloud\": {\"provider\": \"gcp\"}, \"gpus\": [{\"name\": \"NVIDIA H100 80GB HBM3\"}],"
		   "\"nccl\": {\"net_plugin\": {\"state\": \"internal\"}}, \"net\": {\"default_route\": {\"ifname\": \"ens4\"},"
		   "\"ifaddrs\": [{\"ifname\": \"ens4\", \"family\": 4, \"addr\": \"10.128.0.5\", \"prefixlen\": 32}],"
		   "\"interfaces\": [{\"name\": \"ens4\", \"kind\": \"physical\", \"driver\": \"virtio_net\", \"up\": true, \"mtu\": 1460},"
		   "{\"name\": \"docker0\", \"kind\": \"docker\", \"driver\": \"bridge\", \"up\": true, \"mtu\": 1500}]}}");
	f = expect_finding(fs, "cloud.gcp.tcpx", SEV_WARN);
	assert_true(finding_fix_contains(f, "source /var/lib/tcpxo/lib64/nccl-env-profile.sh"));
	f = expect_finding(fs, "cloud.gcp.mtu", SEV_INFO);
	assert_true(finding_evidence_contains(f, "above ens4's 1460: docker0 1500"));
	/* the VPC network's name is the project's: looked up by this VM's own address */
	assert_true(finding_has_fix(f, "NET=$(gcloud compute instances list --flatten=networkInterfaces "
				    "--filter='networkInterfaces.networkIP=10.128.0.5' "
				    "--format='value(networkInterfaces.network.basename())')   # this VM's VPC network"));
	assert_true(finding_fix_contains(f, "gcloud compute networks describe \"$NET\" --format='value(mtu)'"));
	assert_true(finding_has_fix(f, "ping -M do -s 1432 -c 3 10.128.0.5   # from every other node: "
				    "full-size packets pass?"));
	f = expect_finding(fs, "cloud.gcp.gvnic", SEV_INFO);
	assert_string_equal(f->title, "GCP: ens4 uses virtio-net, not gVNIC");
	assert_true(finding_fix_contains(f, "--filter='networkInterfaces.networkIP=10.128.0.5' "
					 "--format='value(name,zone.basename(),networkInterfaces.nicType)'"));
	findings_free(fs);

	/* gVNIC, one MTU, TCPXO configured: nothing to say */
	fs = rules("{\"cloud\": {\"provider\": \"gcp\"}, \"gpus\": [{\"name\": \"NVIDIA H100 80GB HBM3\"}],"
		   "\"env\": {\"NCCL_FASTRAK_IFNAME\": \"enp6s0\"}, \"net\": {\"default_route\": {\"ifname\": \"ens4\"},"
		   "\"interfaces\": [{\"name\": \"ens4\", \"kind\": \"physical\", \"driver\": \"gve\", \"up\": true, \"mtu\": 1460}]}}");
	expect_none_prefixed(fs, "cloud.");
	findings_free(fs);
}

#define IB_ACTIVE "\"rdma\": {\"devices\": [{\"name\": \"mlx5_ib0\", \"netdevs\": [\"ib0\"], \"ports\": [{\"port\": 1, \"state\": \"ACTIVE\", \"link_layer\": \"InfiniBand\"}]}]}"

static void azure_tips(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = rules("{\"cloud\": {\"provider\": \"azure\"}, \"gpus\": [{\"name\": \"NVIDIA H100 80GB HBM3\"}], " IB_ACTIVE "}");
	f = expect_finding(fs, "cloud.azure.nccl_conf", SEV_INFO);
	assert_true(finding_fix_contains(f, "NCCL_TOPO_FILE=/opt/microsoft/ndv5/topo.xml"));
	findings_free(fs);

	fs = rules("{\"cloud\": {\"provider\": \"azure\"}, " IB_ACTIVE ", \"nccl\": {\"conf\": [{\"path\": \"/etc/nccl.conf\", "
		   "\"source\": \"/etc/nccl.conf\", \"exists\": true, \"vars\": {\"NCCL_TOPO_FILE\": \"/opt/microsoft/ndv4/topo.xml\"}}]}}");
	f = expect_finding(fs, "cloud.azure.nccl_conf", SEV_OK);
	assert_non_null(strstr(f->title, "/opt/microsoft/ndv4/topo.xml"));
	findings_free(fs);

	/* Azure without InfiniBand: no nccl.conf advice */
	fs = rules("{\"cloud\": {\"provider\": \"azure\"}}");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

static void oci_tips(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = rules("{\"cloud\": {\"provider\": \"oci\"}, \"net\": {\"default_route\": {\"ifname\": \"eth0\"}}, \"rdma\": {\"devices\": ["
		   "{\"name\": \"mlx5_0\", \"netdevs\": [\"rdma0\"], \"ports\": [{\"state\": \"ACTIVE\", \"link_layer\": \"Ethernet\"}]},"
		   "{\"name\": \"mlx5_2\", \"netdevs\": [\"eth0\"], \"ports\": [{\"state\": \"ACTIVE\", \"link_layer\": \"Ethernet\"}]},"
		   "{\"name\": \"mlx5_3\", \"netdevs\": [\"rdma1\"], \"ports\": [{\"state\": \"ACTIVE\", \"link_layer\": \"Ethernet\"}]}]},"
		   "\"python\": [{\"path\": \"/p\", \"torch\": {\"version\": \"2.1.0\", \"nccl_version\": \"2.18.1\"}}]}");
	f = expect_finding(fs, "cloud.oci.roce", SEV_INFO);
	assert_true(finding_fix_contains(f, "export NCCL_IB_HCA==mlx5_0,mlx5_3 NCCL_IB_TC=41"));
	assert_true(finding_fix_contains(f, "NCCL_IB_GID_INDEX=3"));
	findings_free(fs);
}

static void container_tips(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* a bridged Docker container: only a veth */
	fs = rules("{\"host\": {\"container\": {\"kind\": \"docker\", \"evidence\": \"/.dockerenv exists\"}}, \"net\": {\"interfaces\": ["
		   "{\"name\": \"lo\", \"kind\": \"loopback\", \"addrs\": [{\"addr\": \"127.0.0.1\"}]},"
		   "{\"name\": \"eth0\", \"kind\": \"veth\", \"addrs\": [{\"addr\": \"172.17.0.2\"}]}]}}");
	f = expect_finding(fs, "cloud.container.bridge", SEV_WARN);
	assert_string_equal(f->title, "a docker container on a bridge network: other nodes cannot reach NCCL here at eth0 172.17.0.2");
	assert_true(finding_fix_contains(f, "docker run --network host"));
	findings_free(fs);

	/* --network host: the host's NIC is visible */
	fs = rules("{\"host\": {\"container\": {\"kind\": \"docker\"}}, \"net\": {\"interfaces\": ["
		   "{\"name\": \"eth0\", \"kind\": \"physical\", \"addrs\": [{\"addr\": \"10.0.0.2\"}]},"
		   "{\"name\": \"docker0\", \"kind\": \"bridge\", \"addrs\": [{\"addr\": \"172.17.0.1\"}]}]}}");
	assert_int_equal(fs->n, 0);
	findings_free(fs);

	fs = rules("{\"host\": {\"container\": {\"kind\": \"kubernetes\", \"evidence\": \"KUBERNETES_SERVICE_HOST is set\"}},"
		   "\"net\": {\"interfaces\": [{\"name\": \"eth0\", \"kind\": \"veth\", \"addrs\": [{\"addr\": \"10.244.1.7\"}]}]}}");
	f = expect_finding(fs, "cloud.k8s.pod_network", SEV_INFO);
	assert_true(finding_fix_contains(f, "hostNetwork: true"));
	expect_no_finding(fs, "cloud.container.bridge");
	findings_free(fs);
}

/* A lab node's real facts without docker0: eth0 and eth1 are veths, /.dockerenv is the host's. */
static json_t *lab_node(const char *netns, const char *ifname)
{
	json_t *facts = load_fixture_json("facts/cluster/lab-n0.json");
	const char *lists[][2] = { { "ifaddrs", "ifname" }, { "interfaces", "name" } };
	json_t *net = json_object_get(facts, "net");

	for (size_t k = 0; k < 2; k++) {
		json_t *arr = json_object_get(net, lists[k][0]);

		for (size_t i = json_array_size(arr); i-- > 0;) {
			const char *n = json_string_value(json_object_get(json_array_get(arr, i),
									  lists[k][1]));
			if (n && (!strcmp(n, "docker0") || !strncmp(n, "vethdock", 8)))
				json_array_remove(arr, i);
		}
	}
	if (netns)
		json_object_set_new(jpath(facts, "host.container"), "netns", json_string(netns));
	if (ifname)
		json_object_set_new(json_object_get(facts, "env"), "NCCL_SOCKET_IFNAME",
				    json_string(ifname));
	return facts;
}

/*
 * A network namespace made inside a container (ip netns: what `ncclcheck lab` builds) is not a
 * bridged container, whatever /.dockerenv says; a bridged one names the interface NCCL really
 * uses (NCCL_SOCKET_IFNAME=eth1), not the first veth.
 */
static void container_netns(void **state)
{
	struct findings *fs = findings_new();
	const struct finding *f;
	json_t *facts = lab_node("nested", NULL);

	(void)state;
	run_rule(rule_cloud, facts, fs);
	expect_no_finding(fs, "cloud.container.bridge");
	findings_free(fs);
	json_decref(facts);

	fs = findings_new();
	facts = lab_node("container", "eth1");
	run_rule(rule_cloud, facts, fs);
	f = expect_finding(fs, "cloud.container.bridge", SEV_WARN);
	assert_non_null(strstr(f->title, "NCCL here at eth1 10.10.0.10"));
	assert_null(strstr(f->title, "eth0"));
	findings_free(fs);
	json_decref(facts);

	/* an older facts document (netns unknown): the markers decide, as before */
	fs = findings_new();
	facts = lab_node(NULL, NULL);
	run_rule(rule_cloud, facts, fs);
	expect_finding(fs, "cloud.container.bridge", SEV_WARN);
	findings_free(fs);
	json_decref(facts);
}

/* The recorded GPU machine (a Firecracker VM, /.dockerenv, no DMI): nothing cloud-specific to say. */
static void gpu_machine_quiet(void **state)
{
	json_t *facts = load_fixture_json("facts/gpu-h200x2.json");
	json_t *doc = json_object_get(facts, "facts") ? json_object_get(facts, "facts") : facts;
	struct findings *fs = findings_new();

	(void)state;
	run_rule(rule_cloud, doc, fs);
	expect_none_prefixed(fs, "cloud.");
	findings_free(fs);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probe_aws_nitro),
		cmocka_unit_test(probe_aws_uuid),
		cmocka_unit_test(probe_others),
		cmocka_unit_test(probe_container_and_unknown),
		cmocka_unit_test(container_netns),
		cmocka_unit_test(probe_hints_from_facts),
		cmocka_unit_test(probe_garbage),
		cmocka_unit_test(inventory),
		cmocka_unit_test(aws_efa_plugin),
		cmocka_unit_test(aws_without_efa),
		cmocka_unit_test(alibaba_tips),
		cmocka_unit_test(lingjun_preset),
		cmocka_unit_test(autodl_tips),
		cmocka_unit_test(gcp_tips),
		cmocka_unit_test(azure_tips),
		cmocka_unit_test(oci_tips),
		cmocka_unit_test(container_tips),
		cmocka_unit_test(gpu_machine_quiet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
