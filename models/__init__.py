"""The ONNX model files, their model card, and the scripts that rebuild them."""
