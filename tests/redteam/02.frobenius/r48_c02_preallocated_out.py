# expect: pass preallocated buffers with out= (ping-pong X, norms written into a device log), one .cpu() then .tolist()
# hint:
import torch


def _loop(A, steps, on_norm):
    n = A.shape[0]
    X = torch.eye(n, device=A.device, dtype=A.dtype)
    Y = torch.empty_like(X)
    log = torch.empty(steps, device=A.device, dtype=A.dtype)
    for i in range(steps):
        torch.matmul(A, X, out=Y)  # Y = A @ X
        torch.linalg.matrix_norm(Y, out=log[i])  # written straight into the log, on the device
        on_norm(log[i])
        torch.div(Y, log[i], out=X)  # X = Y / norm
    return log


def log_norms_per_step(A, steps):
    norms = []
    _loop(A, steps, lambda norm: norms.append(float(norm)))
    return norms


def log_norms_at_end(A, steps):
    log = _loop(A, steps, lambda norm: None)
    return log.cpu().tolist()  # one copy to the host, then a read of a host tensor


answer = (log_norms_per_step, log_norms_at_end)
