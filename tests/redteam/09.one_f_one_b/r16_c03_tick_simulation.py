# expect: pass orders built with itertools, a global order from a hand-written tick simulation, closures per action
# hint: 
import itertools

import torch


def _order(k, n_stages, m):
    warm = min(n_stages - k - 1, m)
    steady = itertools.chain.from_iterable(
        (("F", warm + i), ("B", i)) for i in range(m - warm)
    )
    return list(
        itertools.chain(
            (("F", i) for i in range(warm)), steady, (("B", i) for i in range(m - warm, m))
        )
    )


def _global_order(orders):
    """Each stage's actions, interleaved tick by tick: at each tick every stage runs its
    next action if what it needs finished at an earlier tick."""
    n_stages = len(orders)
    finished = {}  # (kind, k, i) -> tick
    position = [0] * n_stages
    plan, tick = [], 0
    while any(position[k] < len(orders[k]) for k in range(n_stages)):
        for k in range(n_stages):
            if position[k] == len(orders[k]):
                continue
            kind, i = orders[k][position[k]]
            if kind == "F":
                need = ("F", k - 1, i) if k > 0 else None
            else:
                need = ("B", k + 1, i) if k < n_stages - 1 else None
            if need is None or finished.get(need, tick) < tick:
                plan.append((kind, k, i))
                finished[kind, k, i] = tick
                position[k] += 1
        tick += 1
    return plan


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs = torch.tensor_split(x, min(n_micro, len(x)))
    ys = torch.tensor_split(y, len(xs))
    n_stages = len(stages)
    orders = [_order(k, n_stages, len(xs)) for k in range(n_stages)]
    acts, outs = {}, {}
    loss = x.new_zeros(())

    def forward(k, i):
        h = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
        out = stages[k](h)
        if k == n_stages - 1:
            out = loss_fn(out, ys[i]) * len(xs[i]) / len(x)
        acts[k, i], outs[k, i] = h, out

    def backward(k, i):
        nonlocal loss
        out = outs.pop((k, i))
        if k == n_stages - 1:
            out.backward()
            loss = loss + out.detach()
        else:
            out.backward(acts.pop((k + 1, i)).grad)

    run = {"F": forward, "B": backward}
    for kind, k, i in _global_order(orders):
        run[kind](k, i)
    return loss


answer = one_f_one_b_step
