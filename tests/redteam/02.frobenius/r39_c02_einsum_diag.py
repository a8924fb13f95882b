# expect: pass einsum products, X.pow(2).sum().sqrt(), torch.as_tensor identity via torch.diag(torch.ones_like(A[0]))
# hint: 
import torch
def _norm(X):
    return X.pow(2).sum().sqrt()
def per(A, steps):
    X = torch.diag(torch.ones_like(A[0])); out = []
    for _ in range(steps):
        X = torch.einsum("ij,jk->ik", A, X); n = _norm(X); out.append(n.item()); X = X / n
    return out
def end(A, steps):
    X = torch.diag(torch.ones_like(A[0])); out = []
    for _ in range(steps):
        X = torch.einsum("ij,jk->ik", A, X); n = _norm(X); out.append(n); X = X / n
    return torch.stack(out).tolist()
answer = (per, end)
