/*
 * The ELF reader looks at any file a search path or RUNPATH names (a torch wheel's libraries, a
 * broken or hostile .so): every offset, count and chain must be bounded by the file.
 */
#include <stdint.h>
#include <stdlib.h>

#include "probe/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_src src;
	struct elf_dyn d;

	if (size > 1 << 20)
		return 0;
	elf_src_mem(&src, data, size);
	if (elf_dyn_read(&src, &d, NULL) < 0)
		return 0;
	(void)elf_defines(&src, &d, "ncclGetVersion");
	(void)elf_defines(&src, &d, "");
	{
		struct elf_sym sym;
		(void)elf_lookup(&src, &d, "_PyRuntime", &sym);
	}
	if (d.runpath) {
		char *x = elf_expand_origin(d.runpath, __builtin_strlen(d.runpath), "/o");
		free(x);
	}
	elf_dyn_release(&d);
	return 0;
}
