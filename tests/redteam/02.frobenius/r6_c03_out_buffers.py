# expect: pass
# hint:
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    Y = torch.empty_like(X)
    out = []
    for _ in range(steps):
        torch.matmul(A, X, out=Y)
        norm = torch.linalg.vector_norm(Y)
        out.append(norm.item())
        torch.div(Y, norm, out=X)
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    Y = torch.empty_like(X)
    log = torch.zeros(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        torch.matmul(A, X, out=Y)
        torch.linalg.vector_norm(Y, out=log[i])
        torch.div(Y, log[i], out=X)
    return log.tolist()
answer = (per_step, at_end)
