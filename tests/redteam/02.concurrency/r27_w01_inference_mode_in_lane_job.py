# expect: fail runs each product under torch.inference_mode() inside the lane's job "since nothing is trained here": the results are inference tensors, not what x @ x returns: the caller cannot update them in place outside inference mode or save them for backward, and with inputs that require grad the products carry no graph
# hint: inference(_mode| mode| tensor)|no_grad|grad(ient)?|autograd|requires_grad|in.?place|graph
import torch


def _square(m):
    with torch.inference_mode():  # a product for reading, no autograd bookkeeping
        return torch.matmul(m, m)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
