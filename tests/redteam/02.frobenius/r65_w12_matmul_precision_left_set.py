# expect: fail sets torch.set_float32_matmul_precision("high") (TF32) for speed and never puts the old setting back
# hint: float32_matmul_precision|matmul.?precision|tf32|process.wide|setting|put (it )?back|restor|left (changed|set)
# Wrong: the prompt allows a GPU that runs its products in TF32, but the exercise rules say to
# put back any process-wide setting changed; this one leaks into the caller's process.
import torch


def _fast_matmuls():
    torch.set_float32_matmul_precision("high")  # TF32 on GPUs: within the 1e-3 allowed


def log_norms_per_step(A, steps):
    _fast_matmuls()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    _fast_matmuls()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
