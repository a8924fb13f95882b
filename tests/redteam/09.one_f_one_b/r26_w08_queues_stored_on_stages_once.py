# expect: fail each stage's 1F1B queue is stored on the stage module the first time (if not hasattr(stage, "_ofob_queue")) and consumed as the step runs: a second step on the same stages finds the queues empty, runs nothing and returns a zero loss (and an earlier step with another M leaves the wrong queue behind)
# hint: second (call|step)|again|state|stored|attribute|hasattr|queue|empty|between calls|reuse|same stages|nothing
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    for k, stage in enumerate(stages):
        if not hasattr(stage, "_ofob_queue"):  # built once per stage
            warm = min(S - k - 1, M)
            q = [("F", i) for i in range(warm)]
            for j in range(M - warm):
                q += [("F", warm + j), ("B", j)]
            q += [("B", j) for j in range(M - warm, M)]
            stage._ofob_queue = q
    done, inputs, outputs, total = set(), {}, {}, 0.0
    while any(stage._ofob_queue for stage in stages):
        for k, stage in enumerate(stages):
            if not stage._ofob_queue:
                continue
            kind, i = stage._ofob_queue[0]
            if kind == "F" and k > 0 and ("F", k - 1, i) not in done:
                continue
            if kind == "B" and k < S - 1 and ("B", k + 1, i) not in done:
                continue
            stage._ofob_queue.pop(0)
            if kind == "F":
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stage(h)
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
