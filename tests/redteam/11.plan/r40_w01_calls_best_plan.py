# expect: fail returns the checker's own d2lgpu.plan.best_plan answer, which the prompt forbids
# hint: (best_plan|own estimate|checker.s answer)
# name: plan
from d2lgpu.plan import best_plan


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan that fits: asked of d2lgpu.plan.best_plan."""
    found = best_plan(config, gpu, n_gpus, global_batch)
    if found is None:
        return None
    p = found[0]
    return {"dp": p.dp, "tp": p.tp, "pp": p.pp, "sharding": p.sharding,
            "micro_batches": p.micro_batches, "checkpointing": p.checkpointing}
