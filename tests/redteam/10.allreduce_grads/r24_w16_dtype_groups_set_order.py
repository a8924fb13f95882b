# expect: fail one flat all-reduce per dtype, but the dtypes are walked in the order of a set, whose order depends on the dtypes' hashes (their addresses) in each process: with two or more dtypes, separately started ranks can send their buckets in different orders
# hint: set|order|hash|same order|every rank|mismatch|dtype
# open: every case's model has one dtype, so the set of dtypes has one member and every rank walks it alike: only mixed dtypes (and ranks whose set orders differ) tell it apart
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    for dtype in {g.dtype for g in grads}:  # torch.cat needs one dtype: a bucket per dtype
        group = [g for g in grads if g.dtype == dtype]
        flat = torch.cat([g.reshape(-1) for g in group])
        dist.all_reduce(flat)
        flat /= world
        for g, chunk in zip(group, flat.split([g.numel() for g in group])):
            g.copy_(chunk.view_as(g))


answer = average_gradients
