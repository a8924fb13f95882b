# expect: pass per_step transfers with n.tolist() (a 0-d tensor's tolist() is a Python float); at_end via a list of 0-d tensors and torch.hstack
# hint: 
import torch
def per(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = A @ X; n = torch.linalg.matrix_norm(X); out.append(n.tolist()); X = X / n
    return out
def end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = A @ X; n = torch.linalg.matrix_norm(X); out.append(n); X = X / n
    return torch.hstack(out).tolist()
answer = (per, end)
