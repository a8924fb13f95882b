# expect: fail whole loop in float16 (A.half()) to be fast; norms rounded to fp16 and products accumulate rounding
# hint: precision|half|float16|dtype|float32
import torch

def log_norms_per_step(A, steps):
    A16 = A.half()
    X = torch.eye(A.shape[0], dtype=torch.float16, device=A.device)
    out = []
    for _ in range(steps):
        X = A16 @ X
        norm = torch.linalg.matrix_norm(X.float())
        out.append(norm.item())
        X = X / norm.half()
    return out


def log_norms_at_end(A, steps):
    A16 = A.half()
    X = torch.eye(A.shape[0], dtype=torch.float16, device=A.device)
    log = []
    for _ in range(steps):
        X = A16 @ X
        norm = torch.linalg.matrix_norm(X.float())
        log.append(norm)
        X = X / norm.half()
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
