# expect: pass a small callable class: each call sends one flat float buffer per dtype asynchronously, waits through torch.futures.wait_all on the handles' futures, then divides and copies back by offsets; nothing kept between calls
# hint:
# name: average_gradients
import itertools

import torch
import torch.distributed as dist


class _GradientAverager:
    @torch.no_grad()
    def __call__(self, model):
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        jobs = []
        for dtype, group in itertools.groupby(sorted(grads, key=lambda g: str(g.dtype)), key=lambda g: g.dtype):
            group = list(group)
            flat = torch.cat([g.reshape(-1) for g in group])
            jobs.append((dist.all_reduce(flat, async_op=True), flat, group))
        torch.futures.wait_all([work.get_future() for work, _, _ in jobs])
        n = dist.get_world_size()
        for _, flat, group in jobs:
            flat.div_(n)
            ends = list(itertools.accumulate(g.numel() for g in group))
            for g, start, end in zip(group, [0, *ends], ends):
                g.copy_(flat[start:end].view_as(g))


average_gradients = _GradientAverager()
average_gradients.__doc__ = "Replace every p.grad of model by its average over all ranks (skipping grads that are None)."
