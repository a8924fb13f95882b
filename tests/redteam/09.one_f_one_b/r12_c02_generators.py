# expect: pass
# hint:
# name: one_f_one_b_step
import torch


def _program(k, S, M):
    """Stage k's 1F1B actions, one at a time."""
    warm = min(S - k - 1, M)
    f = b = 0
    while f < warm:
        yield "F", f
        f += 1
    while f < M:  # steady state: one forward, one backward
        yield "F", f
        f += 1
        yield "B", b
        b += 1
    while b < M:  # cool-down
        yield "B", b
        b += 1


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    rows = x.shape[0]
    M = min(n_micro, rows)
    xs = torch.tensor_split(x, M)
    ys = torch.tensor_split(y, M)
    programs = [_program(k, S, M) for k in range(S)]
    nxt = [next(p, None) for p in programs]
    n_fwd = [0] * S  # forwards done per stage (they go 0, 1, 2, ...)
    n_bwd = [0] * S
    recv = [dict() for _ in range(S)]  # stage k's detached inputs, by micro-batch
    sent = [dict() for _ in range(S)]  # stage k's outputs (the loss on the last), by micro-batch
    total = None
    while any(a is not None for a in nxt):
        progressed = False
        for k in range(S):
            if nxt[k] is None:
                continue
            kind, i = nxt[k]
            if kind == "F":
                if k and n_fwd[k - 1] <= i:
                    continue
                inp = xs[i] if k == 0 else sent[k - 1][i].detach().requires_grad_(True)
                res = stages[k](inp)
                if k == S - 1:
                    res = loss_fn(res, ys[i]) * (xs[i].shape[0] / rows)
                recv[k][i], sent[k][i] = inp, res
                n_fwd[k] += 1
            else:
                if k < S - 1 and n_bwd[k + 1] <= i:
                    continue
                res = sent[k].pop(i)
                if k == S - 1:
                    res.backward()
                    part = res.detach()
                    total = part if total is None else total + part
                else:
                    res.backward(recv[k + 1].pop(i).grad)
                n_bwd[k] += 1
            nxt[k] = next(programs[k], None)
            progressed = True
        assert progressed, "deadlock"
    return total
