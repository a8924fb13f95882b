# expect: fail believes Python's GIL keeps two CPU threads from multiplying at once, so for CPU tensors it computes both products in the caller, one after the other, and uses the lanes only for GPU tensors: PyTorch releases the GIL inside its operations, and the exercise asks for lanes[0] and lanes[1] on any device
# hint: caller|gil|lane|submit|in sequence|sequential|one after|cpu|not (on|submitted)
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    if x.device.type == "cpu" and y.device.type == "cpu":
        # threads cannot multiply at once under the GIL: spare the hand-off
        return torch.matmul(x, x), torch.matmul(y, y)
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
