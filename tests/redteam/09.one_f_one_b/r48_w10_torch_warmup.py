# expect: fail warm-up of min(S - k, M) forwards (torch's Schedule1F1B count) instead of min(S - k - 1, M): one too many
# hint: warm.?up|too long|one (more|too many)|S - k - 1
from d2lgpu.pipeline import micro_batches


def _order(S, M, k):
    warm = min(S - k, M)  # as Schedule1F1B counts it
    order = [("F", i) for i in range(warm)]
    for i in range(M - warm):
        order += [("F", warm + i), ("B", i)]
    order += [("B", i) for i in range(M - warm, M)]
    return order


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    orders = [_order(S, M, k) for k in range(S)]
    nxt = [0] * S
    done = set()
    inputs, outputs = {}, {}
    total = 0.0
    while any(nxt[k] < len(orders[k]) for k in range(S)):
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
                if k == S - 1:
                    out.backward()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            nxt[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("the orders deadlock")
    return total


answer = one_f_one_b_step
