# expect: fail the micro-batches are cached in a module-level dict keyed by (x.shape, y.shape, M) "to avoid re-splitting": a later step with a new batch of the same shape trains on the first batch's rows (stale views of the old x and y), and the cache keeps those batches alive
# hint: cache|cached|stale|same shape|previous|earlier|first batch|between calls|state|module.level|global|new batch|old
import torch

_SPLITS = {}  # (x shape, y shape, M) -> micro-batches


def _orders(S, M):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        seq = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            seq += [("F", warm + j), ("B", j)]
        seq += [("B", j) for j in range(M - warm, M)]
        orders.append(seq)
    return orders


def _split(x, y, M):
    key = (tuple(x.shape), tuple(y.shape), M)
    if key not in _SPLITS:
        _SPLITS[key] = (torch.tensor_split(x, M), torch.tensor_split(y, M))
    return _SPLITS[key]


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = _split(x, y, M)
    orders = _orders(S, M)
    done, inputs, outputs, total = set(), {}, {}, 0.0
    while any(orders):
        for k in range(S):
            if not orders[k]:
                continue
            kind, i = orders[k][0]
            if kind == "F" and k > 0 and ("F", k - 1, i) not in done:
                continue
            if kind == "B" and k < S - 1 and ("B", k + 1, i) not in done:
                continue
            orders[k].pop(0)
            if kind == "F":
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((kind, k, i))
    return total


answer = one_f_one_b_step
