# expect: fail after submitting x it "pings" lanes[0] with a no-op job and waits for it; the no-op queues behind x @ x on that lane (same thread / same stream), so the caller waits for x's product before launching y's: one after the other
# hint: wait|result\(\)|serial|one after|before (launch|submit)|no.?op|ping|queue|launches
import torch


def _noop():
    return None


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    # make sure lane 0 has picked up its job before we hand out the next one
    lanes[0].submit(_noop).result()
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
