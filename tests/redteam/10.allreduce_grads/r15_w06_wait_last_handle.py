# expect: fail launches async all-reduces but waits only on the last handle, then divides: the others may not be done
# hint: wait|async|handle|not (yet )?(done|finished|complete)|race
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handle = None
    for g in grads:
        handle = dist.all_reduce(g, async_op=True)  # all in flight at once
    if handle is not None:
        handle.wait()  # the last one launched is the last to finish
    world = dist.get_world_size()
    for g in grads:
        g.div_(world)


answer = average_gradients
