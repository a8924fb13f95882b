# expect: fail first all-reduces a mask of which parameters have a gradient, so that a layer unused on one rank only is handled; that is one extra collective every call, which the exercise's ranks never need
# hint: mask|extra (collective|all.?reduce)|(which|whether).{0,40}(grad|param).{0,40}(exist|None|have)|presence|agree|one more (collective|all.?reduce)
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    params = list(model.parameters())
    # a layer may be used on some ranks and not others: agree first on which grads exist anywhere
    have = torch.tensor([float(p.grad is not None) for p in params])
    dist.all_reduce(have)
    world = dist.get_world_size()
    for p, count in zip(params, have.tolist()):
        if count == 0:
            continue  # unused on every rank: leave it alone
        if p.grad is None:
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad /= world
