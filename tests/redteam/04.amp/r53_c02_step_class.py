# expect: pass a small helper class per precision, logits cast to float for the loss inside autocast, losses via torch.cat
# hint:
import torch
import torch.nn.functional as F
from torch import nn


class _Bf16Update:
    def __init__(self, opt):
        self.opt = opt

    def backward(self, loss):
        loss.backward()

    def before_clip(self):
        pass

    def step(self):
        self.opt.step()


class _Fp16Update(_Bf16Update):
    def __init__(self, opt, scaler):
        super().__init__(opt)
        self.scaler = scaler

    def backward(self, loss):
        self.scaler.scale(loss).backward()

    def before_clip(self):
        self.scaler.unscale_(self.opt)  # clip the true gradients

    def step(self):
        self.scaler.step(self.opt)  # skipped if a gradient overflowed
        self.scaler.update()


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    update = _Bf16Update(opt) if scaler is None else _Fp16Update(opt, scaler)
    params = [p for p in net.parameters()]
    kept = []
    for X, y in batches:
        with torch.amp.autocast(device_type=device_type, dtype=dtype):
            logits = net(X)
            loss = F.cross_entropy(logits.float(), y)
        opt.zero_grad(set_to_none=True)
        update.backward(loss)
        update.before_clip()
        nn.utils.clip_grad_norm_(params, max_norm=max_norm)
        update.step()
        kept.append(loss.detach().reshape(1))
    return torch.cat(kept)


answer = train_amp
