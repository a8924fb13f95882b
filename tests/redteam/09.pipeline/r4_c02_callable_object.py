# expect: pass
# hint: 
import torch
class PipelineStep:
    """A callable object: micro-batches as index ranges, all forwards, then torch.autograd.backward on the list."""
    def __call__(self, stage1, stage2, x, y, loss_fn, n_micro):
        dev1, dev2 = (next(s.parameters()).device for s in (stage1, stage2))
        m = min(n_micro, x.size(0))
        q, r = divmod(x.size(0), m)
        bounds, start = [], 0
        for i in range(m):
            end = start + q + (1 if i < r else 0)
            bounds.append((start, end))
            start = end
        weighted = []
        for a, b in bounds:
            h = stage1(x[a:b].to(dev1))
            out = stage2(h.to(dev2))
            weighted.append(loss_fn(out, y[a:b].to(dev2)) * ((b - a) / x.size(0)))
        torch.autograd.backward(weighted)
        return float(sum(w.detach() for w in weighted))
answer = PipelineStep()
