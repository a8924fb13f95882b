# expect: fail keeps every call's averaged gradients in a module-level list that is never cleared, so memory grows with each step
# hint: grow|leak|memory|kept|keeps|history|every (call|step)|never (cleared|freed)|accumulat|state
# Wrong: the prompt allows a buffer kept for the next call, "but nothing that grows with each
# call"; this keeps a copy of all the gradients of every step (for "debugging"), forever.
import torch
import torch.distributed as dist

_history = []  # the averaged gradients of each step, to inspect after training


@torch.no_grad()
def answer(model):
    world = dist.get_world_size()
    step = []
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
        step.append(p.grad.clone())
    _history.append(step)
