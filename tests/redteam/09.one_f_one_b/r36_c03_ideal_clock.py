# expect: pass own ideal-clock simulation: each action's tick from its stage and dependency, then run sorted by tick
# hint:
# name: one_f_one_b_step
import torch


def _orders(S, M):
    out = []
    for k in range(S):
        w = min(S - k - 1, M)
        f = b = 0
        seq = []
        while f < w:
            seq.append(("F", f))
            f += 1
        while f < M:
            seq += [("F", f), ("B", b)]
            f += 1
            b += 1
        while b < M:
            seq.append(("B", b))
            b += 1
        out.append(seq)
    return out


def _ticks(orders):
    """When each (stage, kind, i) would run if every action took one tick."""
    S = len(orders)
    tick = {}
    nxt = [0] * S
    free = [0] * S
    remaining = sum(map(len, orders))
    while remaining:
        for k in range(S):
            if nxt[k] == len(orders[k]):
                continue
            kind, i = orders[k][nxt[k]]
            dep = (k - 1, "F", i) if kind == "F" else (k + 1, "B", i)
            if not (0 <= dep[0] < S):
                ready = free[k]
            elif dep in tick:
                ready = max(free[k], tick[dep] + 1)
            else:
                continue
            tick[k, kind, i] = ready
            free[k] = ready + 1
            nxt[k] += 1
            remaining -= 1
    return tick


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, x.shape[0])
    xs, ys = x.tensor_split(M), y.tensor_split(M)
    ticks = _ticks(_orders(S, M))
    plan = sorted(ticks, key=lambda a: (ticks[a], a[0]))
    acts, leaves, result = {}, {}, torch.zeros(())
    for k, kind, i in plan:
        if kind == "F":
            inp = xs[i] if k == 0 else acts[k - 1, i].detach().requires_grad_()
            out = stages[k](inp)
            if k == S - 1:
                out = loss_fn(out, ys[i]).mul(xs[i].shape[0] / x.shape[0])
            leaves[k, i], acts[k, i] = inp, out
        elif k == S - 1:
            loss = acts.pop((k, i))
            loss.backward()
            result = result + loss.detach()
        else:
            torch.autograd.backward(acts.pop((k, i)), grad_tensors=leaves.pop((k + 1, i)).grad)
    return result
