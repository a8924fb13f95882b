# expect: pass
# hint:
# Right: every all-reduce launched with async_op=True, all handles waited on, and only then the
# division; low-precision gradients are summed in float32 and written back in their own dtype.
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    pending = []
    for p in model.parameters():
        if p.grad is None:
            continue
        g = p.grad
        wide = g.to(torch.promote_types(g.dtype, torch.float32), memory_format=torch.contiguous_format)
        pending.append((g, wide, dist.all_reduce(wide, async_op=True)))
    world = dist.get_world_size()
    for g, wide, handle in pending:
        handle.wait()
        g.copy_(wide.div_(world))
