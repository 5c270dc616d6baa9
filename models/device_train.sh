#!/usr/bin/env bash
# The one training run on a lent GPU machine (issue 8): samples made on its CPUs (time-boxed),
# training on its GPU (time-boxed), ONNX + metadata written to $OUT. Needs cache/pack
# (the renders as WebP, and the fonts for made-up designs) carried along.
# Usage (on the device): bash models/device_train.sh DATA_SECONDS TRAIN_SECONDS
set -euo pipefail
export PYTHONPATH=$PWD CARD_FONT_DIRS=$PWD/cache/pack/fonts PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
OUT=${OUT:-cache/device_out}
mkdir -p "$OUT"
JOBS=$(python3 -c "import os; print(max(2, (os.cpu_count() or 2) - 1))")
echo "jobs $JOBS"
python3 -m models.train_classifier --renders cache/pack/cards --out "$OUT" \
    --train-samples "${TRAIN_SAMPLES:-90000}" --calib-samples "${CALIB_SAMPLES:-6000}" --chunk "${CHUNK:-3000}" \
    --jobs "$JOBS" --made-up-per-chunk 10 --made-up-share 0.4 --data-seconds "${1:-45}" \
    --steps 20000 --batch 256 --lr 3e-3 --time-limit "${2:-60}" 2>&1 | tee "$OUT/train.log"
ls -la "$OUT"
