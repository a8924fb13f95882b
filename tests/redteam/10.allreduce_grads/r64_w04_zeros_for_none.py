# expect: fail gives parameters whose p.grad is None a zero gradient (then averages it) instead of leaving them alone
# hint: none|no grad|without (a )?grad|unused|leave (them|it) alone|zeros?|untouched
# Wrong: the prompt says to leave a parameter with p.grad None alone. Filling in zeros keeps every
# rank's collectives the same, but an optimizer then steps the unused layer (weight decay,
# momentum, Adam) where DDP and the single process leave it unchanged.
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:  # same collectives on every rank, whatever forward used
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad /= world
