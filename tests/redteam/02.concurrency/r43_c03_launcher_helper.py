# expect: pass A small helper launches a batch of (lane, fn, args) jobs, all before any wait; the bound method Tensor.matmul is the work, and the results come back as a tuple.
# hint: 
# name: run_concurrently
import torch


def _launch_all(jobs):
    """Submit every (lane, fn, args) job before waiting for any; return the futures."""
    return [lane.submit(fn, *args) for lane, fn, args in jobs]


def _gather(futures):
    return tuple(f.result() for f in futures)


def run_concurrently(x, y, lanes):
    jobs = [
        (lanes[0], torch.Tensor.matmul, (x, x)),
        (lanes[1], torch.Tensor.matmul, (y, y)),
    ]
    return _gather(_launch_all(jobs))
