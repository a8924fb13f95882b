# expect: pass functools.partial of a generic launch-all-then-wait helper, returning a list
# hint:
import functools

import torch


def _launch_all_then_wait(op, x, y, lanes):
    """op(m, m) for m in (x, y), the i-th on lanes[i]: every submit first, every result after."""
    futures = [lane.submit(op, m, m) for lane, m in zip(lanes[:2], (x, y), strict=True)]
    return [f.result() for f in futures]


run_concurrently = functools.partial(_launch_all_then_wait, torch.matmul)

answer = run_concurrently
