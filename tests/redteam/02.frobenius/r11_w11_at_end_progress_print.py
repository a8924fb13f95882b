# expect: fail log_norms_at_end prints the norm with an f-string every 10 steps for progress: host reads inside the loop
# hint: print|f-?string|format|progress|host reads?|(reads?|sync\w*|transfers?).*(loop|each|every|per|steps|at most|too many)|sync
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
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for step in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        if step % 10 == 0:
            print(f"step {step}: norm {norm:.4g}")
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
