# expect: fail the averages are right but it calls dist.barrier() before every all_reduce, an extra collective per parameter that doubles the calls and adds a sync.
# hint: barrier|extra|collective|more than|count|sync
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.barrier()  # make sure every rank has finished backward for this one
            dist.all_reduce(p.grad)
            p.grad /= world


answer = average_gradients
