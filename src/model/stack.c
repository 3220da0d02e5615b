/* stack: see stack.h. */
#include "model/stack.h"

#include "util/i18n.h"
#include "util/json.h"
#include "util/version.h"

const json_t *stack_nccl_python(const json_t *facts)
{
	size_t i;
	json_t *py;

	json_array_foreach(json_object_get(facts, "python"), i, py)
		if (json_is_string(jpath(py, "torch.nccl_version")) && !junknown(jpath(py, "torch")))
			return py;
	return NULL;
}

const char *stack_effective_nccl(const json_t *facts, const char **path, const char **why)
{
	/* a CPU-only torch earlier in the list must not hide the CUDA one that will train */
	const json_t *py = stack_nccl_python(facts);
	const char *v, *newest = NULL, *newest_path = NULL;
	size_t i;
	json_t *lib;

	if (path)
		*path = NULL;
	if (py) {
		v = jpath_str(py, "torch.nccl_version");
		if (path)
			*path = jpath_str(py, "torch.nccl_mapped");
		if (why)
			*why = jpath_bool(py, "torch.nccl_static", 0)
				       ? N_("reported by torch.cuda.nccl.version(), linked into torch")
				       : N_("reported by torch.cuda.nccl.version()");
		return v;
	}
	json_array_foreach(jpath(facts, "nccl.libs"), i, lib) {
		const char *lv = json_string_value(json_object_get(lib, "version"));
		if (!lv)
			continue;
		if (jpath_bool(lib, "default", 0)) {
			if (path)
				*path = jpath_str(lib, "path");
			if (why)
				*why = N_("the copy the dynamic loader picks by default");
			return lv;
		}
		if (!newest || version_cmp_str(lv, newest) > 0) {
			newest = lv;
			newest_path = jpath_str(lib, "path");
		}
	}
	if (newest) {
		if (path)
			*path = newest_path;
		if (why)
			*why = N_("the newest copy found on this machine");
	}
	return newest;
}
