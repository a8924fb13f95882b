# expect: fail takes d2lgpu.pipeline.one_f_one_b_order's orders, precomputed at import time so the step never calls it
# hint: d2lgpu|one_f_one_b_order|helper|your own|yourself|library
import torch
from d2lgpu.pipeline import one_f_one_b_order


# Every order a step can need, computed once when the module loads: the step itself calls
# nothing from d2lgpu.pipeline.
_ORDERS = {(S, M): one_f_one_b_order(S, M) for S in range(1, 9) for M in range(1, 65)}


def _order(S, k, M):
    return _ORDERS[S, M][k]


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = [_order(S, k, M) for k in range(S)]
    pos = [0] * S
    done = set()
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        before = sum(pos)
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
        if sum(pos) == before:
            raise RuntimeError("deadlock: no stage can run its next action")
    return torch.stack(losses).sum()


answer = one_f_one_b_step
