# expect: fail collectives in an order that depends on each rank's memory addresses (a set of Parameters iterates by id)
# hint: order|same order|sequence|mismatch
import torch.distributed as dist


def answer(model):
    # a set skips a parameter that two modules share; but a Parameter hashes by id(),
    # so the set's order is this process's addresses, not the same on every rank
    params = {p for p in model.parameters() if p.grad is not None}
    world = dist.get_world_size()
    for p in params:
        dist.all_reduce(p.grad)
        p.grad /= world
