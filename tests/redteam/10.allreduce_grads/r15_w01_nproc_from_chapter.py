# expect: fail world size taken from the chapter's NPROC (max(2, GPUs)), 2 on a CPU, not the group's size
# hint: world.?size|number of ranks|3 ranks|three ranks|hard.?coded|/ ?2|get_world_size
import torch
import torch.distributed as dist

NPROC = max(2, torch.cuda.device_count())  # as chapter 10 sets it: 2 CPU processes, or one per GPU


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= NPROC


answer = average_gradients
