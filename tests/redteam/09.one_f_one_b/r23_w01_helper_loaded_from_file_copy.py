# expect: fail takes one_f_one_b_order anyway, from a second copy of d2lgpu/pipeline.py loaded with importlib under another module name, so the d2lgpu.pipeline the checker watches is never called: the forbidden helper by another path
# hint: one_f_one_b_order|helper|d2lgpu\.pipeline|yourself|own order|importlib|copy|library
import importlib.util
import sys

import torch

import d2lgpu

# a private copy of the course's pipeline module, under a name of its own
_name = "d2lgpu._pipeline_orders"
_spec = importlib.util.spec_from_file_location(_name, d2lgpu.__path__[0] + "/pipeline.py")
_orders_module = importlib.util.module_from_spec(_spec)
sys.modules[_name] = _orders_module  # dataclasses look their module up there
_spec.loader.exec_module(_orders_module)


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = [list(o) for o in _orders_module.one_f_one_b_order(S, M)]
    inp, out, done = {}, {}, set()
    total = 0.0
    while any(orders):
        for k in range(S):
            if not orders[k]:
                continue
            kind, i = orders[k][0]
            need = ("F", k - 1, i) if kind == "F" else ("B", k + 1, i)
            if kind == "F" and k > 0 and need not in done or kind == "B" and k < S - 1 and need not in done:
                continue
            orders[k].pop(0)
            if kind == "F":
                h = xs[i] if k == 0 else out[k - 1, i].detach().requires_grad_()
                o = stages[k](h)
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * (len(xs[i]) / len(x))
                inp[k, i], out[k, i] = h, o
            else:
                o = out.pop((k, i))
                if k == S - 1:
                    o.backward()
                    total = total + o.detach()
                else:
                    o.backward(inp.pop((k + 1, i)).grad)
            done.add((kind, k, i))
    return total


answer = one_f_one_b_step
