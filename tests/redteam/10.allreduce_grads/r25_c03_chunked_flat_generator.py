# expect: pass one flat buffer per dtype, cut by a generator into chunks of at most 1 MiB, each chunk all-reduced asynchronously as a view of the buffer, all waited with torch.futures.wait_all, then split back with copy_
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def _chunks(flat, max_bytes):
    step = max(1, max_bytes // flat.element_size())
    for start in range(0, flat.numel(), step):
        yield flat[start : start + step]  # a view: the all-reduce writes into flat


@torch.no_grad()
def average_gradients(model, max_bytes=2**20):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    by_dtype = {}
    for p in model.parameters():
        if p.grad is not None:
            by_dtype.setdefault(p.grad.dtype, []).append(p.grad)
    for grads in by_dtype.values():  # insertion order: the same on every rank
        flat = torch.cat([g.reshape(-1) for g in grads])
        futures = [dist.all_reduce(c, async_op=True).get_future() for c in _chunks(flat, max_bytes)]
        torch.futures.wait_all(futures)
        flat.div_(world)
        for g, part in zip(grads, flat.split([g.numel() for g in grads])):
            g.copy_(part.view_as(g))
