# expect: fail computes the products in float16 "for speed" and casts back, so the values lose precision (and extra conversions run)
# hint: precision|half|float16|fp16|dtype|toleran|close|accura|value|differ|wrong result
import torch


def _square_fast(m):
    h = m.to(torch.float16)  # half precision: faster products
    return (h @ h).to(m.dtype)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square_fast, x)
    fy = lanes[1].submit(_square_fast, y)
    return fx.result(), fy.result()


answer = run_concurrently
