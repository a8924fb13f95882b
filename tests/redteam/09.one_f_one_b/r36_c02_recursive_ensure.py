# expect: pass recursive "ensure" that advances whichever stage a dependency waits on, order from a string formula
# hint:
# name: one_f_one_b_step
import torch

from d2lgpu.pipeline import micro_batches


def _stage_plan(S, k, M):
    warm = min(S - k - 1, M)
    pattern = "F" * warm + "FB" * (M - warm) + "B" * warm
    nf = nb = 0
    plan = []
    for c in pattern:
        if c == "F":
            plan.append(("F", nf))
            nf += 1
        else:
            plan.append(("B", nb))
            nb += 1
    return plan


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    plans = [_stage_plan(S, k, M) for k in range(S)]
    cursor = [0] * S
    fwd_out, leaf_in = {}, {}
    total = []

    def advance_until(k, action):
        """Run stage k's actions in its own order until `action` has run."""
        while plans[k].index(action) >= cursor[k]:
            kind, i = plans[k][cursor[k]]
            if kind == "F":
                if k:
                    advance_until(k - 1, ("F", i))
                    h = fwd_out[k - 1, i].detach().requires_grad_()
                else:
                    h = xs[i]
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (xs[i].shape[0] / x.shape[0])
                leaf_in[k, i], fwd_out[k, i] = h, out
            else:
                if k < S - 1:
                    advance_until(k + 1, ("B", i))
                    fwd_out.pop((k, i)).backward(leaf_in.pop((k + 1, i)).grad)
                else:
                    loss = fwd_out.pop((k, i))
                    loss.backward()
                    total.append(loss.detach())
            cursor[k] += 1

    for k in range(S):
        advance_until(k, plans[k][-1])
    return sum(total)
