# expect: fail async all-reduces launched and never waited on
# hint: async|wait|handle|never waited|not waited|race
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        p.grad /= world  # divide first: the sum of the shares is the average
        dist.all_reduce(p.grad, async_op=True)  # all in flight at once
