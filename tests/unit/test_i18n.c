/* util/i18n and the CJK-aware wrap: the language choice, lookups, formatted text put back into
 * its format's translation, the catalogue's and the lab's strings all in Chinese, and widths. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "explain/sigs.h"
#include "finding.h"
#include "finding_catalog.h"
#include "lab/lab.h"
#include "report/render.h"
#include "util/err.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/wrap.h"
#include "util/xalloc.h"

static int reset(void **state)
{
	(void)state;
	i18n_set_lang(I18N_EN);
	return 0;
}

static void language_from_the_environment(void **state)
{
	enum i18n_lang l = I18N_ZH;

	(void)state;
	assert_int_equal(i18n_lang_from_env(NULL, NULL, NULL), I18N_EN);
	assert_int_equal(i18n_lang_from_env(NULL, NULL, "zh_CN.UTF-8"), I18N_ZH);
	assert_int_equal(i18n_lang_from_env(NULL, NULL, "zh_TW.UTF-8"), I18N_ZH);
	/* gettext's order: LC_ALL over LC_MESSAGES over LANG; an empty one does not count */
	assert_int_equal(i18n_lang_from_env("C.UTF-8", NULL, "zh_CN.UTF-8"), I18N_EN);
	assert_int_equal(i18n_lang_from_env("", "zh_CN", "en_US.UTF-8"), I18N_ZH);
	assert_int_equal(i18n_lang_from_env("", "", "de_DE.UTF-8"), I18N_EN);
	assert_int_equal(i18n_parse_lang("en", &l), 0);
	assert_int_equal(l, I18N_EN);
	assert_int_equal(i18n_parse_lang("zh", &l), 0);
	assert_int_equal(l, I18N_ZH);
	assert_int_equal(i18n_parse_lang("zh_CN.UTF-8", &l), 0);
	assert_int_equal(i18n_parse_lang("zhx", &l), -1);
	assert_int_equal(i18n_parse_lang("fr", &l), -1);
	assert_int_equal(i18n_parse_lang(NULL, &l), -1);
	assert_string_equal(i18n_lang_code(I18N_ZH), "zh_CN");
	assert_string_equal(i18n_lang_code(I18N_EN), "en");
}

static void lookups_fall_back_to_english(void **state)
{
	(void)state;
	assert_string_equal(_("verdict: "), "verdict: ");
	assert_null(i18n_lookup(I18N_EN, "verdict: "));
	i18n_set_lang(I18N_ZH);
	assert_string_equal(_("verdict: "), "结论：");
	assert_string_equal(_("not a msgid anywhere"), "not a msgid anywhere");
	assert_null(i18n_lookup(I18N_ZH, "not a msgid anywhere"));
	/* Chinese has one plural form; English picks by n */
	assert_string_equal(Q_("%zu error", "%zu errors", 5), "%zu 个错误");
	i18n_set_lang(I18N_EN);
	assert_string_equal(Q_("%zu error", "%zu errors", 1), "%zu error");
	assert_string_equal(Q_("%zu error", "%zu errors", 2), "%zu errors");
}

static void text(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	i18n_text(&sb, in);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void formatted_text_back_into_its_translation(void **state)
{
	(void)state;
	/* English stays English */
	text("--master wants an address, not 'x:1'", "--master wants an address, not 'x:1'");
	i18n_set_lang(I18N_ZH);
	text("verdict: ", "结论：");
	text("--master wants an address, not 'x:1'", "--master 需要一个地址，而不是 'x:1'");
	/* a value may hold the format's own literal text: the rest must still match */
	text("--master wants an address, not ', not ''", "--master 需要一个地址，而不是 ', not ''");
	/* numbers must be numbers: %ld and %d do not match words */
	text("--node-rank 3 is not below --nodes 2", "--node-rank 3 必须小于 --nodes 2");
	text("--node-rank x is not below --nodes 2", "--node-rank x is not below --nodes 2");
	/* a translation that needs the values in another order (%2$s) */
	text("unknown option '--jsn' for 'node'; did you mean '--json'?",
	     "'node' 没有选项 '--jsn'；是不是想用 '--json'？");
	/* glue formats ("%s: %s") never rewrite a text they happen to match */
	text("cannot frobnicate: no such thing", "cannot frobnicate: no such thing");
	/* list glue ("%s and %s") joins names inside another format, never a sentence's words */
	text("fp-n0 and fp-n1 drop TCP ports 32768-49151 on eth0 and eth1",
	     "fp-n0 和 fp-n1 在 eth0 和 eth1 上丢弃 TCP 端口 32768-49151");
	text("unknown (no DMI strings to read, and no cloud NIC)",
	     "未知（no DMI strings to read, and no cloud NIC）");
	text("eth0 and eth1", "eth0 and eth1");
	/* two formats match; the reading whose values translate too wins over the one with more
	 * literal text of its own ("rank %s on %s" would take "1: port 2" as a rank) */
	text("rank 1: port 2 on '127.0.0.1' is taken by pid 9 (python3)",
	     "rank 1：'127.0.0.1' 上的端口 2 已被 pid 9 (python3) 占用");
	text("rank 3 on n1", "n1 上的 rank 3");
	/* a fix comment's "# " makes a short format specific enough to match a whole line */
	text("# on fp-n0", "# 在 fp-n0 上执行");
	text("", "");
	{
		struct strbuf sb = STRBUF_INIT;

		i18n_text(&sb, NULL);
		assert_string_equal(sb.buf, "");
		strbuf_release(&sb);
	}
}

/*
 * An error a core module stored in a struct err and a verb shows under a prefix (#28): the
 * "context: message" of err_prefix()/err_sys() reads whole, a short prefix of names ("rank %d:
 * %s") puts its message into the language, and a head no msgid wrote keeps the text as it is.
 */
static void stored_errors_read_whole(void **state)
{
	struct err e = ERR_INIT;

	(void)state;
	errno = ECONNREFUSED;
	err_sys(&e, "cannot connect to '%s'", "10.0.0.1:29500");
	text(e.msg, "cannot connect to '10.0.0.1:29500': Connection refused");
	i18n_set_lang(I18N_ZH);
	text(e.msg, "无法连接 '10.0.0.1:29500'：连接被拒绝");
	err_prefix(&e, "the master %s:%d could not be reached", "10.0.0.1", 29500);
	text(e.msg, "连不上 master 10.0.0.1:29500：无法连接 '10.0.0.1:29500'：连接被拒绝");
	/* a head more specific than a format the whole text matches wins over it */
	text("cannot connect to the RAS service at h:1 (is an NCCL >= 2.24 job running here, with "
	     "NCCL_RAS_ENABLE not 0?): Connection refused",
	     "无法连接 h:1 上的 RAS 服务（这里是否在运行 NCCL >= 2.24 的作业，且 NCCL_RAS_ENABLE 不为 "
	     "0？）：连接被拒绝");
	/* prefix glue: the names stay, the message is put into the language */
	text("rank 3: process 42 maps no CPython interpreter (no python or libpython file that "
	     "defines _PyRuntime)",
	     "rank 3：进程 42 没有加载 CPython 解释器（没有定义 _PyRuntime 的 python 或 libpython 文件）");
	text("http://h:1/ (rank 0): cannot connect to h:1: Connection refused",
	     "http://h:1/（rank 0）：无法连接 h:1：连接被拒绝");
	/* ... but never a sentence that only starts like one */
	text("a sentence of words (rank 0): Connection refused",
	     "a sentence of words (rank 0): Connection refused");
	text("rank and file: no such thing", "rank and file: no such thing");
	text("cannot frobnicate: Connection refused", "cannot frobnicate: Connection refused");
	assert_string_equal(err_errno_text(ENOENT), "No such file or directory");
	/* a setting's evidence names where it came from, in the language too */
	text("NCCL_IB_DISABLE=yes (source: /etc/nccl.conf line 3)",
	     "NCCL_IB_DISABLE=yes（来源：/etc/nccl.conf 第 3 行）");
	text("NCCL_SOCKET_IFNAME=eth9 (source: environment)", "NCCL_SOCKET_IFNAME=eth9（来源：环境变量）");
	/* what the master says of a member that died: one sentence with the member's name in it */
	text("rank 2 (n2, 10.0.0.2) sent nothing for 5.0 s, not even a heartbeat (the process is "
	     "stopped, hung, or its host is gone)",
	     "rank 2 (n2, 10.0.0.2) 已经 5.0 秒没有发来任何数据，连心跳都没有（进程被暂停、卡死，或它的主机已不在）");
	text("10.0.0.9 n9 sent an oversized frame: the peer announced a frame of 99999999 bytes, "
	     "over the cap of 16777216; dropped",
	     "10.0.0.9 n9 发来 一个超长的帧：对端声明的帧有 99999999 字节，超过上限 16777216；已断开");
	/* jansson's words inside an error, and every one of them has Chinese */
	text("facts 'f' is not JSON: '[' or '{' expected near 'root' (line 1, column 4)",
	     "facts 'f' 不是 JSON：'root' 附近应为 '[' 或 '{'（第 1 行，第 4 列）");
	for (size_t i = 0; i < json_error_nmsgids; i++)
		if (!i18n_lookup(I18N_ZH, json_error_msgids[i]))
			fail_msg("no zh_CN entry for jansson's \"%s\"", json_error_msgids[i]);
}

/* Every catalogued finding id's summary has a Chinese entry (#28: a test fails without one). */
static void every_catalogue_summary_has_chinese(void **state)
{
	size_t missing = 0;

	(void)state;
	for (size_t i = 0; i < finding_catalog_count; i++)
		if (!i18n_lookup(I18N_ZH, finding_catalog[i].summary)) {
			fprintf(stderr, "no zh_CN entry for %s's summary: msgid \"%s\"\n",
				finding_catalog[i].id, finding_catalog[i].summary);
			missing++;
		}
	assert_int_equal(missing, 0);
}

static void every_lab_scenario_has_chinese(void **state)
{
	size_t n, missing = 0;
	const struct lab_scenario *sc = lab_scenarios(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const char *s[] = { sc[i].summary, sc[i].reproduces, sc[i].seed, sc[i].show };

		for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++)
			if (s[k] && !i18n_lookup(I18N_ZH, s[k])) {
				fprintf(stderr, "no zh_CN entry for scenario %s: msgid \"%s\"\n",
					sc[i].name, s[k]);
				missing++;
			}
	}
	assert_int_equal(missing, 0);
}

/*
 * explain's verdicts (#28): every title, cause, fix comment and check of its tables has a zh_CN
 * entry, made into a msgid the way po/explain_msgids.py makes it (keep the two in step), and
 * the text explain fills in is rendered Chinese: the placeholders matched as the values they
 * hold. A new row without a translation fails here; po/update.sh brings its msgids into the PO.
 */
static char *explain_msgid(const char *text, size_t n)
{
	static const char *const ph[] = { "{}", "{node}", "{gpu_arch}", "{launcher_gpu}" };
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n;) {
		size_t k, len = 0;

		for (k = 0; k < ARRAY_SIZE(ph); k++)
			if (!strncmp(text + i, ph[k], strlen(ph[k])))
				len = strlen(ph[k]);
		if (!len && !strncmp(text + i, "{env:", 5) && memchr(text + i, '}', n - i))
			len = (size_t)((const char *)memchr(text + i, '}', n - i) - (text + i)) + 1;
		if (len) {
			strbuf_addstr(&sb, "%s");
			i += len;
		} else {
			if (text[i] == '%')
				strbuf_addch(&sb, '%');
			strbuf_addch(&sb, text[i++]);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* The msgid filled with a value, as explain would: "%s" -> "fp-n1", "%%" -> "%". */
static char *explain_filled(const char *msgid)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = msgid; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			strbuf_addstr(&sb, "fp-n1");
			p++;
		} else {
			strbuf_addch(&sb, *p);
			p += p[0] == '%' && p[1] == '%';
		}
	}
	return strbuf_detach(&sb, NULL);
}

static int has_cjk(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0xe3 && (unsigned char)*s <= 0xe9)
			return 1;
	return 0;
}

/* One text of a row: a zh_CN entry, and `wrap` ("High confidence: %s") rendered Chinese. */
static size_t explain_one(const char *row, const char *field, const char *text, size_t n,
			  const char *wrap)
{
	char *id = explain_msgid(text, n), *filled = explain_filled(id), *whole;
	struct strbuf sb = STRBUF_INIT;
	size_t missing = 0;

	whole = xasprintf(wrap, filled);
	i18n_set_lang(I18N_ZH);
	i18n_text(&sb, whole);
	if (!strcmp(field, "fix comment") && !strcmp(sb.buf, whole) && !strncmp(whole, "on ", 3) &&
	    !strpbrk(whole, ":;")) {
		/* as the renderer reads a comment that only says where: "# on fp-n1" */
		char *c = xasprintf("# %s", whole);

		strbuf_reset(&sb);
		i18n_text(&sb, c);
		free(c);
	}
	i18n_set_lang(I18N_EN);
	if (!i18n_lookup(I18N_ZH, id)) {
		fprintf(stderr, "no zh_CN entry for %s's %s (po/update.sh, then translate): msgid \"%s\"\n",
			row, field, id);
		missing++;
	} else if (!has_cjk(sb.buf) && has_cjk(i18n_lookup(I18N_ZH, id))) {
		/* a translation with no Chinese ("torch 2.3+") is the English on purpose */
		fprintf(stderr, "%s's %s is not rendered Chinese: \"%s\" -> \"%s\"\n", row, field,
			whole, sb.buf);
		missing++;
	}
	strbuf_release(&sb);
	free(whole);
	free(filled);
	free(id);
	return missing;
}

/* A fix's lines as po/explain_msgids.py reads them: a comment, a command's comment, prose. */
static size_t explain_fix(const char *row, const char *fix)
{
	static const char *const commands[] = {
		"export", "unset", "sudo", "pip", "pip3", "python", "python3", "ip", "ulimit", "docker",
		"kubectl", "torchrun", "srun", "sysctl", "dmesg", "lsmod", "ibstat", "echo", "cat",
		"ls", "df", "mount", "grep", "ncclcheck", "modprobe", "ping", "ss", "nc", "iptables",
		"nft", "ufw", "env", "mpirun", "deepspeed", "accelerate", "conda", "apt", "yum", "dnf",
		"rm", "mkdir", "ln", "chmod", "ethtool", "lspci", "systemctl", "journalctl", "strace",
		"gdb", "ray", "hostname", "getent", "nslookup", "dig", "curl", "wget", "tc", "route",
		"sed", "awk", "readlink", "ldd", "ldconfig", "which", "nvcc", "uname", "numactl",
		"lscpu", "lstopo", "ibdev2netdev", "rdma", "mst", "perftest", "cd", "git", "cmake",
		"timeout", "watch", "top", "htop", "free", "du", "mpiexec", "scontrol", "sinfo",
		"squeue", "sbatch", "salloc", "set", "source", "nproc", "sh", "bash",
	};
	size_t missing = 0;

	for (const char *f = fix; f && *f;) {
		size_t n = strcspn(f, "\n"), w = strspn(f, "abcdefghijklmnopqrstuvwxyz");
		const char *c = memmem(f, n, "  # ", 4);
		int cmd = 0, words = 0;

		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			cmd |= strlen(commands[i]) == w && !strncmp(f, commands[i], w);
		for (size_t i = 0; i < n; i++)
			words += f[i] == ' ';
		if (f[0] == '#' && f[1] == ' ')
			missing += explain_one(row, "fix comment", f, n, "%s");
		else if (c)
			missing += explain_one(row, "fix comment", c + 4, n - (size_t)(c + 4 - f), "%s");
		else if (w && f[w] == ' ' && !cmd && words >= 2 && !strchr("-/.", f[w + 1]) &&
			 !memchr(f + w + 1, '=', strcspn(f + w + 1, " \n")))
			missing += explain_one(row, "fix line", f, n, "%s");
		f += n + (f[n] == '\n');
	}
	return missing;
}

static void every_explain_verdict_has_chinese(void **state)
{
	size_t missing = 0;

	(void)state;
	for (size_t i = 0; i < explain_nsigs; i++) {
		const struct explain_sig *g = &explain_sigs[i];

		missing += explain_one(g->id, "title", g->title, strlen(g->title), "%s");
		missing += explain_one(g->id, "cause", g->cause, strlen(g->cause), "High confidence: %s");
		missing += explain_fix(g->id, g->fix);
		if (g->check)
			missing += explain_one(g->id, "check", g->check, strlen(g->check), "to test it: %s");
		for (const struct explain_sig_variant *v = g->variants; v && v->when; v++) {
			missing += explain_one(g->id, "variant title", v->title, strlen(v->title), "%s");
			missing += explain_one(g->id, "variant cause", v->cause, strlen(v->cause),
					       "Medium confidence: %s");
			missing += explain_fix(g->id, v->fix);
		}
	}
	for (size_t i = 0; i < explain_nknown_bugs; i++) {
		const struct explain_known_bug *kb = &explain_known_bugs[i];

		missing += explain_one(kb->id, "title", kb->title, strlen(kb->title), "%s");
		missing += explain_one(kb->id, "cause", kb->cause, strlen(kb->cause),
				       "High confidence: %s; the log shows an affected NCCL 2.27.3");
		missing += explain_fix(kb->id, kb->fix);
	}
	if (missing)
		fprintf(stderr, "%zu explain texts without Chinese\n", missing);
	assert_int_equal(missing, 0);
}

static void cjk_takes_two_columns(void **state)
{
	(void)state;
	assert_int_equal(wrap_cp_cols('a'), 1);
	assert_int_equal(wrap_cp_cols(0x4e2d), 2);	/* 中 */
	assert_int_equal(wrap_cp_cols(0xff0c), 2);	/* ， fullwidth comma */
	assert_int_equal(wrap_cp_cols(0x3002), 2);	/* 。 */
	assert_int_equal(wrap_cp_cols(0x20000), 2);	/* CJK extension B */
	assert_int_equal(wrap_cp_cols(0x0301), 0);	/* combining acute */
	assert_int_equal(wrap_cp_cols(0x00e9), 1);	/* é */
	assert_int_equal(wrap_cp_cols(0x2026), 1);	/* … is narrow */
	assert_int_equal(wrap_cols("中文ab", strlen("中文ab")), 6);
	assert_int_equal(wrap_cols("\033[1m网卡\033[0m", strlen("\033[1m网卡\033[0m")), 4);
	/* a cut UTF-8 sequence counts its bytes as one column each, never reads past n */
	assert_int_equal(wrap_cols("中", 2), 2);
}

/* Lines of `s` wider than `width` columns, and lines that start with closing punctuation. */
static size_t bad_lines(const char *s, int width)
{
	size_t bad = 0;

	while (*s) {
		size_t n = strcspn(s, "\n");

		if (wrap_cols(s, n) > (size_t)width || !strncmp(s, "，", 3) || !strncmp(s, "。", 3)) {
			fprintf(stderr, "bad line: '%.*s'\n", (int)n, s);
			bad++;
		}
		s += n + (s[n] == '\n');
	}
	return bad;
}

static void chinese_prose_wraps_between_characters(void **state)
{
	const char *zh = "错误  NCCL 将在 eth0 203.0.113.10 上 bootstrap，但通往 MASTER_ADDR 10.10.0.10 "
			 "的路由走的是 eth1：其他节点连回这个地址时会卡住或被拒绝，初始化最终以 "
			 "ncclInternalError 失败。这是云主机双网卡的典型陷阱：公网 eth0，私网 eth1。";
	struct strbuf out = STRBUF_INIT;

	(void)state;
	for (int width = 40; width <= 100; width += 7) {
		strbuf_reset(&out);
		wrap_text(&out, zh, width, -1, WRAP_PROSE);
		assert_int_equal(bad_lines(out.buf, width), 0);
		/* nothing lost: the text without the breaks and hangs is the input's */
		{
			struct strbuf flat = STRBUF_INIT;

			for (const char *p = out.buf; *p; p++)
				if (*p != '\n' && *p != ' ')
					strbuf_addch(&flat, *p);
			for (const char *p = zh; *p; p++)
				assert_true(*p == ' ' || memchr(flat.buf, *p, flat.len));
			strbuf_release(&flat);
		}
	}
	/* the hang under the label is counted in columns: "错误  " is six */
	strbuf_reset(&out);
	wrap_text(&out, zh, 60, -1, WRAP_PROSE);
	assert_non_null(strstr(out.buf, "\n      "));
	assert_null(strstr(out.buf, "\n       "));
	/* a Chinese comment in a command block breaks as a comment line of its own */
	strbuf_reset(&out);
	wrap_text(&out, "# 云安全组：放行来自本集群安全组或子网 10.10.0.0/24 的入站 TCP 32768-60999 "
		  "和 29500，然后在每个节点上重新运行检查", 50, 4, WRAP_SHELL);
	assert_int_equal(bad_lines(out.buf, 50), 0);
	for (const char *p = strchr(out.buf, '\n'); p; p = strchr(p + 1, '\n'))
		assert_int_equal(strncmp(p + 1, "    # ", 6), 0);
	strbuf_release(&out);
}

static struct findings *sample(void)
{
	struct findings *fs = findings_new();
	struct finding *f;

	/* a title that is a catalogue summary: translated exactly */
	f = finding_add(fs, SEV_ERROR, "net.firewall.blocks", "%s",
			"The local firewall drops or rejects incoming TCP in NCCL's port range.");
	finding_export(f, "NCCL_SOCKET_IFNAME", "eth1");
	finding_fix(f, "# not a translated comment: stays");
	finding_node(f, "n0");
	finding_add(fs, SEV_WARN, "cluster.auth.none", "%s", "an English title no one translated");
	return fs;
}

static void render_in_chinese_json_in_english(void **state)
{
	struct findings *fs = sample();
	struct render_opts o = { .width = 100 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	json_t *doc;

	(void)state;
	i18n_set_lang(I18N_ZH);
	render_verdict_text(out, fs, &o, NULL);
	render_findings_text(out, fs, &o);
	render_summary_line(out, fs, &o);
	fclose(out);
	assert_non_null(strstr(buf, "结论：本机防火墙丢弃或拒绝 NCCL 端口范围内的入站 TCP。 [n0]"));
	assert_non_null(strstr(buf, "修复方法（以 root 在所列节点上执行；然后重新检查）：\n"
			    "  # 在每个节点上执行\n  export NCCL_SOCKET_IFNAME=eth1\n"));
	assert_non_null(strstr(buf, "错误   本机防火墙"));
	assert_non_null(strstr(buf, "       修复： export NCCL_SOCKET_IFNAME=eth1\n"));
	assert_non_null(strstr(buf, "# not a translated comment: stays"));
	assert_non_null(strstr(buf, "警告   an English title no one translated"));
	assert_non_null(strstr(buf, "1 个错误，1 个警告，0 条提示，0 项检查通过\n"));
	assert_int_equal(bad_lines(buf, 100), 0);

	/* --json: English text, and "lang" says what the person read */
	doc = render_json_doc("node", NULL, fs, 1);
	assert_string_equal(json_string_value(json_object_get(doc, "lang")), "zh_CN");
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(doc, "findings"), 0), "title")),
		"The local firewall drops or rejects incoming TCP in NCCL's port range.");
	json_decref(doc);
	i18n_set_lang(I18N_EN);
	doc = render_json_doc("node", NULL, fs, 1);
	assert_null(json_object_get(doc, "lang"));
	json_decref(doc);
	free(buf);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(language_from_the_environment, reset),
		cmocka_unit_test_setup(lookups_fall_back_to_english, reset),
		cmocka_unit_test_setup(formatted_text_back_into_its_translation, reset),
		cmocka_unit_test_setup(stored_errors_read_whole, reset),
		cmocka_unit_test_setup(every_catalogue_summary_has_chinese, reset),
		cmocka_unit_test_setup(every_lab_scenario_has_chinese, reset),
		cmocka_unit_test_setup(every_explain_verdict_has_chinese, reset),
		cmocka_unit_test_setup(cjk_takes_two_columns, reset),
		cmocka_unit_test_setup(chinese_prose_wraps_between_characters, reset),
		cmocka_unit_test_setup(render_in_chinese_json_in_english, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
