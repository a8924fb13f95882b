# expect: fail counts the ranks with an extra all-reduce of a one on every call instead of get_world_size
# hint: get_world_size|world.?size|extra (all.?reduce|collective)|count|ones|one more
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    ranks = torch.ones(())
    dist.all_reduce(ranks)  # every rank adds 1: the number of ranks
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= ranks
