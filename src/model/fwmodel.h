/*
 * What the local packet filter does to an incoming TCP connection, from the normalised rules the
 * firewall probe records (probe/firewall.h): walk every input-hook chain in order, follow jumps,
 * first match wins, fall through to the policy. Rules with matches the model does not understand
 * are skipped and the verdict is marked uncertain rather than guessed. Pure.
 */
#ifndef NCCLCHECK_RULES_FWMODEL_H
#define NCCLCHECK_RULES_FWMODEL_H

#include <stddef.h>

#include <jansson.h>

enum fw_verdict { FW_ACCEPT = 0, FW_DROP, FW_REJECT };

struct fw_model;

/* NULL when `fw` holds no chains or rules (unknown, or not an object). */
struct fw_model *fw_model_new(const json_t *fw);
void fw_model_free(struct fw_model *m);

struct fw_packet {
	int family;		/* 4 or 6 */
	const char *iface;	/* the interface it arrives on */
	const char *src;	/* the peer's address, NULL when unknown */
	long port;		/* TCP destination port */
};

struct fw_result {
	enum fw_verdict verdict;
	const char *rule;	/* the deciding rule's text, NULL when a chain policy decided */
	const char *chain;	/* the chain whose rule or policy decided */
	const char *table;
	const char *family;	/* "ip", "ip6", "inet" */
	const char *source;	/* "iptables" or "nft": which tool's command fixes it */
	int uncertain;		/* a rule the model could not evaluate was skipped on the way */
};

void fw_eval(const struct fw_model *m, const struct fw_packet *p, struct fw_result *r);

/* Consecutive ports with the same outcome, from fw_scan(). */
struct fw_span {
	long lo, hi;
	struct fw_result r;
};

/*
 * Evaluates ports lo..hi and returns the number of spans written (at most `max`; later ports
 * are dropped when they do not fit).
 */
size_t fw_scan(const struct fw_model *m, int family, const char *iface, const char *src, long lo,
	       long hi, struct fw_span *spans, size_t max);

#endif
