# expect: fail launches both on the lanes and waits for them, but returns x @ x and y @ y computed again on the caller (current stream), not the lanes' results: twice the work, outside the lanes
# hint: lane|caller|current stream|recomput|again|twice|extra|launch|outside|not (the )?(lane|future)|result
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    fx.result()
    fy.result()  # both done
    return x @ x, y @ y


answer = run_concurrently
