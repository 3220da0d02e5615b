/*
 * Cluster views for the cross-node rule tests, built from two lab nodes' real facts
 * (tests/fixtures/facts/cluster/lab-n0.json, lab-n1.json): node i gets lab-n(i % 2)'s, the test
 * edits them, then the models and the view are built over the test's own arrays.
 */
#ifndef NCCLCHECK_TESTS_CLUSTER_FIXTURE_H
#define NCCLCHECK_TESTS_CLUSTER_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "model/cluster.h"

static inline void cluster_fixture_load(json_t **facts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "facts/cluster/lab-n%zu.json", i % 2);
		facts[i] = load_fixture_json(rel);
	}
}

/* The models of v->n facts documents, one node each (named by its host name), and the view. */
static inline void cluster_fixture_view(json_t *const *facts, struct node_model **m,
					struct cluster_node *nodes, struct cluster_link *links,
					struct cluster_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		m[i] = model_of(facts[i]);
		nodes[i] = (struct cluster_node){ .name = m[i]->hostname, .rank = (int)i, .m = m[i] };
	}
	v->nodes = nodes;
	v->links = links;
}

/* Frees the models, the facts and the scans' intervals of v->nlinks links (none when NULL). */
static inline void cluster_fixture_free(json_t **facts, struct node_model **m,
					struct cluster_link *links, const struct cluster_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		node_model_free(m[i]);
		json_decref(facts[i]);
	}
	for (size_t i = 0; links && i < v->nlinks; i++)
		free(links[i].res.s.iv);
}

#endif
