# expect: fail range(steps - 1): one norm short in both versions
# hint: steps|length|len|number of|count|how many|returned \d+ norms|one norm per step
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps - 1):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps - 1):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
