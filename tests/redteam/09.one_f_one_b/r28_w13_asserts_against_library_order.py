# expect: fail Checks its own orders against d2lgpu.pipeline.one_f_one_b_order with an assert inside the step: the orders, loss and gradients are right, but the step calls the library order helper the prompt says not to use (the checker watches them while the step runs).
# hint: (one_f_one_b_order|d2lgpu\.pipeline|library|helper|your own order|write the orders yourself)
# name: one_f_one_b_step
import torch
from d2lgpu.pipeline import one_f_one_b_order


def _orders(S, M):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    return orders


def _run(stages, orders, xs, ys, loss_fn, share):
    """Each stage its next action once what it needs is done; the weighted losses."""
    S = len(stages)
    pos, fwd, bwd = [0] * S, [0] * S, [0] * S
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and fwd[k - 1] <= i:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * share[i]
                inputs[k, i], outputs[k, i] = h, out
                fwd[k] += 1
            else:
                if k < S - 1 and bwd[k + 1] <= i:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
                bwd[k] += 1
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("schedule is stuck")
    return losses


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    N = len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(len(stages), M)
    assert orders == one_f_one_b_order(len(stages), M), "my 1F1B orders differ from the library"
    share = [len(part) / N for part in xs]
    return torch.stack(_run(stages, orders, xs, ys, loss_fn, share)).sum()
