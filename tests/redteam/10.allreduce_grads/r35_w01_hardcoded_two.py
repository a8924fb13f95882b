# expect: fail divides by a hard-coded 2 instead of dist.get_world_size(), so the average is wrong on three ranks.
# hint: world|get_world_size|three|3 ranks|hard|/ ?2
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= 2  # two ranks


answer = average_gradients
