"""A learner's own helper: run per-stage orders with dependency checks (cut graph between stages)."""
import torch


def run(stages, x, y, loss_fn, n_micro, orders_of, weigh=None, cut=True, zero=False):
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    n = len(stages)
    if zero:
        for s in stages:
            s.zero_grad()
    pending = [list(orders_of(k, n, m)) for k in range(n)]
    ins, outs, done, losses = {}, {}, set(), []
    weigh = weigh or (lambda i: len(xs[i]) / len(x))
    while any(pending):
        progressed = False
        for k in range(n):
            if not pending[k]:
                continue
            kind, i = pending[k][0]
            need = (("F", k - 1, i) if k else None) if kind == "F" else (("B", k + 1, i) if k < n - 1 else ("F", k, i))
            if need and need not in done:
                continue
            pending[k].pop(0)
            progressed = True
            if kind == "F":
                h = xs[i] if k == 0 else (outs[k - 1, i].detach().requires_grad_() if cut else outs[k - 1, i])
                o = stages[k](h)
                if k == n - 1:
                    o = loss_fn(o, ys[i]) * weigh(i)
                ins[k, i], outs[k, i] = h, o
            elif k == n - 1:
                outs[k, i].backward()
                losses.append(outs[k, i].detach())
            elif cut:
                outs[k, i].backward(ins[k + 1, i].grad)
            done.add((kind, k, i))
        if not progressed:
            raise RuntimeError("deadlock")
    return torch.stack(losses).sum()


def one_f_one_b(k, n, m, warm_of=lambda k, n, m: min(n - k - 1, m)):
    warm = warm_of(k, n, m)
    order = [("F", i) for i in range(warm)]
    for i in range(m - warm):
        order += [("F", warm + i), ("B", i)]
    return order + [("B", i) for i in range(m - warm, m)]
