# expect: pass callable class; weight via len(chunk)/len(x) computed as fractions summing to 1; stage devices via parameters(); generator of (out, target) pairs
# hint: 
import torch
class GPipeStep:
    @staticmethod
    def _device(stage):
        return next(stage.parameters()).device
    def _forwards(self, stage1, stage2, x, y, n_micro):
        d1, d2 = self._device(stage1), self._device(stage2)
        m = min(n_micro, len(x))
        for xb, yb in zip(x.tensor_split(m), y.tensor_split(m)):
            yield stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)
    def __call__(self, stage1, stage2, x, y, loss_fn, n_micro):
        n = len(x)
        weighted = [loss_fn(out, t) * (len(t) / n) for out, t in self._forwards(stage1, stage2, x, y, n_micro)]
        loss = sum(weighted[1:], weighted[0])
        loss.backward()
        return loss.detach()
answer = GPipeStep()
