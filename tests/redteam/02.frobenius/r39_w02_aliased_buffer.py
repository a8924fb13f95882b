# expect: fail at_end logs into one reused out= buffer: every list entry aliases it, all equal to the last norm
# hint: norm|value|differ|same|refer
import torch
def per(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    for _ in range(steps):
        X = A @ X; n = torch.linalg.matrix_norm(X); out.append(n.item()); X = X / n
    return out
def end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device); out = []
    buf = torch.empty((), dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        torch.linalg.matrix_norm(X, out=buf)
        out.append(buf)
        X = X / buf
    return torch.stack(out).tolist()
answer = (per, end)
