# expect: pass
# hint:
# RIGHT: a callable class instance; each stage's 1F1B order written by hand, and a
# round-robin loop that gives each stage its next action once what it needs is done.
import torch

from d2lgpu.pipeline import micro_batches


class OneFOneBStep:
    """One 1F1B training step of stages[0], ..., stages[-1]; returns the batch's loss."""

    @staticmethod
    def orders(n_stages, n_micro):
        orders = []
        for k in range(n_stages):
            warm = min(n_stages - k - 1, n_micro)
            order = [("F", i) for i in range(warm)]
            for j in range(n_micro - warm):
                order += [("F", warm + j), ("B", j)]
            order += [("B", i) for i in range(n_micro - warm, n_micro)]
            orders.append(order)
        return orders

    def __call__(self, stages, x, y, loss_fn, n_micro):
        xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
        S, M = len(stages), len(xs)
        last = S - 1
        orders = self.orders(S, M)
        position = [0] * S
        done = set()
        inputs, outputs, losses = {}, {}, []
        while any(position[k] < len(orders[k]) for k in range(S)):
            moved = False
            for k in range(S):
                if position[k] == len(orders[k]):
                    continue
                phase, i = orders[k][position[k]]
                if phase == "F":
                    if k > 0 and ("F", k - 1, i) not in done:
                        continue  # the stage before has not sent micro-batch i yet
                    h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                    out = stages[k](h)
                    if k == last:
                        out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    if k > 0:
                        inputs[k, i] = h
                    outputs[k, i] = out
                else:
                    if k < last and ("B", k + 1, i) not in done:
                        continue  # no gradient from the stage after yet
                    out = outputs.pop((k, i))
                    if k == last:
                        out.backward()
                        losses.append(out.detach())
                    else:
                        out.backward(inputs.pop((k + 1, i)).grad)
                done.add((phase, k, i))
                position[k] += 1
                moved = True
            if not moved:
                raise RuntimeError("the orders wait on each other")
        return torch.stack(losses).sum()


answer = OneFOneBStep()
