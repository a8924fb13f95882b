# expect: pass
# hint:
# Right: no_grad decorator (restores itself), two ping-pong buffers filled with
# torch.matmul(out=) and divided in place; fresh buffers every call, nothing kept between calls.
import torch


@torch.no_grad()
def _norms(A, steps, read_each):
    n = A.shape[0]
    X = torch.eye(n, dtype=A.dtype, device=A.device)
    Y = torch.empty_like(X)
    log = []
    for _ in range(steps):
        torch.matmul(A, X, out=Y)  # Y = A @ X
        norm = torch.linalg.matrix_norm(Y)
        log.append(norm.item() if read_each else norm)  # a new 0-d tensor each step
        Y.div_(norm)
        X, Y = Y, X
    return log if read_each else torch.stack(log).tolist()


def log_norms_per_step(A, steps):
    return _norms(A, steps, True)


def log_norms_at_end(A, steps):
    return _norms(A, steps, False)


answer = (log_norms_per_step, log_norms_at_end)
