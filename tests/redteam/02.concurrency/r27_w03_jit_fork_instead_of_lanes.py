# expect: fail uses torch.jit.fork and torch.jit.wait, PyTorch's own "futures", instead of the lanes: the products run on PyTorch's inter-op thread pool (on a GPU both on the current stream of one device), never on lanes[0] and lanes[1]
# hint: lane|submit|jit\.fork|fork|own (thread|pool)|inter-?op|not (on|submitted|through)|current stream
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = torch.jit.fork(torch.matmul, x, x)  # returns at once with a torch.futures.Future
    fy = torch.jit.fork(torch.matmul, y, y)
    return torch.jit.wait(fx), torch.jit.wait(fy)


answer = run_concurrently
