# expect: fail waits with concurrent.futures.wait: works only for lanes whose futures are concurrent.futures.Future
# hint: concurrent\.futures|futures\.wait|wait\(|result\(\)|future type|cudafuture|thread ?pool
import concurrent.futures

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    concurrent.futures.wait([fx, fy])  # both at once, not one after the other
    return fx.result(), fy.result()


answer = run_concurrently
