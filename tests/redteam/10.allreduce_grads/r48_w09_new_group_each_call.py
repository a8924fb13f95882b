# expect: fail creates a new process group (dist.new_group over all ranks) on every call: each step adds a group and its connections, so state grows with each call, and each call pays the group's set-up
# hint: new_group|process group|group|grow|leak|each call
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """All-reduce over an explicit group of all the ranks, then divide by its size."""
    group = dist.new_group(ranks=list(range(dist.get_world_size())))
    world = dist.get_world_size(group)
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, group=group)
            p.grad /= world


answer = average_gradients
