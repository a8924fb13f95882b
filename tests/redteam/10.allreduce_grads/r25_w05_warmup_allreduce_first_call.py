# expect: fail copies the chapter's benchmark method into the function: an untimed warm-up all-reduce of a dummy tensor on the first call, an extra collective that sends no gradient
# hint: warm.?up|dummy|extra (collective|all.?reduce)|first call|(one|an) (more|extra)|not (a )?grad
# name: average_gradients
import torch
import torch.distributed as dist

_warmed_up = []  # the first all-reduce sets up the connections (chapter 10.5): do it once, untimed


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if not _warmed_up:
        dist.all_reduce(torch.zeros(1))
        _warmed_up.append(True)
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
