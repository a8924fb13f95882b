# expect: pass both launched, then both waited for; a fallback for a lane that raises, which no lane of the prompt does (the prompt says nothing of errors; judged wrong by its writer)
# hint:
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    try:
        xx = fx.result()
    except Exception:
        xx = x @ x  # fall back to doing it here
    try:
        yy = fy.result()
    except Exception:
        yy = y @ y
    return xx, yy


answer = run_concurrently
