# expect: pass waits on handle.get_future().wait() and unflattens the future's result; buckets as index lists
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self._params = list(model.parameters())
        order = list(range(len(self._params)))[::-1]
        self._groups = []
        group, size = [], 0
        for i in order:
            p = self._params[i]
            group.append(i)
            size += p.element_size() * p.numel()
            if size >= bucket_bytes:
                self._groups.append(group)
                group, size = [], 0
        if group:
            self._groups.append(group)
        self._group_of = {}
        for g, idxs in enumerate(self._groups):
            for i in idxs:
                self._group_of[id(self._params[i])] = g
        self._seen = [0] * len(self._groups)
        self._futures = {}
        for p in self._params:
            if p.requires_grad:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        g = self._group_of[id(p)]
        self._seen[g] += 1
        idxs = self._groups[g]
        if self._seen[g] == len(idxs):
            grads = [self._params[i].grad for i in idxs]
            flat = torch.cat([x.reshape(-1) for x in grads]).div_(dist.get_world_size())
            self._futures[g] = dist.all_reduce(flat, async_op=True).get_future()

    def finish(self):
        for g in sorted(self._futures):
            (flat,) = self._futures[g].wait()
            idxs = self._groups[g]
            sizes = [self._params[i].numel() for i in idxs]
            for i, chunk in zip(idxs, torch.split(flat, sizes)):
                self._params[i].grad.copy_(chunk.view_as(self._params[i]))
        self._futures = {}
        self._seen = [0] * len(self._groups)
