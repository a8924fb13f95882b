# expect: fail sets torch's thread count to 1 (to leave the cores to gloo) and never puts it back
# hint: thread|set_num_threads|num_threads
import torch
import torch.distributed as dist


def answer(model):
    torch.set_num_threads(1)  # the ranks share the cores with gloo's threads
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
