# expect: pass
# hint: 
import torch
def per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        n = torch.linalg.vector_norm(X)  # the Frobenius norm of a matrix
        norms.append(n.tolist())  # a 0-d tensor's tolist() is a Python float
        X.div_(n)
    return norms
def at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        n = torch.linalg.vector_norm(X)
        norms.append(n.reshape(1))
        X.div_(n)
    return torch.cat(norms).tolist()
answer = (per_step, at_end)
