# expect: fail Backpropagates each micro-batch's loss times its row count, then divides every stage's whole .grad by len(x) at the end: right from zero gradients, but the gradients already in .grad before the step are divided by len(x) too.
# hint: (already in|existing|pre-?existing|accumulat|add to|before the step|divid|rescal|\.grad.*(scal|shrunk))
# name: one_f_one_b_step
import torch


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


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders, pos = _orders(S, M), [0] * S
    fwd, bwd = [0] * S, [0] * S
    inputs, outputs, sums = {}, {}, []
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
                if k == S - 1:  # the micro-batch's sum over its rows
                    out = loss_fn(out, ys[i]) * len(xs[i])
                inputs[k, i], outputs[k, i] = h, out
                fwd[k] += 1
            else:
                if k < S - 1 and bwd[k + 1] <= i:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    sums.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
                bwd[k] += 1
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("schedule is stuck")
    with torch.no_grad():  # sums over rows back to means
        for stage in stages:
            for p in stage.parameters():
                if p.grad is not None:
                    p.grad.div_(N)
    return torch.stack(sums).sum() / N
