"""models/train_index_reader.py's start from a shipped reader (``--init``): the weights read
back from its ONNX give the shipped reader's own outputs, and fine-tuning keeps the folded
batch norms frozen. Needs the [train] extra (torch, onnx)."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")
import torch  # noqa: E402
from torch import nn  # noqa: E402

from models.index_data import IndexSet  # noqa: E402
from models.index_net import IndexNet  # noqa: E402
from models.train_index_reader import load_onnx_weights, train  # noqa: E402
from vision.index_reader import DEFAULT_MODEL  # noqa: E402
from vision.preprocess import CORNER_H, CORNER_W  # noqa: E402


def _shipped() -> IndexNet:
    net = IndexNet()
    load_onnx_weights(net, DEFAULT_MODEL)
    return net


def test_given_the_shipped_reader_when_its_weights_are_loaded_then_torch_gives_its_outputs() -> None:
    x = np.random.default_rng(2).random((6, 3, CORNER_H, CORNER_W)).astype(np.float32)
    want = ort.InferenceSession(str(DEFAULT_MODEL), providers=["CPUExecutionProvider"]).run(None, {"boxes": x})
    net = _shipped().eval()
    with torch.no_grad():
        got = net(torch.from_numpy(x))
    for g, w in zip(got, want, strict=True):
        assert np.abs(g.numpy() - w).max() < 1e-3
    assert np.abs(IndexNet().eval()(torch.from_numpy(x))[0].detach().numpy() - want[0]).max() > 1e-2  # a fresh one does not


def test_given_a_shipped_start_when_fine_tuned_then_the_batch_norms_stay_as_loaded() -> None:
    net = _shipped()
    before = [m.running_mean.clone() for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    rng = np.random.default_rng(0)
    data = IndexSet(rng.integers(0, 255, (64, CORNER_H, CORNER_W, 3), dtype=np.uint8),
                    rng.integers(-1, 13, 64), rng.integers(0, 4, 64), np.full(64, 15.0))
    data.suit[data.rank < 0] = -1
    weights = net.rank.weight.detach().clone()
    assert train(net, data, minutes=0.02, batch=16, seed=1, lr=3e-4, paint=0.3, fine_tune=True) > 0
    after = [m.running_mean for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    assert all(torch.equal(a, b) for a, b in zip(after, before, strict=True))
    assert not torch.equal(net.rank.weight, weights)  # and it did learn
