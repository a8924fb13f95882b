# expect: pass
# hint:
# name: one_f_one_b_step
import torch


class _Stage:
    """One stage: its module, its 1F1B order, and what it holds between F and B."""

    def __init__(self, module, k, S, M):
        warm = min(S - k - 1, M)
        steady = [a for j in range(M - warm) for a in (("F", warm + j), ("B", j))]
        self.order = [("F", i) for i in range(warm)] + steady
        self.order += [("B", i) for i in range(M - warm, M)]
        self.module, self.k, self.at = module, k, 0
        self.forwards = self.backwards = 0
        self.inputs, self.outputs = {}, {}  # held between a micro-batch's F and B

    def next(self):
        return self.order[self.at] if self.at < len(self.order) else None


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    pipe = [_Stage(m, k, S, M) for k, m in enumerate(stages)]
    losses = []
    while any(st.next() for st in pipe):
        ran = 0
        for st in pipe:
            action = st.next()
            if action is None:
                continue
            phase, i = action
            k = st.k
            if phase == "F":
                if k and pipe[k - 1].forwards <= i:
                    continue
                h = xs[i] if k == 0 else pipe[k - 1].outputs[i].detach().requires_grad_()
                out = st.module(h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(ys[i]) / N)
                st.inputs[i], st.outputs[i] = h, out
                st.forwards += 1
            else:
                if k < S - 1 and pipe[k + 1].backwards <= i:
                    continue
                out = st.outputs.pop(i)
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(pipe[k + 1].inputs.pop(i).grad)
                st.backwards += 1
            st.at += 1
            ran += 1
        if not ran:
            raise RuntimeError("1F1B schedule cannot make progress")
    return sum(losses[1:], losses[0])
