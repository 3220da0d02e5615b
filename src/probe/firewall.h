/*
 * Parsers for the local packet filter's rules, kept apart from the probe that runs the tools so
 * that tests and fuzzers feed them any bytes. Both append the same normalised shape to a facts
 * object `fw`:
 * Every chain and rule also says which tool listed it ("source": "iptables" or "nft").
 *   chains[] {family, table, name, hook ("input" for the chain that sees incoming packets),
 *             policy (ACCEPT/DROP; null for a user chain)}
 *   rules[]  {family, table, chain, action (ACCEPT/DROP/REJECT/JUMP/GOTO/RETURN/OTHER), target,
 *             proto (tcp/udp/icmp/... or null for any), iface, iface_neg, src, src_neg,
 *             dports [[lo, hi]...], dports_neg, states [NEW/ESTABLISHED/...],
 *             conditional (a match this model does not understand), text}
 * Only the filter table's INPUT chain (and the chains it jumps to) and nftables' input hooks
 * matter to whether NCCL's listeners are reachable.
 */
#ifndef NCCLCHECK_PROBE_FIREWALL_H
#define NCCLCHECK_PROBE_FIREWALL_H

#include <stddef.h>

#include <jansson.h>

/* `iptables-save` text; `family` is "ip" (iptables) or "ip6" (ip6tables). Returns rules added. */
int fw_parse_iptables_save(const char *text, size_t len, const char *family, json_t *fw);

/*
 * `nft -j list ruleset` JSON. With `skip_xt_tables`, tables iptables-nft owns (ip/ip6 filter, nat,
 * mangle, raw, security) are skipped because iptables-save already reported them. Returns rules
 * added, or -1 when the text is not nft's JSON.
 */
int fw_parse_nft_json(const char *text, size_t len, int skip_xt_tables, json_t *fw);

#endif
