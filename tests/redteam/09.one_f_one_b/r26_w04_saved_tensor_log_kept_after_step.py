# expect: fail a saved_tensors_hooks pack hook logs every tensor autograd saves into a module-level list (to report the bytes saved per stage), cleared only at the start of the next step: the graphs are freed by each backward, but the list keeps every micro-batch's activations alive through the whole step and after it, as GPipe would hold them
# hint: saved|saved_tensors_hooks|pack|keep|kept|alive|hold|free|memory|list|log|after the step|activations
import torch

_SAVED = []  # (stage, tensor) of the last step, for a memory report


def _orders(S, M):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        seq = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            seq += [("F", warm + j), ("B", j)]
        seq += [("B", j) for j in range(M - warm, M)]
        orders.append(seq)
    return orders


def saved_bytes_by_stage():
    """Bytes each stage saved for backward during the last step (each storage once)."""
    seen, per_stage = set(), {}
    for k, t in _SAVED:
        key = t.untyped_storage().data_ptr()
        if key not in seen:
            seen.add(key)
            per_stage[k] = per_stage.get(k, 0) + t.untyped_storage().nbytes()
    return per_stage


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    _SAVED.clear()
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(S, M)
    done, inputs, outputs, total = set(), {}, {}, 0.0
    while any(orders):
        for k in range(S):
            if not orders[k]:
                continue
            kind, i = orders[k][0]
            if kind == "F" and k > 0 and ("F", k - 1, i) not in done:
                continue
            if kind == "B" and k < S - 1 and ("B", k + 1, i) not in done:
                continue
            orders[k].pop(0)
            if kind == "F":
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()

                def pack(t, k=k):
                    _SAVED.append((k, t))
                    return t

                with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                    out = stages[k](h)
                    if k == S - 1:
                        out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((kind, k, i))
    return total


answer = one_f_one_b_step
