# expect: fail appends each call's all-reduce time to a module-level list for the training log: one more entry at every call, so what the function keeps grows with the length of the run (the prompt allows a buffer, nothing that grows).
# hint: (grow|grows|growing|append|each call|every call|history|accumulat|unbounded|leak|list)
# open: Python numbers appended to a list: the rank counts the tensors its calls keep, and a bounded deque of the same numbers (r28_c14) is right; three steps cannot tell an unbounded list from a deque of 100
# name: average_gradients
import time

import torch
import torch.distributed as dist

ALLREDUCE_SECONDS = []  # communication time of every step, printed by the training loop


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    t0 = time.perf_counter()
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
    ALLREDUCE_SECONDS.append(time.perf_counter() - t0)
