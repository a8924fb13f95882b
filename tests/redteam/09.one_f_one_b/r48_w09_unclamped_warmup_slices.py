# expect: fail warm-up S-k-1 not capped by M, orders cut with slices: with fewer micro-batches than S-k-1 the cool-down drops backwards
# hint: warm.?up|backward|missing|fewer|too (long|short)|min\(|order
from d2lgpu.pipeline import micro_batches


def _order(S, M, k):
    warm = S - k - 1
    mbs = list(range(M))
    order = [("F", i) for i in mbs[:warm]]  # a slice: never more forwards than micro-batches
    for f, b in zip(mbs[warm:], mbs):
        order += [("F", f), ("B", b)]
    order += [("B", i) for i in mbs[M - warm:]]
    return order


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    orders = [_order(S, M, k) for k in range(S)]
    nxt, done, inputs, outputs, total = [0] * S, set(), {}, {}, 0.0
    stuck = 0
    while any(nxt[k] < len(orders[k]) for k in range(S)) and stuck < 2:
        moved = False
        for k in range(S):
            if nxt[k] == len(orders[k]):
                continue
            phase, i = orders[k][nxt[k]]
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
            moved = True
        stuck = 0 if moved else stuck + 1
    return total


answer = one_f_one_b_step
