/*
 * The NCCL (and CUDA) of each NGC PyTorch container release, from NVIDIA's release notes: every
 * row is one "PyTorch Release YY.MM" page, whose "Contents of the PyTorch container" list names
 * "NVIDIA NCCL x.y.z" and "NVIDIA CUDA ..."; the page of a row is
 *   https://docs.nvidia.com/deeplearning/frameworks/pytorch-release-notes/rel_YY-MM.html
 * (rel-YY-MM.html for the newer releases). Only releases whose page (or a sibling container's
 * page of the same release, said per row) was read are here: a missing release is unknown (0),
 * never the neighbouring one's numbers.
 */
#include "explain/ngc.h"

const struct ngc_pytorch ngc_pytorch_releases[] = {
	/* .../pytorch-release-notes/rel_19-03.html: CUDA 10.1.105, NCCL 2.4.3 */
	{ .yy = 19, .mm = 3, .nccl = 20403, .cuda = "10.1.105" },
	/* .../pytorch-release-notes/rel_19-05.html: CUDA 10.1 Update 1, NCCL 2.4.6 */
	{ .yy = 19, .mm = 5, .nccl = 20406, .cuda = "10.1 Update 1" },
	/* .../pytorch-release-notes/rel_19-06.html: CUDA 10.1.168, NCCL 2.4.7 */
	{ .yy = 19, .mm = 6, .nccl = 20407, .cuda = "10.1.168" },
	/* .../pytorch-release-notes/rel_19-10.html: CUDA 10.1.243, NCCL 2.4.8 */
	{ .yy = 19, .mm = 10, .nccl = 20408, .cuda = "10.1.243" },
	/* .../pytorch-release-notes/rel_19-11.html: CUDA 10.2.89, NCCL 2.5.6 */
	{ .yy = 19, .mm = 11, .nccl = 20506, .cuda = "10.2.89" },
	/* 23.11: the PyTorch page was not readable here; NVIDIA's framework containers of one release
	 * share its CUDA and NCCL (the Frameworks Support Matrix has one column per release), and the
	 * same release's PaddlePaddle page lists CUDA 12.3.0 and NCCL 2.19.3
	 * (.../paddle-paddle-release-notes/rel-23-11.html); NVIDIA/nccl#1116 names NCCL 2.19 for
	 * pytorch:23.11 as well */
	{ .yy = 23, .mm = 11, .nccl = 21903, .cuda = "12.3.0" },
};

const size_t ngc_pytorch_nreleases = sizeof(ngc_pytorch_releases) / sizeof(ngc_pytorch_releases[0]);

int ngc_pytorch_nccl(int yy, int mm)
{
	for (size_t i = 0; i < ngc_pytorch_nreleases; i++)
		if (ngc_pytorch_releases[i].yy == yy && ngc_pytorch_releases[i].mm == mm)
			return ngc_pytorch_releases[i].nccl;
	return 0;
}
