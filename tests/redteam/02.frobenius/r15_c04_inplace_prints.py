# expect: pass in-place division on a private X, a progress print of Python ints and floats only, torch.cat log
# hint: 
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for step in range(steps):
        X = A @ X  # a new tensor each step: the in-place division below never touches A
        norm = torch.linalg.matrix_norm(X, ord="fro")
        norms.append(norm.item())
        X.div_(norm)
    if norms:
        print(f"per step: {len(norms)} norms, last {norms[-1]:.4g}")
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    pieces = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, ord="fro", keepdim=True)  # shape (1, 1)
        pieces.append(norm.reshape(1))
        X.div_(norm)
    values = torch.cat(pieces).tolist() if pieces else []
    print(f"at end: {steps} steps, {len(values)} norms")  # Python values only: no extra read
    return values


answer = (log_norms_per_step, log_norms_at_end)
