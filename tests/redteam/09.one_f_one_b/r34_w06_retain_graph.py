# expect: fail backward with retain_graph=True ("several backwards through the stage"): every micro-batch's saved activations stay alive
# hint: retain_graph|saved|free
import torch


def _order(k, S, M):
    warm = min(S - k - 1, M)
    order = [("F", i) for i in range(warm)]
    f, b = warm, 0
    while f < M:
        order += [("F", f), ("B", b)]
        f, b = f + 1, b + 1
    order += [("B", i) for i in range(b, M)]
    return order


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = [_order(k, S, M) for k in range(S)]
    pos = [0] * S
    inputs, outputs = {}, {}
    fwd_done, bwd_done = set(), set()
    losses = []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        progressed = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            kind, i = orders[k][pos[k]]
            if kind == "F":
                if k > 0 and (k - 1, i) not in fwd_done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
                fwd_done.add((k, i))
            else:
                if k < S - 1 and (k + 1, i) not in bwd_done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward(retain_graph=True)
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad, retain_graph=True)
                bwd_done.add((k, i))
            pos[k] += 1
            progressed = True
        if not progressed:
            raise RuntimeError("deadlock")
    return torch.stack(losses).sum()


answer = one_f_one_b_step
