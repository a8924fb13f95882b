# expect: fail the first call averages by hand and registers post-accumulate hooks that all-reduce inside later backwards; later calls do nothing: the averaging moves out of the function, and gradient accumulation would be averaged per backward
# hint: hook|backward|first call|register|outside|state|between calls|marker|attribute
import torch.distributed as dist


def _average_now(p):
    dist.all_reduce(p.grad)
    p.grad /= dist.get_world_size()


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if getattr(model, "_grads_averaged_in_backward", False):
        return  # the hooks already did it, during backward
    for p in model.parameters():
        if p.grad is not None:
            _average_now(p)
        if p.requires_grad:
            p.register_post_accumulate_grad_hook(_average_now)  # next steps: no wait at the end
    model._grads_averaged_in_backward = True
