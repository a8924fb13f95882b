# expect: fail each result checked against a recomputed x @ x and y @ y on the caller's stream: the work done twice, plus host reads
# hint: recomput|twice|again|verif|check(ing|ed)? (the )?result|allclose|extra (work|product|matmul)|host read|caller
# Wrong: "right before timed" moved into the function: assert_close recomputes both products on the
# caller's current stream (double the work) and reads the comparison back to the host every call.

import torch


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time, checked."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    torch.testing.assert_close(xx, x @ x, rtol=1e-4, atol=1e-3)
    torch.testing.assert_close(yy, y @ y, rtol=1e-4, atol=1e-3)
    return xx, yy
