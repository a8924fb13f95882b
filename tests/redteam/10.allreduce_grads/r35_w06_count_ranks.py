# expect: fail counts the ranks with an extra all_reduce of a ones tensor on every call instead of dist.get_world_size(): right values, one collective more than needed.
# hint: extra|collective|count|all_reduce|get_world_size|more than
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    ranks = torch.ones(1)
    dist.all_reduce(ranks)  # how many ranks took part
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= ranks


answer = average_gradients
