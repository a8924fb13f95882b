# expect: fail launches every all-reduce with async_op=True and waits only on the last handle, assuming they finish in order: the other gradients may still be in flight when they are divided and when the function returns
# hint: wait|handle|async|sync|in flight|complete
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Launch all the all-reduces at once, so they overlap each other, then divide."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handle = None
    for g in grads:
        handle = dist.all_reduce(g, async_op=True)
    if handle is not None:
        handle.wait()  # collectives run in order: the last done means all done
    world = dist.get_world_size()
    for g in grads:
        g /= world


answer = average_gradients
