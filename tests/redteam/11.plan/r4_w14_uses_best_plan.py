# expect: fail calls d2lgpu.plan.best_plan, the checker's own search, which the prompt says to leave alone
# hint: best_plan|memory|your own|leave|forbid|not allowed|helper
from d2lgpu.plan import best_plan


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose peak leaves 10% of the GPU free, or None."""
    found = best_plan(config, gpu, n_gpus, global_batch)
    if found is None:
        return None
    chosen = found[0]
    return {"dp": chosen.dp, "tp": chosen.tp, "pp": chosen.pp, "sharding": chosen.sharding,
            "micro_batches": chosen.micro_batches, "checkpointing": chosen.checkpointing}


answer = plan
