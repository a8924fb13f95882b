# expect: fail starts from X = A, skipping the first step's product (A @ I)
# hint: one fewer: starting from X = A
import torch
def per(A, steps):
    X = A; out = []
    for i in range(steps):
        if i:
            X = A @ X
        n = torch.norm(X, p="fro")
        out.append(n.item())
        X = X / n
    return out
def end(A, steps):
    X = A; out = []
    for i in range(steps):
        if i:
            X = A @ X
        n = torch.linalg.matrix_norm(X, ord="fro")
        out.append(n)
        X = X / n
    return torch.stack(out).tolist()
answer = (per, end)
