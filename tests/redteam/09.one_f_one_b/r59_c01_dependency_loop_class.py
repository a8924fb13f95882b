# expect: pass a callable class whose __call__ builds each stage's 1F1B order with deques and runs a ready-action loop over the stages
# hint:
from collections import deque

import torch


class OneFOneBStep:
    """One 1F1B step: each stage's order written by hand, then a loop that runs any ready action."""

    @staticmethod
    def stage_order(k, n_stages, n_micro):
        warm = min(n_stages - k - 1, n_micro)
        forwards = deque(range(n_micro))
        backwards = deque(range(n_micro))
        order = [("F", forwards.popleft()) for _ in range(warm)]
        while forwards:
            order.append(("F", forwards.popleft()))
            order.append(("B", backwards.popleft()))
        order.extend(("B", i) for i in backwards)
        return deque(order)

    def __call__(self, stages, x, y, loss_fn, n_micro):
        n_stages = len(stages)
        xs = torch.tensor_split(x, min(n_micro, len(x)))
        ys = torch.tensor_split(y, len(xs))
        m = len(xs)
        todo = [self.stage_order(k, n_stages, m) for k in range(n_stages)]
        done = set()
        received, sent = {}, {}  # stage k's input of i; stage k's output (or weighted loss) of i
        losses = []
        while any(todo):
            moved = False
            for k in range(n_stages):
                if not todo[k]:
                    continue
                action, i = todo[k][0]
                if action == "F":
                    if k > 0 and ("F", k - 1, i) not in done:
                        continue
                    h = xs[i] if k == 0 else sent[k - 1, i].detach().requires_grad_()
                    out = stages[k](h)
                    if k == n_stages - 1:
                        out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    received[k, i], sent[k, i] = h, out
                else:
                    if k < n_stages - 1 and ("B", k + 1, i) not in done:
                        continue
                    out = sent.pop((k, i))
                    if k == n_stages - 1:
                        out.backward()
                        losses.append(out.detach())
                    else:
                        out.backward(received.pop((k + 1, i)).grad)
                done.add((action, k, i))
                todo[k].popleft()
                moved = True
            if not moved:
                raise RuntimeError("the stages' orders cannot run")
        return torch.stack(losses).sum()


one_f_one_b_step = OneFOneBStep()
answer = one_f_one_b_step
