# expect: pass (relabelled: the prompt allows it) after launching both, waits with torch.cuda.synchronize() for the whole device(s)
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    # both launched: now wait until the GPUs are done
    for t in (x, y):
        if t.is_cuda:
            torch.cuda.synchronize(t.device)
    return fx.result(), fy.result()


answer = run_concurrently
