# expect: fail log_norms_at_end ends with a sanity check and a summary line (assert all finite, then print the first, last and largest norm): with the final .tolist() that is five host reads per call, over the 3 allowed, and the print is output the prompt does not ask for.
# hint: (print|summary|assert|isfinite|more than (3|three)|at most (3|three)|too many (reads|transfers|host)|host reads?|sync|read device data on the host|\d+ times)
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    if steps:
        assert torch.isfinite(log).all(), "a norm overflowed"
        print(f"{steps} steps: first {log[0]:.4g}, last {log[-1]:.4g}, largest {log.max():.4g}")
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
