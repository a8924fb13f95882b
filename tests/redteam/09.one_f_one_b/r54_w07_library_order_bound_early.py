# expect: fail takes d2lgpu.pipeline's one_f_one_b_order (imported by name, bound as a default argument) instead of writing the orders
# hint: d2lgpu|one_f_one_b_order|helper|your own|yourself|write the order
import torch
from d2lgpu.pipeline import one_f_one_b_order


def one_f_one_b_step(stages, x, y, loss_fn, n_micro, schedule=one_f_one_b_order):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = [list(order) for order in schedule(S, M)]  # one list of ("F"|"B", i) per stage
    pos = [0] * S
    done = set()
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
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
                    losses.append(out.detach())
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
    return torch.stack(losses).sum()


answer = one_f_one_b_step
