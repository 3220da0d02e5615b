/* bench's judgements: see bench.h. */
#include "rules/bench.h"

#include "util/i18n.h"

size_t tune_pick(const struct tune_result *res, size_t n, double spread)
{
	const struct tune_config *cfg;
	double base = tune_mean(&res[0]), best = base;
	size_t pick = 0, ncfg, top = 0;

	cfg = tune_configs(&ncfg);
	for (size_t i = 1; i < n; i++)
		if (res[i].n && tune_mean(&res[i]) > best) {
			best = tune_mean(&res[i]);
			top = i;
		}
	if (!top)
		return 0;
	/* among the ones the noise cannot tell apart, the fewest variables to set */
	for (size_t i = 1; i < n && i < ncfg; i++) {
		double band = spread;
		if (!res[i].n)
			continue;
		if (tune_spread(&res[i], 0) > band)
			band = tune_spread(&res[i], 0);
		if (tune_spread(&res[top], 0) > band)
			band = tune_spread(&res[top], 0);
		if (tune_mean(&res[i]) < best * (1 - band))
			continue;
		if (!pick || cfg[i].nvars < cfg[pick].nvars)
			pick = i;
	}
	return pick && tune_mean(&res[pick]) > base * (1 + spread) ? pick : 0;
}

void tune_findings(const struct tune_config *cfg, const struct tune_result *res, size_t n,
                   double spread, struct findings *fs)
{
	size_t pick = tune_pick(res, n, spread), worst = 0;
	double base = tune_mean(&res[0]);
	struct finding *f;

	for (size_t i = 1; i < n; i++)
		if (res[i].n && (!worst || tune_mean(&res[i]) < tune_mean(&res[worst])))
			worst = i;
	if (pick) {
		f = finding_add(fs, SEV_INFO, "bench.tune.better",
		                "%s beats NCCL's defaults on this link: %.3f vs %.3f GB/s busbw",
		                cfg[pick].label, tune_mean(&res[pick]), base);
		finding_why(f,
		            "measured here, %zu runs each; the gain (%.0f %%) is larger than the "
		            "defaults' run-to-run spread (%.0f %%)",
		            res[pick].n, (tune_mean(&res[pick]) / base - 1) * 100, spread * 100);
		for (size_t v = 0; v < cfg[pick].nvars; v++)
			finding_export(f, cfg[pick].names[v], "%s", cfg[pick].values[v]);
	} else {
		f = finding_add(
		    fs, SEV_OK, "bench.tune.defaults",
		    "keep NCCL's socket defaults: nothing tried beats them by more than "
		    "the run-to-run spread (%.0f %%)",
		    spread * 100);
		finding_why(f,
		            "the defaults reached %.3f GB/s busbw; tuning guesses such as "
		            "4 threads x 4 sockets cost CPU and can be slower",
		            base);
		/* the settings say "leave unset" so config/run remove any guessed values */
		for (size_t i = 1; i < n; i++)
			for (size_t v = 0; v < cfg[i].nvars; v++)
				finding_setting(f, WHERE_ENV, SCOPE_ALL, cfg[i].names[v], NULL);
	}
	for (size_t i = 0; i < n; i++)
		if (res[i].n)
			finding_evidence(f, "%-22s %.3f GB/s busbw (%zu runs)", cfg[i].label,
			                 tune_mean(&res[i]), res[i].n);
	if (worst && tune_mean(&res[worst]) < base * (1 - spread))
		finding_evidence(f, "slowest: %s, %.0f %% below the defaults", cfg[worst].label,
		                 (1 - tune_mean(&res[worst]) / base) * 100);
}

void bench_result_findings(struct findings *fs, const char *coll, int64_t wrong)
{
	struct finding *f;

	if (!wrong)
		return;
	f = finding_add(fs, SEV_ERROR, "bench.result.wrong", "%s returned wrong results", coll);
	finding_why(f, "%lld elements differed from the exact expected values (the inputs are "
		    "small integers, so any difference is corruption, not rounding)",
		    (long long)wrong);
	finding_fix(f, N_("rerun with -c 1 on fewer ranks to find the rank or link, and check "
		    "'ncclcheck node' on every node"));
}
