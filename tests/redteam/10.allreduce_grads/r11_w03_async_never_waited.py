# expect: fail launches every all_reduce with async_op=True and divides the gradients right away without ever calling wait() on the returned work handles, racing the division against the reduction
# hint: async|wait|handle|work object|not (yet )?(finished|complete)|race
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    for g in grads:
        dist.all_reduce(g, async_op=True)  # overlap the reductions, like DDP's buckets
    for g in grads:
        g.div_(world)
