# expect: pass buckets as small dict records (params, sizes, arrived set); divides after the wait in finish (allowed); copy back through torch.split
# hint: 
import torch
import torch.distributed as dist


def _plan(params, cap):
    buckets, cur, nbytes = [], [], 0
    for p in params:
        cur.append(p)
        nbytes += p.numel() * p.element_size()
        if nbytes >= cap:
            buckets.append(cur)
            cur, nbytes = [], 0
    if cur:
        buckets.append(cur)
    return buckets


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.records = [
            {"params": b, "sizes": [p.numel() for p in b], "arrived": set()}
            for b in _plan(reversed(params), bucket_bytes)
        ]
        self.owner = {id(p): rec for rec in self.records for p in rec["params"]}
        self.inflight = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        rec = self.owner[id(p)]
        rec["arrived"].add(id(p))
        if len(rec["arrived"]) == len(rec["params"]):
            flat = torch.cat([q.grad.reshape(-1) for q in rec["params"]])
            self.inflight.append((rec, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        for rec, flat, work in self.inflight:
            work.wait()
            flat.div_(world)
            with torch.no_grad():
                for q, part in zip(rec["params"], torch.split(flat, rec["sizes"])):
                    q.grad.copy_(part.view_as(q.grad))
        self.inflight.clear()
        for rec in self.records:
            rec["arrived"].clear()


answer = OverlappedDDP
