#!/usr/bin/env bash
# Rebuild the card classifier from scratch: Debian card art -> renders -> training -> ONNX ->
# calibration -> evaluation. Renders and feeds stay under cache/ (git-ignored).
# Usage: models/build_models.sh [extra train_classifier args]
# Model 2.0 was trained on a lent GPU machine with models/device_train.sh's command line
# (--train-samples 90000 --data-seconds 33 --steps 4500 --batch 256); its metadata's
# accept_threshold 0.94, agreement and second_opinion (card_classifier_v1.onnx = model 1.x,
# kept as is) were then set as models/MODEL_CARD.md says. On 2 CPU cores the same
# recipe takes hours: use fewer --steps for a trial.
# Needs: the [train] extra (torch CPU, onnx); about 25-35 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rsvg-convert >/dev/null || [ ! -d /usr/share/aisleriot/cards ] || [ ! -d /usr/share/carddecks ]; then
    echo "installing card art and the rasteriser (GPL Debian packages)" >&2
    apt-get install -y librsvg2-bin gnome-cards-data kdegames-card-data-kf5
fi

mkdir -p cache
export OMP_NUM_THREADS=2
python -m models.render_cards --out cache/cards --jobs 2
python -m models.train_classifier --renders cache/cards --out models --steps 3000 "$@" 2>&1 | tee cache/train.log
python -m models.make_test_images
python -m models.evaluate --into-meta --json cache/evaluation.json | tee cache/evaluation.txt
# the index-corner reader (vision/index_reader.py): about 45 minutes of training on 1 thread, then
# 30 more taught to read the index alone (boxes painted beside it). The shipped reader 1.1.0 was
# fine-tuned from reader 1.0.0 (`git show 3defca4:models/index_reader.onnx`), whose data version
# (2) the code no longer makes: models/MODEL_CARD.md, the index reader
python -m models.train_index_reader --renders cache/cards --out cache/index_scratch --scenes 20000 \
    --calibration-scenes 2500 --minutes 45 --jobs 1 2>&1 | tee cache/index_train.log
python -m models.train_index_reader --renders cache/cards --out models --scenes 20000 --calibration-scenes 2500 \
    --seed 77 --train-seed 5 --init cache/index_scratch/index_reader.onnx --paint 0.3 --lr 3e-4 --minutes 30 \
    --jobs 1 2>&1 | tee -a cache/index_train.log
python -m models.evaluate_index_reader --renders cache/cards | tee cache/index_evaluation.txt
