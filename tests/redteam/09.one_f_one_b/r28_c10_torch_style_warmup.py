# expect: pass
# hint:
# name: one_f_one_b_step
import torch


def _orders(S, M):
    """As torch's Schedule1F1B counts it: min(S - k, M) forwards first, then a backward and
    a forward in turn, then the last backwards; the same per-stage order as
    min(S - k - 1, M) warm-up forwards followed by forward-backward pairs."""
    orders = []
    for k in range(S):
        first = min(S - k, M)
        order = [("F", i) for i in range(first)]
        for j in range(M - first):
            order += [("B", j), ("F", first + j)]
        order += [("B", i) for i in range(M - first, M)]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    todo = [list(reversed(order)) for order in _orders(S, M)]  # pop() from the end
    finished = set()
    recv, outs, total = {}, {}, []
    while any(todo):
        for k in reversed(range(S)):  # later stages first: backwards get priority
            if not todo[k]:
                continue
            phase, i = todo[k][-1]
            need = (phase, k - 1, i) if phase == "F" else (phase, k + 1, i)
            if 0 <= need[1] < S and need not in finished:
                continue
            todo[k].pop()
            if phase == "F":
                inp = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
                out = stages[k](inp)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (xs[i].shape[0] / N)
                recv[k, i], outs[k, i] = inp, out
            elif k == S - 1:
                loss = outs.pop((k, i))
                loss.backward()
                total.append(loss.detach())
            else:
                outs.pop((k, i)).backward(recv.pop((k + 1, i)).grad)
            finished.add((phase, k, i))
            break  # one action, then look again from the last stage
        else:
            raise RuntimeError("no stage can move")
    return torch.stack(total).sum()
