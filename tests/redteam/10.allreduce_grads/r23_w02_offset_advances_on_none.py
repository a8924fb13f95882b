# expect: fail the flat buffer holds only the grads that exist, but the copy-back offset also advances over parameters whose grad is None: after an unused layer every later grad reads a shifted slice (other grads' numbers, or a short slice); right only when the unused parameters come last
# hint: none|unused|offset|slice|shift|skip|numel|position
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])  # one all-reduce instead of many
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in model.parameters():
        n = p.numel()
        if p.grad is not None:
            p.grad.copy_(flat[offset : offset + n].view_as(p.grad))
        offset += n
