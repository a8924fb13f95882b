# expect: fail After collecting the results it re-computes x @ x and y @ y in the caller to assert they match, doubling the work of every call (and serializing that half) for a check the caller did not ask for.
# hint: extra|twice|again|product|matmul|caller|work
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    torch.testing.assert_close(xx, x @ x)  # sanity check
    torch.testing.assert_close(yy, y @ y)
    return xx, yy
