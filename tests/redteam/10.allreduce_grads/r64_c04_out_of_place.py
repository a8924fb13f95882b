# expect: pass
# hint:
# Right: out of place: sums a contiguous copy of each gradient and assigns p.grad a new tensor
# (the prompt asks for the average in p.grad, not for the same tensor); parameters taken in order
# of their names, which is the same on every rank.
import torch
import torch.distributed as dist


def answer(model):
    n = dist.get_world_size()
    with torch.no_grad():
        for _, p in sorted(model.named_parameters(), key=lambda item: item[0]):
            if p.grad is None:
                continue
            total = p.grad.clone(memory_format=torch.contiguous_format)
            dist.all_reduce(total, op=dist.ReduceOp.SUM)
            p.grad = total / n
