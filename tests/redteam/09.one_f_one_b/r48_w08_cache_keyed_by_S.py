# expect: fail orders cached across calls keyed by the number of stages only: a later call with another M reuses the old M's orders
# hint: micro.?batch|order|second call|previous|cache|state|between calls
from d2lgpu.pipeline import micro_batches

_ORDERS = {}  # the schedule depends on the pipeline's depth: build it once per depth


def _orders(S, M):
    if S not in _ORDERS:
        orders = []
        for k in range(S):
            warm = min(S - k - 1, M)
            order = [("F", i) for i in range(warm)]
            for i in range(M - warm):
                order += [("F", warm + i), ("B", i)]
            orders.append(order + [("B", i) for i in range(M - warm, M)])
        _ORDERS[S] = orders
    return _ORDERS[S]


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    orders = _orders(S, len(xs))
    nxt, done, inputs, outputs, total = [0] * S, set(), {}, {}, 0.0
    while any(nxt[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if nxt[k] == len(orders[k]):
                continue
            phase, i = orders[k][nxt[k]]
            if i >= len(xs):  # an order longer than this batch: nothing to run
                nxt[k] += 1
                done.add((phase, k, i))
                continue
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                inputs[k, i] = h
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    total = total + out.detach()
                outputs[k, i] = out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                out.backward() if k == S - 1 else out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            nxt[k] += 1
    return total


answer = one_f_one_b_step
