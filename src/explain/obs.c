/* Accessors of the scanner's observations (see obs.h). */
#include "explain/obs.h"

#include <stdio.h>
#include <string.h>

const char *obs_input_name(const struct run_obs *o, uint32_t file)
{
	return file < o->nin ? o->in[file].name : "?";
}

void obs_loc_fmt(const struct run_obs *o, struct loc l, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%llu", obs_input_name(o, l.file), (unsigned long long)l.line);
}

const struct env_obs *obs_env(const struct run_obs *o, const char *name)
{
	for (int i = 0; i < o->nenv; i++)
		if (!strcmp(o->env[i].name, name))
			return &o->env[i];
	return NULL;
}
