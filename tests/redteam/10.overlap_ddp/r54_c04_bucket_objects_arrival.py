# expect: pass small Bucket objects; each rank flattens a bucket in the order its gradients arrived and copies back in that same order; parameters gathered per module; extra harmless bookkeeping (launch count per step)
# hint:
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self):
        self.params = []
        self.nbytes = 0
        self.arrived = []  # parameters, in the order their gradients came this step
        self.flat = None
        self.work = None

    def add(self, p):
        self.params.append(p)
        self.nbytes += p.numel() * p.element_size()


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        # the same order as model.parameters(): module by module, each module's own
        seen, params = set(), []
        for module in model.modules():
            for p in module.parameters(recurse=False):
                if id(p) not in seen:
                    seen.add(id(p))
                    params.append(p)
        self.buckets = [_Bucket()]
        for p in params[::-1]:
            if self.buckets[-1].nbytes >= bucket_bytes:
                self.buckets.append(_Bucket())
            self.buckets[-1].add(p)
        self.bucket_of = {id(p): bk for bk in self.buckets for p in bk.params}
        self.launched = []
        self.launches_per_step = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        bk = self.bucket_of[id(p)]
        bk.arrived.append(p)
        if len(bk.arrived) == len(bk.params):
            bk.flat = torch.cat([q.grad.reshape(-1) for q in bk.arrived])
            bk.flat.div_(dist.get_world_size())
            bk.work = dist.all_reduce(bk.flat, async_op=True)
            self.launched.append(bk)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for bk in self.launched:
            bk.work.wait()
            offset = 0
            for q in bk.arrived:
                q.grad.copy_(bk.flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.launches_per_step = self.launches_per_step[-9:] + [len(self.launched)]
        for bk in self.buckets:
            bk.arrived, bk.flat, bk.work = [], None, None
        self.launched = []


answer = OverlappedDDP
