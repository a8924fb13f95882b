# expect: fail calls future.exception() on the first future before launching the second "to fail fast": exception() waits for the first product, so the two run one after the other
# hint: exception|wait(s|ed|ing)? for the first|before launching|one after the other|sequen|serial
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    if hasattr(fx, "exception") and fx.exception() is not None:  # fail fast
        raise fx.exception()
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
