# expect: fail calls the private d2lgpu.plan._best_plan (best_plan under another name, forbidden)
# hint: (best_plan|own estimate|checker.s answer)
# name: plan
import d2lgpu.plan as _planning


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan that fits."""
    search = getattr(_planning._best_plan, "__wrapped__", _planning._best_plan)
    found = search(config, gpu, n_gpus, global_batch)
    if not found:
        return None
    p = found[0]
    return {"dp": p.dp, "tp": p.tp, "pp": p.pp, "sharding": p.sharding,
            "micro_batches": p.micro_batches, "checkpointing": p.checkpointing}
