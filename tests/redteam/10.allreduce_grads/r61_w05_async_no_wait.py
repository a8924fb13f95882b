# expect: fail launches the all-reduces with async_op=True and divides without ever waiting on the handles, so the result races with the collective
# hint: wait|async|handle|race|not waited|unfinished|complete|before.*done
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    pending = []
    for p in model.parameters():
        if p.grad is not None:  # launch them all at once, to overlap the transfers
            pending.append((p, dist.all_reduce(p.grad, async_op=True)))
    for p, _handle in pending:
        p.grad /= world


answer = average_gradients
