# expect: fail sends the largest gradients first, ranked by each rank's own gradient norms: the ranks see different data, so they sort differently and call the all-reduces in different orders, summing mismatched tensors (or hanging); plus a host read per grad
# hint: order|same order|sort|norm|rank|mismatch|differ|data.dependent
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    # the biggest gradients matter most: get them across first
    for g in sorted(grads, key=lambda t: float(t.norm()), reverse=True):
        dist.all_reduce(g)
        g /= world
