# expect: fail log_norms_per_step reads each norm with float(norm.detach().numpy()), which works only on the CPU: for an A on a GPU .numpy() raises (a CUDA tensor cannot be converted), and it is not the .item() transfer the prompt asks for.
# hint: (numpy|\.item\(\)|cuda|gpu|host read|transfer|at least one)
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(float(norm.detach().numpy()))  # a Python float for the log
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    kept = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        kept.append(norm)
        X = X / norm
    return torch.stack(kept).tolist() if kept else []


answer = (log_norms_per_step, log_norms_at_end)
