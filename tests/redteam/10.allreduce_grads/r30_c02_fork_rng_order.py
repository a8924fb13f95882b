# expect: pass
# hint:
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    # the same permutation on every rank, from a seed, inside fork_rng so that the
    # caller's generator comes back exactly as it was
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(len(grads))
        order = torch.randperm(len(grads)).tolist()
    world = dist.get_world_size()
    for i in order:
        dist.all_reduce(grads[i])
        grads[i].div_(world)


answer = average_gradients
