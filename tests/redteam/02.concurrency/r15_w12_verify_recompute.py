# expect: fail checks each lane result against x @ x recomputed on the caller (products computed twice, allclose is a host read)
# hint: host read|\bread|transfer|\bsync|bool|allclose|twice|again|recomput|extra|more (product|matmul|kernel|work)|\bitem|count|caller|calling thread
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    # sanity check: the lanes must agree with a plain product
    assert torch.allclose(xx, x @ x, rtol=1e-4, atol=1e-3), "lane 0 returned a wrong product"
    assert torch.allclose(yy, y @ y, rtol=1e-4, atol=1e-3), "lane 1 returned a wrong product"
    return xx, yy


answer = run_concurrently
