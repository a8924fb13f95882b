# expect: pass closures per parameter, sets of ready params, a printed bucket plan, ReduceOp.SUM explicit
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.plan = []
        names = {id(p): n for n, p in model.named_parameters()}
        params = list(model.parameters())
        start = len(params)
        while start > 0:
            bucket, total = [], 0
            while start > 0 and total < bucket_bytes:
                start -= 1
                bucket.append(params[start])
                total += params[start].numel() * params[start].element_size()
            self.plan.append(bucket)
        if dist.is_initialized() and dist.get_rank() == 0:
            for i, b in enumerate(self.plan):
                print(f"bucket {i}: {[names[id(p)] for p in b]}")
        self.ready = [set() for _ in self.plan]
        self.handles = []
        for i, bucket in enumerate(self.plan):
            for p in bucket:
                p.register_post_accumulate_grad_hook(self._make_hook(i))

    def _make_hook(self, i):
        def hook(p):
            self.ready[i].add(id(p))
            if len(self.ready[i]) == len(self.plan[i]):
                self._launch(i)
        return hook

    def _hook(self, p):
        for i, bucket in enumerate(self.plan):
            if any(q is p for q in bucket):
                self._make_hook(i)(p)

    def _launch(self, i):
        grads = [q.grad.reshape(-1) for q in self.plan[i]]
        flat = torch.cat(grads) / dist.get_world_size()
        self.handles.append((self.plan[i], flat, dist.all_reduce(flat, op=dist.ReduceOp.SUM, async_op=True)))

    def finish(self):
        handles, self.handles = self.handles, []
        for s in self.ready:
            s.clear()
        for bucket, flat, handle in handles:
            handle.wait()
            pos = 0
            for q in bucket:
                q.grad.copy_(flat[pos:pos + q.numel()].view_as(q.grad))
                pos += q.numel()


answer = OverlappedDDP
