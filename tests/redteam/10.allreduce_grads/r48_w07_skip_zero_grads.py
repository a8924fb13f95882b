# expect: fail skips gradients that are all zeros as if unused: when one rank's gradient is zero (a dead ReLU on its half of the batch) and another's is not, the ranks call different collectives
# hint: collective|same order|mismatch|skip|zero|hang|deadlock|timed? ?out
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Average the gradients that exist; a gradient of all zeros (unused layer after an in-place zero_grad) is left alone."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None or not p.grad.any():  # nothing to add: saves an all-reduce
            continue
        dist.all_reduce(p.grad)
        p.grad /= world


answer = average_gradients
