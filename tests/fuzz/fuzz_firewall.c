/*
 * Firewall rule listings come from iptables-save and nft, whose output we do not control (and a
 * hostile rule set can be anything): both parsers and the evaluation model must survive any
 * bytes. The first byte picks the parser; the rest is its input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "probe/firewall.h"
#include "model/fwmodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *fw;
	struct fw_model *m;
	struct fw_span spans[8];
	const char *text = (const char *)data + 1;

	if (size < 1 || size > 1 << 20)
		return 0;
	fw = json_object();
	if (data[0] & 1)
		fw_parse_nft_json(text, size - 1, data[0] & 2, fw);
	else
		fw_parse_iptables_save(text, size - 1, data[0] & 2 ? "ip6" : "ip", fw);
	m = fw_model_new(fw);
	fw_scan(m, data[0] & 2 ? 6 : 4, "eth0", data[0] & 4 ? "10.0.0.1" : NULL, 1, 65535, spans, 8);
	fw_model_free(m);
	json_decref(fw);
	return 0;
}
