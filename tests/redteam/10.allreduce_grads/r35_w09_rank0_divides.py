# expect: fail only rank 0 divides the summed gradient by the world size, so the other ranks keep the sum and the replicas drift apart.
# hint: rank|every rank|all ranks|divid|same
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            if dist.get_rank() == 0:
                p.grad /= world


answer = average_gradients
