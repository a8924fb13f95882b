# expect: pass each stage a generator of its actions (in-flight limit rule), cached orders, a driver scanning stages last to first
# hint:
import functools

import torch


def _stage_actions(S, M, k):
    """1F1B for stage k: forward while fewer than warm-up + 1 micro-batches are in flight."""
    limit = min(S - k - 1, M) + 1
    f = b = 0
    while b < M:
        if f < M and f - b < limit:
            yield "F", f
            f += 1
        else:
            yield "B", b
            b += 1


@functools.lru_cache(maxsize=None)
def _orders(S, M):
    return tuple(tuple(_stage_actions(S, M, k)) for k in range(S))


class OneFOneB:
    def __init__(self, stages, loss_fn):
        self.stages, self.loss_fn = stages, loss_fn

    def step(self, x, y, n_micro):
        S = len(self.stages)
        M = min(n_micro, len(x))
        xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
        orders = _orders(S, M)
        position = [0] * S
        forwarded = [0] * S  # micro-batches whose forward stage k has run (in order)
        backwarded = [0] * S
        received, produced = {}, {}
        losses = []
        while position != [len(o) for o in orders]:
            for k in reversed(range(S)):
                if position[k] == len(orders[k]):
                    continue
                phase, i = orders[k][position[k]]
                if phase == "F":
                    if k and forwarded[k - 1] <= i:
                        continue
                    h = xs[i] if k == 0 else produced[k - 1, i].detach().requires_grad_()
                    received[k, i] = h
                    out = self.stages[k](h)
                    if k == S - 1:
                        out = self.loss_fn(out, ys[i]) * (xs[i].shape[0] / x.shape[0])
                        losses.append(out.detach())
                    produced[k, i] = out
                    forwarded[k] += 1
                else:
                    if k < S - 1 and backwarded[k + 1] <= i:
                        continue
                    out = produced.pop((k, i))
                    if k == S - 1:
                        out.backward()
                    else:
                        out.backward(received.pop((k + 1, i)).grad)
                    backwarded[k] += 1
                position[k] += 1
        return torch.stack(losses).sum()


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    return OneFOneB(stages, loss_fn).step(x, y, n_micro)


answer = one_f_one_b_step
