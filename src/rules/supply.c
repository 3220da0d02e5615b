/*
 * Supply chain: wheels the job imports that are known to be malicious, a Lightning payload left
 * on disk, and installed files that differ from their wheel's RECORD. The advisories are a table:
 * one row per compromised release, each with its source.
 */
#include "rules/rules.h"

#include <string.h>

#include "util/i18n.h"
#include "util/version.h"

struct advisory {
	const char *dist;		/* the distribution name as pip spells it */
	const char *versions[4];	/* the compromised releases, NULL-terminated */
	const char *fixed;		/* the first clean release after them */
	const char *id;
	const char *source;
	const char *what;
};

static const struct advisory advisories[] = {
	{ .dist = "lightning", .versions = { "2.6.2", "2.6.3" }, .fixed = "2.6.4",
	  .id = "GHSA-w37p-236h-pfx3",
	  .source = "https://github.com/Lightning-AI/pytorch-lightning/security/advisories/"
		    "GHSA-w37p-236h-pfx3",
	  .what = "published to PyPI by an attacker (2026-04-30): `import lightning` starts "
		  "lightning/_runtime/start.py, which downloads Bun and runs an obfuscated JavaScript "
		  "payload that steals cloud, SSH, git and browser credentials" },
};

static const struct advisory *advisory_for(const struct nm_dist *d)
{
	for (size_t i = 0; i < sizeof(advisories) / sizeof(advisories[0]); i++) {
		if (strcmp(advisories[i].dist, d->name))
			continue;
		for (size_t j = 0; advisories[i].versions[j]; j++)
			if (!version_cmp_str(advisories[i].versions[j], d->version))
				return &advisories[i];
	}
	return NULL;
}

static void credentials_fix(struct finding *f)
{
	finding_fix(f, N_("# then rotate every credential this account could read (cloud keys, SSH "
		    "keys, git and registry tokens, ~/.netrc, .env files)"));
}

static void compromised(const struct nm_python *py, const struct nm_dist *d,
			const struct advisory *a, struct findings *out)
{
	const char *pypath = py->path ? py->path : "python3";
	struct finding *f = finding_add(out, SEV_ERROR, "supply.compromised",
					"%s %s is a compromised release (%s)", d->name, d->version,
					a->id);

	finding_evidence(f, "python: %s; %s %s installed (by %s)", pypath, d->name, d->version,
			 d->installer ? d->installer : "an unknown installer");
	finding_why(f, "%s %s was %s. Source: %s", d->name, d->version, a->what, a->source);
	finding_fix(f, "%s -m pip uninstall -y %s && %s -m pip install --no-cache-dir '%s>=%s'",
		    pypath, d->name, pypath, d->name, a->fixed);
	credentials_fix(f);
}

static void payload(const struct nm_python *py, const char *dir, struct findings *out)
{
	const char *pypath = py->path ? py->path : "python3";
	struct finding *f = finding_add(out, SEV_ERROR, "supply.lightning_payload",
					"a Lightning malware payload is installed: %s", dir);

	finding_evidence(f, "python: %s; directory %s exists", pypath, dir);
	finding_why(f, "No clean Lightning release ships lightning/_runtime/; the compromised 2.6.2 "
		    "and 2.6.3 (%s) install it and run its start.py on import. `pip uninstall` of a "
		    "later release may leave it behind.", advisories[0].id);
	finding_fix(f, "%s -m pip uninstall -y lightning && rm -rf '%s' && %s -m pip install "
		    "--no-cache-dir 'lightning>=2.6.4'", pypath, dir, pypath);
	credentials_fix(f);
}

static void mismatch(const struct nm_python *py, const struct nm_dist *d, struct findings *out)
{
	const char *pypath = py->path ? py->path : "python3";
	struct finding *f;

	/* other installers (conda's relocation, distro packagers) rewrite files after RECORD */
	if (!d->nmismatch || !d->installer ||
	    (strcmp(d->installer, "pip") && strcmp(d->installer, "uv")))
		return;
	f = finding_add(out, SEV_WARN, "supply.record_mismatch",
			"%zu file(s) of %s %s differ from what its wheel installed", d->nmismatch,
			d->name, d->version);
	for (size_t i = 0; i < d->nmismatch; i++)
		finding_evidence(f, "%s: %s differs from RECORD", d->mismatch[i],
				 !strcmp(d->mismatch_kind[i], "size") ? "the size" : "the sha256");
	finding_why(f, "%s installed these files with the hashes and sizes in the wheel's RECORD; "
		    "they were changed afterwards (a local edit, a partial upgrade, or tampering), so "
		    "the job does not run the released %s.", d->installer, d->name);
	finding_fix(f, "%s -m pip install --force-reinstall --no-deps --no-cache-dir '%s==%s'",
		    pypath, d->name, d->version);
}

void rule_supply(const struct node_model *m, struct findings *out)
{
	for (size_t i = 0; i < m->stack.npython; i++) {
		const struct nm_python *py = &m->stack.python[i];
		for (size_t j = 0; j < py->ndists; j++) {
			const struct advisory *a = advisory_for(&py->dists[j]);
			if (a)
				compromised(py, &py->dists[j], a, out);
			mismatch(py, &py->dists[j], out);
		}
		for (size_t j = 0; py->payloads && py->payloads[j]; j++)
			payload(py, py->payloads[j], out);
	}
}
