# expect: fail runs the per-gradient all-reduces concurrently on a thread pool, so each rank issues its collectives in whatever order its threads reach them: the ranks pair different gradients (wrong sums, or a size mismatch / hang)
# hint: thread|pool|concurren|same order|order of (the )?collectives|mismatch|pair
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist


def _average(g, world):
    dist.all_reduce(g)
    g.div_(world)


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    with ThreadPoolExecutor(max_workers=4) as pool:  # all-reduces side by side, not one after another
        list(pool.map(lambda g: _average(g, world), grads))


answer = average_gradients
