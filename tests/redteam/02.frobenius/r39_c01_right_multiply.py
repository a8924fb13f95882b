# expect: pass X = X @ A instead of A @ X: from the identity both give A^k (powers of A commute), so the same norms
# hint: 
import torch
def per(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = X @ A; n = torch.linalg.matrix_norm(X); out.append(n.item()); X = X / n
    return out
def end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = X @ A; n = torch.linalg.matrix_norm(X); out.append(n); X = X / n
    return torch.stack(out).tolist()
answer = (per, end)
