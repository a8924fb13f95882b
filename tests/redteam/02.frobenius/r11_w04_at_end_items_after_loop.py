# expect: fail log_norms_at_end transfers with one .item() per norm after the loop (steps host reads) instead of one .tolist()
# hint: \.?item\b|\.?tolist|once|one (transfer|read|call)|single|host reads?|(reads?|sync\w*|transfers?).*(each|every|per|1000|steps|at most|too many)|sync
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
        norms.append(norm)
        X = X / norm
    return [norm.item() for norm in norms]  # all transfers after the loop


answer = (log_norms_per_step, log_norms_at_end)
