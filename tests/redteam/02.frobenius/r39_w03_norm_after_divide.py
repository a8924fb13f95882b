# expect: fail normalizes before taking the norm: logs 1.0 every step
# hint: norm|1|divide|after
import torch
def _run(A, steps, read):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = A @ X
        X = X / torch.linalg.matrix_norm(X)
        n = torch.linalg.matrix_norm(X)
        out.append(n.item() if read else n)
    return out if read else torch.stack(out).tolist()
answer = (lambda A, s: _run(A, s, True), lambda A, s: _run(A, s, False))
