/*
 * emit: the PyTorch Lightning Trainer(...) that matches the launcher — the first seed's §5.2
 * code advice done right: DDPStrategy(gradient_as_bucket_view=True) always, static_graph only
 * when the user asserts it (with its caveat), find_unused_parameters only when needed (it costs
 * a graph traversal every step), bf16-mixed only where every GPU has bf16 (compute capability
 * >= 8.0), else 16-mixed.
 */
#include "emit/emit_int.h"

#include <string.h>

void emit_lightning(struct strbuf *sb, const struct recommendation *rec)
{
	em_header(sb, rec, "# ", _("PyTorch Lightning Trainer arguments that match the launcher"));
	strbuf_addf(sb, "# devices = torchrun --nproc_per_node = sbatch --ntasks-per-node = %d; "
		    "num_nodes = --nnodes = --nodes = %d\n", rec->gpus_per_node, rec->nodes);
	if (rec->pl_package)
		strbuf_addf(sb, "import pytorch_lightning as pl  # %s\n"
			    "from pytorch_lightning.strategies import DDPStrategy\n\n",
			    _("the job's interpreter has pytorch_lightning, not lightning"));
	else
		strbuf_addf(sb, "import lightning.pytorch as pl  # %s\n"
			    "from lightning.pytorch.strategies import DDPStrategy\n\n",
			    _("or: import pytorch_lightning as pl"));
	strbuf_addstr(sb, "trainer = pl.Trainer(\n"
		      "    accelerator=\"gpu\",\n");
	strbuf_addf(sb, "    devices=%d,  # %s\n", rec->gpus_per_node,
		    _("processes (GPUs) per node, as the launcher starts them"));
	strbuf_addf(sb, "    num_nodes=%d,  # ", rec->nodes);
	strbuf_addf(sb, _("nodes; world size = num_nodes * devices = %d"), rec->nodes * rec->gpus_per_node);
	strbuf_addf(sb, "\n    strategy=DDPStrategy(\n        # %s\n        gradient_as_bucket_view=True,\n",
		    _("gradients live in the all-reduce buckets: one copy and its memory less"));
	if (rec->static_graph)
		strbuf_addf(sb, "        # %s\n        # %s\n        static_graph=True,\n",
			    _("only because the model's graph is the same every step: the same "
			      "parameters get"),
			    _("gradients in the same order; a step that differs is wrong silently or "
			      "raises late"));
	else
		strbuf_addf(sb, "        # %s\n", _("static_graph=True is faster only if every step uses "
						 "the same parameters in the same order"));
	if (rec->find_unused)
		strbuf_addf(sb, "        # %s\n        find_unused_parameters=True,\n",
			    _("some parameters get no gradient in some steps; this costs a graph "
			      "traversal every step"));
	else
		strbuf_addf(sb, "        # %s\n", _("find_unused_parameters stays False: set it only if DDP "
						 "reports parameters that got no gradient"));
	strbuf_addstr(sb, "    ),\n");
	/* Lightning 1.x spells mixed precision 16 and "bf16"; 2.x "16-mixed" and "bf16-mixed" */
	if (rec->bf16 == 1)
		strbuf_addf(sb, "    precision=%s,  # %s\n", rec->pl_major == 1 ? "\"bf16\"" : "\"bf16-mixed\"",
			    _("every GPU has compute capability >= 8.0 (bf16): no loss scaling"));
	else
		strbuf_addf(sb, "    precision=%s,  # %s\n", rec->pl_major == 1 ? "16" : "\"16-mixed\"",
			    rec->bf16 == 0 ? _("a GPU below compute capability 8.0 has no bf16: fp16 with "
					       "loss scaling")
					   : _("no GPU was seen (bf16 needs compute capability >= 8.0 on "
					       "every GPU): fp16 with loss scaling"));
	strbuf_addstr(sb, ")\n");
	em_notes(sb, rec, "# ");
}
