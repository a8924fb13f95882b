# expect: fail each gradient all-gathered and the stack summed (written as right; the prompt asks for dist.all_reduce, which sums in place where this moves and holds world_size copies)
# hint: gather|all_reduce|copies
import torch
import torch.distributed as dist


class _Averager:
    def __call__(self, model):
        world = dist.get_world_size()
        with torch.no_grad():
            for _name, p in model.named_parameters():
                if p.grad is None:
                    continue
                copies = [torch.empty_like(p.grad) for _ in range(world)]
                dist.all_gather(copies, p.grad.contiguous())
                p.grad.copy_(torch.stack(copies).sum(0) / world)


_averager = _Averager()


def answer(model):
    _averager(model)
