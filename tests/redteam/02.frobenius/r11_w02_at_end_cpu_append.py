# expect: fail log_norms_at_end keeps the log on the host: norms.append(norm.cpu()) copies every norm to the CPU as it is logged
# hint: \.cpu\(\)|\bcpu\b|host reads?|(on|to) the host|(reads?|sync\w*|transfers?|cop(y|ies)).*(loop|each step|every step|per step|1000|steps)|sync
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
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.cpu())  # a 0-d tensor, not a Python float: no .item() here
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
