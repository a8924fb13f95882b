# expect: fail Stashes a clone of every gradient already in .grad, zeroes them, runs the step, then adds the stash back: the sums are right, but the step zeroes the gradients the prompt says to leave alone and holds a full extra copy of all the stages' gradients while it runs.
# hint: (zero|stash|clone|copy of (the|every|all)|extra (copy|memory)|already in|leave (them )?alone)
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
    params = [p for stage in stages for p in stage.parameters()]
    before = [None if p.grad is None else p.grad.clone() for p in params]
    for stage in stages:
        stage.zero_grad()  # this step's gradients alone, for a clean check
    N = len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    share = [len(part) / N for part in xs]
    losses = _run(stages, _orders(len(stages), M), xs, ys, loss_fn, share)
    with torch.no_grad():
        for p, old in zip(params, before):
            if old is not None:
                p.grad = old if p.grad is None else p.grad + old
    return torch.stack(losses).sum()
