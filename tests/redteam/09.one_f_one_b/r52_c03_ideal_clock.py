# expect: pass own simulation of an ideal clock (ticks) to order all actions, functools.partial actions, torch.autograd.backward, float returned
# hint:
import functools

import torch


def _stage_orders(S, M):
    orders = []
    for k in range(S):
        w = min(S - k - 1, M)
        f = [("F", i) for i in range(M)]
        b = [("B", i) for i in range(M)]
        order = f[:w]
        for j in range(M - w):
            order += [f[w + j], b[j]]
        orders.append(order + b[M - w :])
    return orders


def _timed(orders):
    """Each action's start on a clock of one tick per action, as soon as its stage and needs allow."""
    S = len(orders)
    end, free, plan = {}, [0] * S, []
    remaining = [list(o) for o in orders]
    while any(remaining):
        for k in range(S):
            if not remaining[k]:
                continue
            phase, i = remaining[k][0]
            need = ("F", k - 1, i) if phase == "F" and k > 0 else None
            if phase == "B" and k < S - 1:
                need = ("B", k + 1, i)
            if need is not None and need not in end:
                continue
            start = max(free[k], end.get(need, 0))
            end[phase, k, i] = free[k] = start + 1
            plan.append((start, k, phase, i))
            remaining[k].pop(0)
    return sorted(plan)


def _forward(state, k, i):
    stages, xs, ys, loss_fn, rows = state["stages"], state["xs"], state["ys"], state["loss_fn"], state["rows"]
    h = xs[i] if k == 0 else state["out"][k - 1, i].detach().requires_grad_()
    out = stages[k](h)
    if k == len(stages) - 1:
        out = loss_fn(out, ys[i]) * (xs[i].shape[0] / rows)
    state["in"][k, i], state["out"][k, i] = h, out


def _backward(state, k, i):
    out = state["out"].pop((k, i))
    if k == len(state["stages"]) - 1:
        torch.autograd.backward(out)
        state["losses"].append(out.detach())
    else:
        torch.autograd.backward(out, state["in"].pop((k + 1, i)).grad)


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    M = min(n_micro, len(x))
    state = dict(stages=stages, xs=torch.tensor_split(x, M), ys=torch.tensor_split(y, M),
                 loss_fn=loss_fn, rows=len(x), out={}, losses=[])
    state["in"] = {}
    run = {"F": _forward, "B": _backward}
    actions = [functools.partial(run[phase], state, k, i) for _, k, phase, i in _timed(_stage_orders(len(stages), M))]
    for action in actions:
        action()
    return float(sum(state["losses"]))


answer = one_f_one_b_step
