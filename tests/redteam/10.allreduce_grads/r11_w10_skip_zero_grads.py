# expect: fail skips the all_reduce of a gradient that is all zeros on this rank, a rank-local test, so ranks can call different collectives (mismatched or hanging all_reduce) and a zero local gradient is never averaged with the others
# hint: zero|any\(\)|skip|same collectives|same order|differ.*ranks?|ranks?.*differ|mismatch|hang|deadlock|local (test|condition)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None or not p.grad.any():  # nothing to send for a zero gradient
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
