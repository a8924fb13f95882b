# expect: fail logs the norm after dividing by it (every logged value is 1.0)
# hint: norm|value|differ|expected|1\.0
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        X = X / torch.linalg.matrix_norm(X)
        out.append(torch.linalg.matrix_norm(X).item())
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        X = X / torch.linalg.matrix_norm(X)
        log.append(torch.linalg.matrix_norm(X))
    return torch.stack(log).tolist()
answer = (per_step, at_end)
