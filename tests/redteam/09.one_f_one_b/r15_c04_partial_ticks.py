# expect: pass functools.partial of a generic runner; own ideal-clock ticks sorted; autograd.backward; prints
# hint: 
import functools

import torch


def _warmup_1f1b(k, n_stages, m):
    return min(n_stages - k - 1, m)


def _order(warmup, m):
    fs = [("F", i) for i in range(m)]
    bs = [("B", i) for i in range(m)]
    steady = [a for pair in zip(fs[warmup:], bs) for a in pair]
    return fs[:warmup] + steady + bs[m - warmup :]


def _start_times(orders):
    """When each action would start on a clock where every action takes one tick."""
    n = len(orders)
    end, start = {}, {}
    pos, clock = [0] * n, [0] * n
    while any(pos[k] < len(orders[k]) for k in range(n)):
        for k in range(n):
            if pos[k] == len(orders[k]):
                continue
            kind, i = orders[k][pos[k]]
            need = (("F", k - 1, i) if k > 0 else None) if kind == "F" else (
                ("B", k + 1, i) if k < n - 1 else ("F", k, i)
            )
            if need is not None and need not in end:
                continue
            t = max(clock[k], end[need] if need is not None else 0)
            start[kind, k, i] = t
            end[kind, k, i] = clock[k] = t + 1
            pos[k] += 1
    return start


def run_pipeline(stages, x, y, loss_fn, n_micro, warmup, verbose=False):
    n_stages = len(stages)
    m = min(n_micro, len(x))
    xs, ys = x.tensor_split(m), y.tensor_split(m)
    orders = [_order(warmup(k, n_stages, m), m) for k in range(n_stages)]
    starts = _start_times(orders)
    inputs, outputs = {}, {}
    loss = torch.tensor(0.0)
    for t, k, kind, i in sorted((t, k, kind, i) for (kind, k, i), t in starts.items()):
        if kind == "F":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == n_stages - 1:
                out = loss_fn(out, ys[i]).mul(len(xs[i]) / len(x))
            inputs[k, i], outputs[k, i] = h, out
        elif k == n_stages - 1:
            weighted = outputs.pop((k, i))
            torch.autograd.backward(weighted)
            loss += weighted.detach()
        else:
            torch.autograd.backward(outputs.pop((k, i)), inputs.pop((k + 1, i)).grad)
        if verbose:
            print(f"tick {t}: stage {k} {kind}{i}")
    print(f"1F1B over {n_stages} stages, {m} micro-batches")
    return loss


one_f_one_b_step = functools.partial(run_pipeline, warmup=_warmup_1f1b)
answer = one_f_one_b_step
