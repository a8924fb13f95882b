# expect: fail the orders come from d2lgpu.pipeline.one_f_one_b_order, called for every (S, M) up to 8 x 64 at import time, before any step runs, so the watch on the helpers during the step sees no call: the forbidden helper, used outside what is watched
# hint: one_f_one_b_order|helper|d2lgpu\.pipeline|yourself|own order|import|precomput|table
import torch

from d2lgpu.pipeline import micro_batches, one_f_one_b_order

# every schedule a step can need, worked out once
_ORDERS = {(s, m): one_f_one_b_order(s, m) for s in range(1, 9) for m in range(1, 65)}


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    todo = [list(o) for o in _ORDERS[S, M]]
    nf, nb = [0] * S, [0] * S
    inp, out, total = {}, {}, torch.zeros(())
    while any(todo):
        for k in reversed(range(S)):
            if not todo[k]:
                continue
            kind, i = todo[k][0]
            if kind == "F" and k > 0 and nf[k - 1] <= i:
                continue
            if kind == "B" and k < S - 1 and nb[k + 1] <= i:
                continue
            todo[k].pop(0)
            if kind == "F":
                h = xs[i] if k == 0 else out[k - 1, i].detach().requires_grad_()
                o = stages[k](h)
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * (len(xs[i]) / len(x))
                inp[k, i], out[k, i] = h, o
                nf[k] += 1
            else:
                o = out.pop((k, i))
                if k == S - 1:
                    o.backward()
                    total = total + o.detach()
                else:
                    o.backward(inp.pop((k + 1, i)).grad)
                nb[k] += 1
    return total


answer = one_f_one_b_step
