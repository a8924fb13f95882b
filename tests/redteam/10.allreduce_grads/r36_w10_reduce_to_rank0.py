# expect: fail uses dist.reduce to rank 0 instead of all_reduce: only rank 0 gets the average, the others keep garbage
# hint: (all.?reduce|every rank|each rank|rank 0|other ranks|reduce\b|dst)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.reduce(p.grad, dst=0)
            p.grad.div_(world)
