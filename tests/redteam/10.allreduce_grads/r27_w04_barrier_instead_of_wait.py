# expect: fail launches every all-reduce with async_op=True and "waits" with one dist.barrier() instead of the handles: the barrier is an extra collective every call, and no handle is ever waited on (under nccl nothing orders the division after the sums)
# hint: barrier|extra collective|(not|never|without)\b.{0,40}wait|wait.{0,40}(never|not)\b|handles? (are |is )?(never|not)|ignor\w* (the )?handle
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    for g in grads:
        dist.all_reduce(g, async_op=True)  # all of them in flight together
    dist.barrier()  # every rank has got past its all-reduces
    world = dist.get_world_size()
    for g in grads:
        g.div_(world)
