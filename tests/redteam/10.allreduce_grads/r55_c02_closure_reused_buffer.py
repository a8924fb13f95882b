# expect: pass closure keeping one flat buffer, reallocated only when the total size changes, copied back in place
# hint:
import torch
import torch.distributed as dist


def _make_average_gradients():
    kept = {}  # one buffer, replaced (never added to) when the sizes change

    def average_gradients(model):
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        if not grads:
            return
        total = sum(g.numel() for g in grads)
        flat = kept.get("flat")
        if flat is None or flat.numel() != total or flat.dtype != grads[0].dtype:
            flat = kept["flat"] = torch.empty(total, dtype=grads[0].dtype)
        chunks = flat.split([g.numel() for g in grads])
        for chunk, g in zip(chunks, grads):
            chunk.copy_(g.reshape(-1))
        dist.all_reduce(flat)
        flat.div_(dist.get_world_size())
        for chunk, g in zip(chunks, grads):
            g.copy_(chunk.view_as(g))

    return average_gradients


answer = _make_average_gradients()
