# expect: fail log_norms_per_step uses torch.linalg.norm(X, 2), which for a matrix is the spectral norm (largest singular value), not the Frobenius norm
# hint: spectral|singular|\bord\b|ord=|frobenius|linalg\.norm|matrix_norm|wrong norm|(norms?|values?) (differ|disagree|are wrong|do not match|don't match|mismatch)|expected .*got
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, 2)  # the 2-norm
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
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
