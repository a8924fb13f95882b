# expect: fail backward index taken with pending.pop() (the newest micro-batch in flight, LIFO): right F/B letters and gradients, backwards out of micro-batch order
# hint: order|micro.?batch|0 first|in order|index|oldest|newest
import torch


def _order(S, k, M):
    """The letters of 1F1B; which micro-batch each backward takes is decided when it runs."""
    warm = min(S - k - 1, M)
    return ["F"] * warm + ["F", "B"] * (M - warm) + ["B"] * warm


def _indexed(letters):
    """Give each action its micro-batch: forwards in order, a backward the one in flight."""
    in_flight, n_forward, out = [], 0, []
    for a in letters:
        if a == "F":
            out.append(("F", n_forward))
            in_flight.append(n_forward)
            n_forward += 1
        else:
            out.append(("B", in_flight.pop()))
    return out


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = [_indexed(_order(S, k, M)) for k in range(S)]
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
