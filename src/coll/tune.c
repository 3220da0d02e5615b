/* bench tune's configurations and its decision: recommend only what beats the noise. */
#include "coll/tune.h"

static const struct tune_config configs[] = {
    {.label = "defaults"},
    {.label = "NSOCKS=2", .nvars = 1, .names = {"NCCL_NSOCKS_PERTHREAD"}, .values = {"2"}},
    {.label = "NSOCKS=4", .nvars = 1, .names = {"NCCL_NSOCKS_PERTHREAD"}, .values = {"4"}},
    {.label = "NTHREADS=2", .nvars = 1, .names = {"NCCL_SOCKET_NTHREADS"}, .values = {"2"}},
    {.label = "NTHREADS=4", .nvars = 1, .names = {"NCCL_SOCKET_NTHREADS"}, .values = {"4"}},
    {.label = "NTHREADS=2 NSOCKS=2",
     .nvars = 2,
     .names = {"NCCL_SOCKET_NTHREADS", "NCCL_NSOCKS_PERTHREAD"},
     .values = {"2", "2"}},
    {.label = "NTHREADS=4 NSOCKS=4",
     .nvars = 2,
     .names = {"NCCL_SOCKET_NTHREADS", "NCCL_NSOCKS_PERTHREAD"},
     .values = {"4", "4"}},
    {.label = "BUFFSIZE=16M", .nvars = 1, .names = {"NCCL_BUFFSIZE"}, .values = {"16777216"}},
    {.label = "MIN_NCHANNELS=4", .nvars = 1, .names = {"NCCL_MIN_NCHANNELS"}, .values = {"4"}},
};

const struct tune_config *tune_configs(size_t *n)
{
	*n = sizeof(configs) / sizeof(configs[0]);
	return configs;
}

double tune_mean(const struct tune_result *r)
{
	double s = 0;

	for (size_t i = 0; i < r->n; i++)
		s += r->busbw[i];
	return r->n ? s / (double)r->n : 0;
}

double tune_spread(const struct tune_result *r, double floor)
{
	double lo = 0, hi = 0, m = tune_mean(r), s;

	for (size_t i = 0; i < r->n; i++) {
		if (!i || r->busbw[i] < lo)
			lo = r->busbw[i];
		if (!i || r->busbw[i] > hi)
			hi = r->busbw[i];
	}
	s = m > 0 ? (hi - lo) / m : 1;
	return s > floor ? s : floor;
}
