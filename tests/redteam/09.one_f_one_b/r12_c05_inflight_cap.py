# expect: pass
# hint:
# name: one_f_one_b_step
from collections import deque

import torch


class _Stage:
    """One stage's bookkeeping: 1F1B as a cap of min(S - k, M) micro-batches in flight;
    a forward whenever the cap allows one, a backward otherwise."""

    def __init__(self, module, k, S, M):
        self.module, self.k, self.S, self.M = module, k, S, M
        self.cap = min(S - k, M)
        self.next_f = 0
        self.next_b = 0
        self.inputs = {}
        self.outputs = {}

    def finished(self):
        return self.next_b == self.M

    def wants_forward(self):
        return self.next_f < self.M and self.next_f - self.next_b < self.cap


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M, dim=0), torch.tensor_split(y, M, dim=0)
    pipe = [_Stage(m, k, S, M) for k, m in enumerate(stages)]
    losses = []
    turn = deque(range(S))
    idle = 0
    while not all(st.finished() for st in pipe):
        k = turn[0]
        turn.rotate(-1)
        st = pipe[k]
        if st.finished():
            continue
        moved = False
        if st.wants_forward():
            i = st.next_f
            prev = pipe[k - 1] if k else None
            if prev is None or prev.next_f > i:
                h = xs[i] if prev is None else prev.outputs[i].detach().requires_grad_()
                out = st.module(h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * xs[i].shape[0] / x.shape[0]
                st.inputs[i], st.outputs[i] = h, out
                st.next_f += 1
                moved = True
        else:
            i = st.next_b
            after = pipe[k + 1] if k < S - 1 else None
            if after is None or after.next_b > i:
                out = st.outputs.pop(i)
                if after is None:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(after.inputs.pop(i).grad)
                st.next_b += 1
                moved = True
        idle = 0 if moved else idle + 1
        if idle > S:
            raise RuntimeError("pipeline stuck")
    for st in pipe:
        st.inputs.clear()
    return sum(losses[1:], losses[0])
