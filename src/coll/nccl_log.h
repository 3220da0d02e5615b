/*
 * What NCCL chose, read back from its own INFO lines (NCCL_DEBUG=INFO,
 * NCCL_DEBUG_SUBSYS=INIT,TUNING,NET written to NCCL_DEBUG_FILE by the bench child): the network
 * and interfaces, channels, the transport to each peer, and the algorithm / protocol per
 * collective size. Pure: lines in, a summary out; any bytes are accepted.
 */
#ifndef NCCLCHECK_COLL_NCCL_LOG_H
#define NCCLCHECK_COLL_NCCL_LOG_H

#include <stddef.h>

#define NCCL_LOG_MAX 32

struct nccl_log_summary {
	char network[32];  /* "Socket", "IB" */
	char ifaces[160];  /* "[0]eth1:10.10.0.10<0>" as NCCL printed it */
	int coll_channels; /* -1 unknown */
	struct {
		int from, to;
		char via[48]; /* "NET/Socket/0", "P2P/CUMEM", "SHM/direct/direct" */
		int channels;
	} links[NCCL_LOG_MAX];
	size_t nlinks;
	struct {
		char coll[24]; /* "AllReduce" */
		long long bytes;
		char algo[16], proto[16];
	} choices[NCCL_LOG_MAX];
	size_t nchoices;
};

void nccl_log_init(struct nccl_log_summary *s);
/* One line of an NCCL log (with or without its "host:pid:tid [dev] NCCL INFO" prefix). */
void nccl_log_line(struct nccl_log_summary *s, const char *line);
/* Human lines for the bench header (caller frees each and the array); returns how many. */
size_t nccl_log_describe(const struct nccl_log_summary *s, char ***lines);

/*
 * From the bench notes nccl_log_describe wrote: "NCCL chose: network Socket over [0]eth1:..."
 * gives the network ("Socket", "IB") and the first interface or HCA ("eth1", "mlx5_0:1");
 * returns 1 when `note` was that line. "NCCL transport: ... via NET/..." sets *uses_net.
 */
int nccl_log_note_net(const char *note, char *net, size_t netlen, char *ifname, size_t iflen,
                      int *uses_net);

#endif
