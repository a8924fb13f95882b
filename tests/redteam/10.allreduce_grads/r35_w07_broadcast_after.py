# expect: fail after averaging it also broadcasts every gradient from rank 0 "to keep the ranks identical", a redundant collective per parameter (values right, twice the traffic).
# hint: broadcast|extra|collective|more than|count|traffic
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
        dist.broadcast(p.grad, src=0)  # every rank ends with rank 0's copy, bit for bit


answer = average_gradients
