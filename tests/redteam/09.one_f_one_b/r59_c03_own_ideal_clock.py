# expect: pass a hand-written ideal clock: each stage's 1F1B order is timed by its own simulation, then all actions run sorted by start time
# hint:
# name: one_f_one_b_step
import torch


def _orders(n_stages, n_micro):
    orders = []
    for k in range(n_stages):
        warm = min(n_stages - k - 1, n_micro)
        steady = n_micro - warm
        order = [("F", i) for i in range(warm)]
        for j in range(steady):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(steady, n_micro)]
        orders.append(order)
    return orders


def _start_times(orders):
    """When each (stage, action, i) starts if every action takes one tick and waits for its inputs."""
    n = len(orders)
    end, start = {}, {}
    free = [0] * n
    pos = [0] * n
    while any(pos[k] < len(orders[k]) for k in range(n)):
        moved = False
        for k in range(n):
            if pos[k] == len(orders[k]):
                continue
            a, i = orders[k][pos[k]]
            if a == "F":
                need = ("F", k - 1, i) if k > 0 else None
            else:
                need = ("B", k + 1, i) if k < n - 1 else ("F", k, i)
            if need is not None and need not in end:
                continue
            t = max(free[k], end[need] if need is not None else 0)
            start[a, k, i], end[a, k, i] = t, t + 1
            free[k] = t + 1
            pos[k] += 1
            moved = True
        assert moved, "orders cannot run"
    return start


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    last = len(stages) - 1
    start = _start_times(_orders(len(stages), m))
    # ties: the later stage first, so a backward's gradient is there before the stage below needs it
    plan = sorted(start, key=lambda key: (start[key], -key[1]))
    inp, out_of, loss = {}, {}, 0.0
    for a, k, i in plan:
        if a == "F":
            h = xs[i] if k == 0 else out_of[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == last:
                out = loss_fn(out, ys[i]) * (xs[i].shape[0] / x.shape[0])
            inp[k, i], out_of[k, i] = h, out
        else:
            out = out_of.pop((k, i))
            if k == last:
                loss = loss + out.detach()
                out.backward()
            else:
                out.backward(inp.pop((k + 1, i)).grad)
    return loss
