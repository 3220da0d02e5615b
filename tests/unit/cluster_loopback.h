/*
 * In-process cluster nodes over loopback for the cluster_run tests: each node is a thread
 * running cluster_run() with the options every such test shares (127.0.0.1, a free port, token
 * "t", node-<rank>); the test then sets what it measures and starts the thread.
 */
#ifndef NCCLCHECK_TESTS_CLUSTER_LOOPBACK_H
#define NCCLCHECK_TESTS_CLUSTER_LOOPBACK_H

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "cluster/run.h"
#include "net/sock.h"

struct node_run {
	struct cluster_opts o;
	char host[32];
	json_t *report;
	int code;
	pthread_t th;
};

/* A loopback port nobody listens on now (bound by the kernel's choice, then closed). */
static inline int cluster_loopback_port(void)
{
	struct err e = ERR_INIT;
	int lfd = net_listen("127.0.0.1", 0, 1, NULL, &e), port = net_local_port(lfd);

	assert_true(lfd >= 0);
	close(lfd);
	return port;
}

/* Node `rank` of `nnodes`, rank 0 listening on 127.0.0.1:port; probe gets the node itself. */
static inline void cluster_loopback_init(struct node_run *nr, int rank, int nnodes, int port,
					 json_t *(*probe)(void *))
{
	memset(nr, 0, sizeof(*nr));
	snprintf(nr->host, sizeof(nr->host), "node-%d", rank);
	cluster_opts_init(&nr->o);
	nr->o.rdv.master_host = "127.0.0.1";
	nr->o.rdv.listen_addr = "127.0.0.1";
	nr->o.rdv.master_port = port;
	nr->o.rdv.rank = rank;
	nr->o.rdv.nnodes = nnodes;
	nr->o.rdv.host = nr->host;
	nr->o.rdv.join_timeout_ms = 5000;
	nr->o.rdv.token = "t";
	nr->o.rdv.token_len = 1;
	nr->o.probe = probe;
	nr->o.probe_arg = nr;
}

static void *cluster_loopback_main(void *arg)
{
	struct node_run *nr = arg;
	struct err e = ERR_INIT;

	nr->code = cluster_run(&nr->o, &nr->report, &e);
	if (nr->code < 0)
		print_message("cluster_run: %s\n", e.msg);
	return NULL;
}

static inline void cluster_loopback_start(struct node_run *nr)
{
	assert_int_equal(pthread_create(&nr->th, NULL, cluster_loopback_main, nr), 0);
}

#endif
