"""Hybrid recall (BM25 + vectors + RRF + token gate + cross-encoder rerank +
forgetting curve) and episode search. Import the modules themselves (service,
results, ...): this package imports nothing, so `echo-memory` starts fast, and
importing it never imports torch or sentence-transformers (models load lazily,
in threads)."""

import os

# Models load only from installed packages or local paths: a hub name must fail at
# once, not retry the network for a minute; and no download bar may draw over the app.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
