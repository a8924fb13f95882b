# expect: fail when both lanes report the same device (two CUDA streams of one GPU), runs the products in sequence on lanes[0], from the chapter's "a large product fills every SM": the exercise asks for both in flight on lanes[0] and lanes[1] whatever the lanes are, and small products do overlap on two streams; lanes without a device attribute (thread pools) run concurrently
# hint: (one|same|single|first) lane|lanes\[0\]|same device|stream|in sequence|sequential|one after|serial|device
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    first, second = (getattr(lane, "device", None) for lane in lanes[:2])
    if first is not None and first == second:
        # two streams of one GPU: the second product would only wait for SMs
        return lanes[0].submit(torch.matmul, x, x).result(), lanes[0].submit(torch.matmul, y, y).result()
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
