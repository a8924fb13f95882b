# expect: pass a class per step holding a generator per stage that yields its actions; micro-batches gathered with index_select (copies); warm-up written max(0, min(S - 1 - k, M)); the loss returned as a Python float
# hint: 
import torch


class OneFOneB:
    def __init__(self, stages, x, y, loss_fn, n_micro):
        self.stages, self.loss_fn, self.n = list(stages), loss_fn, x.shape[0]
        groups = torch.arange(self.n).tensor_split(min(n_micro, self.n))
        self.xs = [x.index_select(0, g) for g in groups]
        self.ys = [y.index_select(0, g) for g in groups]
        self.S, self.M = len(self.stages), len(groups)
        self.fwd = [0] * self.S  # forwards done by each stage
        self.bwd = [0] * self.S  # backwards done by each stage
        self.inp, self.out, self.loss = {}, {}, 0.0

    def actions(self, k):
        w = max(0, min(self.S - 1 - k, self.M))
        yield from (("F", i) for i in range(w))
        for i in range(self.M - w):
            yield "F", w + i
            yield "B", i
        yield from (("B", i) for i in range(self.M - w, self.M))

    def can(self, k, kind, i):
        if kind == "F":
            return k == 0 or self.fwd[k - 1] > i
        return k == self.S - 1 or self.bwd[k + 1] > i

    def do(self, k, kind, i):
        last = k == self.S - 1
        if kind == "F":
            a = self.xs[i] if k == 0 else self.out[k - 1, i].detach().requires_grad_()
            b = self.stages[k](a)
            if last:
                b = self.loss_fn(b, self.ys[i]) * (len(self.xs[i]) / self.n)
            self.inp[k, i], self.out[k, i] = a, b
            self.fwd[k] += 1
        else:
            b = self.out.pop((k, i))
            b.backward(None if last else self.inp.pop((k + 1, i)).grad)
            if last:
                self.loss += float(b.detach())
            self.bwd[k] += 1

    def run(self):
        gens = [self.actions(k) for k in range(self.S)]
        pending = [next(g, None) for g in gens]
        while any(a is not None for a in pending):
            for k in range(self.S - 1, -1, -1):
                if pending[k] is not None and self.can(k, *pending[k]):
                    self.do(k, *pending[k])
                    pending[k] = next(gens[k], None)
        return self.loss


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    return OneFOneB(stages, x, y, loss_fn, n_micro).run()


answer = one_f_one_b_step
