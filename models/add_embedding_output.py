"""Expose a trained model's hidden features as an ``embedding`` output (for deck enrolment).

Models before 2.0 give only ``logits``; their last hidden layer (the ReLU before the final
Gemm) is what :mod:`vision.deck_profile` needs. This adds it as a second output without
changing the logits, and bumps the metadata's version (a deck profile names its model).

Run: ``python -m models.add_embedding_output IN.onnx IN.json OUT.onnx OUT.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import onnx
from onnx import helper


def add_embedding(model: onnx.ModelProto) -> onnx.ModelProto:
    final = [n for n in model.graph.node if "logits" in n.output]
    if not final or final[0].op_type != "Gemm":
        raise ValueError("the model's logits do not come from a final Gemm: not a CardNet export")
    hidden = final[0].input[0]
    model.graph.node.append(helper.make_node("Identity", [hidden], ["embedding"], name="embedding_out"))
    model.graph.output.append(helper.make_tensor_value_info("embedding", onnx.TensorProto.FLOAT, ["batch", None]))
    onnx.checker.check_model(model)
    return model


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    src, src_meta, dst, dst_meta = map(Path, argv)
    onnx.save(add_embedding(onnx.load(str(src))), str(dst))
    meta = json.loads(src_meta.read_text())
    meta["version"] = meta.get("version", "1.0.0").rsplit(".", 1)[0] + ".1-embedding"
    meta["output_names"] = ["logits", "embedding"]
    dst_meta.write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
