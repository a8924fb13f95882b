# expect: pass a class; x.to(weight) moves to stage 1's device, h.to(weight2) to stage 2's; float returned
# hint: 
import torch
class Step:
    def __call__(self, stage1, stage2, x, y, loss_fn, n_micro):
        w1, w2 = next(stage1.parameters()), next(stage2.parameters())
        m = min(n_micro, x.shape[0])
        xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
        hs = []
        for a in xs:
            hs.append(stage2(stage1(a.to(w1)).to(w2)))
        losses = [loss_fn(h, b.to(w2.device)).mul(b.shape[0] / y.shape[0]) for h, b in zip(hs, ys)]
        total = torch.stack(losses).sum()
        total.backward()
        return float(total)
answer = Step()
