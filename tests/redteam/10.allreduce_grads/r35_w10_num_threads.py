# expect: fail sets torch.set_num_threads(1) so gloo's threads get the cores and never puts the caller's thread count back.
# hint: thread|num_threads
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    torch.set_num_threads(1)  # leave the cores to gloo's communication threads
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


answer = average_gradients
