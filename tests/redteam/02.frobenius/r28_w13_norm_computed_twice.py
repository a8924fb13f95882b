# expect: fail Both versions compute the Frobenius norm twice per step, once to log it and once more inside the division (X / torch.linalg.matrix_norm(X)), so each step launches an extra reduction over X: work the step does not need.
# hint: (twice|two norms|again|more than once|recomput|extra (norm|reduction|kernel)|same norm)
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        out.append(torch.linalg.matrix_norm(X).item())
        X = X / torch.linalg.matrix_norm(X)
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    kept = []
    for _ in range(steps):
        X = A @ X
        kept.append(torch.linalg.matrix_norm(X))
        X = X / torch.linalg.matrix_norm(X)
    return torch.stack(kept).tolist() if kept else []


answer = (log_norms_per_step, log_norms_at_end)
