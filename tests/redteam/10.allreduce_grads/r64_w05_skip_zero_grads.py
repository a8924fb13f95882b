# expect: fail skips gradients that are all zeros on this rank, so ranks can call different collectives (or pair different tensors)
# hint: same (collectives|order)|mismatch|all.?zeros?|skip|rank.?dependent|hang|time.?out|deadlock|match
# Wrong: whether a gradient is all zeros depends on this rank's half of the batch (a dead ReLU,
# an unused class), so one rank may skip a parameter the other all-reduces: the collectives no
# longer match, which the prompt forbids (every rank, the same collectives in the same order).
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None or not p.grad.any():  # nothing to send: save an all-reduce
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
