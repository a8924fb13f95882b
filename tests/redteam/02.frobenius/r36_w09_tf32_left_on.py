# expect: fail turns on TF32 matmuls (a process-wide torch.backends flag) for speed and never puts it back
# hint: tf32|backends|allow_tf32|setting|put back|restore|changed|process
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    torch.backends.cuda.matmul.allow_tf32 = True  # the prompt allows TF32 products: use them
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
