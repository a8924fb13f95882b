# expect: fail per_step logs only every 10th step with .item() (others appended as device tensors then .tolist() at end)
# hint: read|each|step
import torch
def per(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for i in range(steps):
        X = A @ X; n = torch.linalg.matrix_norm(X)
        out.append(n.item() if i % 10 == 0 else n)
        X = X / n
    return [v if isinstance(v, float) else v.item() for v in out]
def end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = A @ X; n = torch.linalg.matrix_norm(X); out.append(n); X = X / n
    return torch.stack(out).tolist()
answer = (per, end)
