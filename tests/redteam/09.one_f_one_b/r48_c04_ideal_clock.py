# expect: pass own ideal-clock simulation gives a global order (sorted start times), actions then run one by one; loss returned as a float
# hint:
from d2lgpu.pipeline import micro_batches


def _orders(S, M):
    result = []
    for k in range(S):
        w = min(S - k - 1, M)
        forwards = [("F", i) for i in range(M)]
        backwards = [("B", i) for i in range(M)]
        order = forwards[:w]
        for f, b in zip(forwards[w:], backwards):
            order += [f, b]
        order += backwards[M - w:]
        result.append(order)
    return result


def _plan(orders):
    """Each action at the earliest tick its stage and its input allow; then by start, stage."""
    S = len(orders)
    end = {}
    free = [0] * S
    pos = [0] * S
    plan = []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            need = (k - 1, "F", i) if phase == "F" and k > 0 else None
            if phase == "B" and k < S - 1:
                need = (k + 1, "B", i)
            if need is not None and need not in end:
                continue
            start = max(free[k], end[need] if need else 0)
            end[k, phase, i] = free[k] = start + (1 if phase == "F" else 2)
            plan.append((start, k, phase, i))
            pos[k] += 1
    return sorted(plan)


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    inputs, outputs, loss = {}, {}, 0.0
    for _, k, phase, i in _plan(_orders(S, M)):
        if phase == "F":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == S - 1:
                out = loss_fn(out, ys[i]) * (len(ys[i]) / len(y))
                loss += float(out.detach())
            inputs[k, i], outputs[k, i] = h, out
        else:
            out = outputs.pop((k, i))
            out.backward(None if k == S - 1 else inputs.pop((k + 1, i)).grad)
    return loss


answer = one_f_one_b_step
