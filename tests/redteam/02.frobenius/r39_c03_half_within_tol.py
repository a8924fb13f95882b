# expect: pass float16 products with float32 norms (measured within the stated 1e-3 relative tolerance, so not a real mistake per the prompt)
# hint: 1e-3|relative|precision|reference|norm
import torch
def per(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = A @ X; n = torch.linalg.matrix_norm(X); out.append(n.item()); X = X / n
    return out
def end(A, steps):
    X = torch.eye(A.shape[0], dtype=torch.float16, device=A.device); Ah = A.half(); out = []
    for _ in range(steps):
        X = Ah @ X; n = torch.linalg.matrix_norm(X.float()); out.append(n); X = (X / n).half()
    return torch.stack(out).tolist()
answer = (per, end)
