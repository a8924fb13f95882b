# expect: pass
# hint:
# name: one_f_one_b_step
import torch


def _actions(S, M, k):
    """Stage k's 1F1B order, generated lazily."""
    warm = min(S - k - 1, M)
    yield from (("F", i) for i in range(warm))
    for j in range(M - warm):
        yield ("F", warm + j)
        yield ("B", j)
    yield from (("B", i) for i in range(M - warm, M))


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """The gradient sent back is caught by a hook on the receiving stage's input (the same
    tensor its .grad would hold), then handed to the stage before."""
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    queues = [_actions(S, M, k) for k in range(S)]
    nxt = [next(q, None) for q in queues]
    fwd_done, bwd_done = [0] * S, [0] * S
    outs, grads, losses = {}, {}, []

    def catch(key):
        return lambda g: grads.__setitem__(key, g)

    while any(a is not None for a in nxt):
        progressed = False
        for k, action in enumerate(nxt):
            if action is None:
                continue
            phase, i = action
            if phase == "F" and k > 0 and fwd_done[k - 1] <= i:
                continue
            if phase == "B" and k < S - 1 and bwd_done[k + 1] <= i:
                continue
            if phase == "F":
                if k == 0:
                    h = xs[i]
                else:
                    h = outs[k - 1, i].detach().requires_grad_()
                    h.register_hook(catch((k, i)))
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / N)
                outs[k, i] = out
                fwd_done[k] += 1
            else:
                out = outs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(grads.pop((k + 1, i)))
                bwd_done[k] += 1
            nxt[k] = next(queues[k], None)
            progressed = True
        if not progressed:
            raise RuntimeError("stuck")
    return torch.stack(losses).sum()
