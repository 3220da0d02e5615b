/*
 * Replays fuzz inputs through a harness without libFuzzer, so every build runs the committed
 * corpus: `fuzz_x DIR_OR_FILE...`. Fails when a directory holds no input (an empty corpus tests
 * nothing).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int main(int argc, char **argv);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		perror(path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int total = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			return 1;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *de;
			while (d && (de = readdir(d))) {
				char p[4096];
				if (de->d_name[0] == '.')
					continue;
				snprintf(p, sizeof(p), "%s/%s", argv[i], de->d_name);
				if (run_file(p) < 0)
					return 1;
				total++;
			}
			if (d)
				closedir(d);
		} else {
			if (run_file(argv[i]) < 0)
				return 1;
			total++;
		}
	}
	printf("replayed %d inputs\n", total);
	return total ? 0 : 1;
}
