"""d2lgpu.llama: the published sizes, and the FLOPs that FlopCounterMode counts."""

import dataclasses

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
from torch.utils.flop_counter import FlopCounterMode

from d2lgpu.llama import CONFIGS, Decoder, DecoderConfig, flops_per_token, parameter_count

# The published parameter counts: Llama 2 7B's released checkpoint has 6,738,415,616
# parameters; Llama 3's 8B and 70B, 8,030,261,248 and 70,553,706,496.
PUBLISHED = {"7B": 6_738_415_616, "8B": 8_030_261_248, "70B": 70_553_706_496}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_closed_form_counts_the_module(name):
    with torch.device("meta"):
        model = Decoder(name)
    assert sum(p.numel() for p in model.parameters()) == parameter_count(CONFIGS[name])
    assert all(p.is_meta for p in model.parameters())


@pytest.mark.parametrize(("name", "count"), PUBLISHED.items())
def test_the_published_sizes(name, count):
    assert parameter_count(CONFIGS[name]) == count


def test_the_small_configurations_are_their_nominal_size():
    assert 125e6 <= parameter_count(CONFIGS["125M"]) <= 140e6
    assert 1.2e9 <= parameter_count(CONFIGS["1B"]) <= 1.6e9  # Llama 3.2 1B ties: 1.24B


def counted_flops_per_token(config, seq_len):
    with FakeTensorMode():
        model = Decoder(config)
        tokens = model.example_input()[:, :seq_len]
        assert isinstance(tokens, FakeTensor)
        with FlopCounterMode(display=False) as counter:
            model(tokens).float().sum().backward()
    return counter.get_total_flops() / tokens.numel(), counter


@pytest.mark.parametrize(
    "config", [CONFIGS["125M"], DecoderConfig(512, 4, 8, 2, 1536, 1000, 64)], ids=["125M", "tiny"]
)
def test_flop_counter_against_6n(config):
    seq = min(config.seq_len, 128)
    counted, counter = counted_flops_per_token(config, seq)
    want = flops_per_token(config, seq)
    # On a CPU, FlopCounterMode has no formula for scaled_dot_product_attention's CPU
    # kernel: it counts the weights' matmuls, exactly 6 N per token for the N weights
    # that multiply (not the embedding, a lookup; not the norms' gains).
    assert counted == want["matmul"]
    n = parameter_count(config)
    non_embedding = parameter_count(config, embedding=False)
    assert abs(counted - 6 * non_embedding) <= 2 * n / config.n_layers
    # 6 N with the embedding overshoots by 6 times the embedding's and the gains' parameters
    gains = (2 * config.n_layers + 1) * config.dim
    assert 6 * n - counted == 6 * (n - non_embedding) + 6 * gains
    ops = {str(op) for op in counter.get_flop_counts()["Global"]}
    assert not any("scaled_dot_product" in op for op in ops), ops


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="config must be one of 125M, 1B, 7B, 8B, 70B"):
        Decoder("13B")
    with pytest.raises(TypeError, match="config must be a DecoderConfig or a name"):
        Decoder(7)
    with pytest.raises(ValueError, match="batch must be an int >= 1"):
        Decoder(dataclasses.replace(CONFIGS["125M"], n_layers=1), batch=0)


def test_example_input_and_shard_units():
    with torch.device("meta"):
        model = Decoder(CONFIGS["125M"], batch=3)
    assert model.example_input().shape == (3, 2048)
    assert len(model.shard_units()) == 12
