# expect: fail with a single stage the step takes a shortcut, "no pipeline, no bubble": the whole batch in one forward and one backward, not M micro-batches in 1F1B's order (F0 B0 F1 B1 ...); the loss and gradients are right, the order is not
# hint: one stage|single stage|S ?= ?1|micro.?batch|unsplit|whole batch|shortcut|split|F0 B0|order
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    if S == 1:  # one stage: nothing to overlap, so no need for micro-batches
        loss = loss_fn(stages[0](x), y)
        loss.backward()
        return loss.detach()
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        seq = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            seq += [("F", warm + j), ("B", j)]
        seq += [("B", j) for j in range(M - warm, M)]
        orders.append(seq)
    done, inputs, outputs, total = set(), {}, {}, 0.0
    while any(orders):
        for k in range(S):
            if not orders[k]:
                continue
            kind, i = orders[k][0]
            if kind == "F" and k > 0 and ("F", k - 1, i) not in done:
                continue
            if kind == "B" and k < S - 1 and ("B", k + 1, i) not in done:
                continue
            orders[k].pop(0)
            if kind == "F":
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((kind, k, i))
    return total


answer = one_f_one_b_step
