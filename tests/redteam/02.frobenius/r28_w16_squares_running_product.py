# expect: fail Both versions adapt the chapter's square_normalized loop: start from A and square the running product (X = X @ X), so step k holds A**(2**k) instead of A**k and the norms are those of repeated squaring, not of X = A @ X.
# hint: (squar|X ?@ ?X|A ?@ ?X|2\*\*k|power|wrong product|multiply by A|start(s)? from (A|the identity))
import torch


def _normalized_squares(A, steps):
    X = A
    for _ in range(steps):
        X = X @ X
        norm = torch.linalg.matrix_norm(X)
        yield norm
        X = X / norm  # keeps the entries in range, as in the chapter


def log_norms_per_step(A, steps):
    return [norm.item() for norm in _normalized_squares(A, steps)]


def log_norms_at_end(A, steps):
    kept = list(_normalized_squares(A, steps))
    return torch.stack(kept).tolist() if kept else []


answer = (log_norms_per_step, log_norms_at_end)
