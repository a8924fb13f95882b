# expect: fail With a single micro-batch (n_micro == 1, or a one-row batch) it takes a shortcut: the stages run as one model and one loss.backward() does all the backwards, so the graph is not cut between the stages (no stage gets h.detach().requires_grad_(), no stage runs out.backward(grad)); each stage's F-then-B order and the values look the same, only the M == 1 case breaks the rule.
# hint: (cut|detach|requires_grad_|single micro-batch|one micro-batch|M == 1|n_micro == 1|shortcut|between (the )?stages)
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
    if M == 1:  # nothing to pipeline: one forward and one backward of the whole stack
        h = x
        for stage in stages:
            h = stage(h)
        loss = loss_fn(h, y)
        loss.backward()
        return loss.detach()
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    share = [len(part) / N for part in xs]
    losses = _run(stages, _orders(len(stages), M), xs, ys, loss_fn, share)
    return torch.stack(losses).sum()
