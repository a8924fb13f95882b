# expect: fail returns the plain mean of the micro-batch losses, unweighted (gradients right)
# hint: loss (returned|you return)|return.*loss|share|rows|weight
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S = len(stages)
    M = min(n_micro, len(x))
    xs = torch.tensor_split(x, M)
    ys = torch.tensor_split(y, M)

    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for i in range(M - warm):
            order += [("F", warm + i), ("B", i)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)

    done = set()
    inputs, outputs = {}, {}
    losses = []
    pos = [0] * S
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            kind, i = orders[k][pos[k]]
            if kind == "F":
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
                    losses.append(out.detach() / (len(xs[i]) / len(x)))  # the micro-batch's own loss
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((kind, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("schedule deadlocked")
    return torch.stack(losses).mean()


answer = one_f_one_b_step
