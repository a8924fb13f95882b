# expect: pass while loops, X.norm() (Frobenius for a matrix), in-place division, a device log filled by slice assignment and read once; a clamp guard on the device
# hint:
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    out, k = [], 0
    while k < steps:
        X = A @ X
        norm = X.norm()  # Tensor.norm(): p="fro" by default
        out.append(norm.tolist())  # a 0-d tensor's tolist() is a Python float
        X.div_(norm)  # X is a fresh product: dividing in place touches nothing else
        k += 1
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = torch.zeros(steps, device=A.device, dtype=A.dtype)
    k = 0
    while k < steps:
        X = A @ X
        norm = X.norm()
        log[k : k + 1] = norm  # a device-to-device copy
        X.div_(norm.clamp_min(torch.finfo(X.dtype).tiny))  # guard on the device: no read
        k += 1
    return [float(v) for v in log.tolist()]  # tolist is the one read; float() on Python floats


answer = (log_norms_per_step, log_norms_at_end)
