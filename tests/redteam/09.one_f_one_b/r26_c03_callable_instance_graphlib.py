# expect: pass the answer is an INSTANCE of a class with __call__ (no state kept between calls); the global order comes from graphlib.TopologicalSorter over each stage's 1F1B chain plus the cross-stage dependencies (F of i after the stage before's F of i, B of i after the stage after's B of i)
# hint: 
import graphlib

import torch


class OneFOneBStep:
    """Callable: one 1F1B training step of the stages."""

    @staticmethod
    def stage_order(S, M, k):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        return order + [("B", j) for j in range(M - warm, M)]

    def __call__(self, stages, x, y, loss_fn, n_micro):
        S, M = len(stages), min(n_micro, len(x))
        xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
        graph = graphlib.TopologicalSorter()
        for k in range(S):
            previous = None
            for kind, i in self.stage_order(S, M, k):
                needs = [] if previous is None else [previous]
                if kind == "F" and k > 0:
                    needs.append((k - 1, "F", i))
                if kind == "B" and k < S - 1:
                    needs.append((k + 1, "B", i))
                graph.add((k, kind, i), *needs)
                previous = (k, kind, i)
        cut, outs, total = {}, {}, 0.0
        for k, kind, i in graph.static_order():
            if kind == "F":
                h = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                cut[k, i], outs[k, i] = h, out
            else:
                out = outs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(cut.pop((k + 1, i)).grad)
        return total


answer = OneFOneBStep()
