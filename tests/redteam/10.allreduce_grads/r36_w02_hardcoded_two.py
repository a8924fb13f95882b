# expect: fail divides by a hard-coded 2 instead of dist.get_world_size()
# hint: (world.?size|get_world_size|hard.?cod|written in|/ ?2|three ranks|3 ranks|number of ranks)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= 2  # two GPUs
