"""Recall fixtures: a fresh store, a deterministic fake embedder, the tiny real
cross-encoder (built once per session by the GUIDE's recipe) and, sparingly, the
real embedding model (loaded once per session)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from engine.config import Settings  # noqa: E402
from engine.recall import embedder as emb  # noqa: E402
from engine.recall.service import RecallService  # noqa: E402
from engine.store import Store  # noqa: E402

from .helpers import FakeEmbedder  # noqa: E402


@pytest.fixture
async def store(tmp_path: Path):
    s = await Store.open(tmp_path / "recall.db")
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def settings() -> Settings:
    # rerank off by default in unit tests (no real cross-encoder weights exist offline)
    return Settings.defaults().override({"memory.embeddingModel": "fake", "memory.rerankEnabled": False})


@pytest.fixture
def fake_factory():
    made: list[FakeEmbedder] = []

    def factory(name: str, **kw) -> FakeEmbedder:
        e = FakeEmbedder(name, **kw)
        made.append(e)
        return e

    factory.made = made
    return factory


@pytest.fixture
async def make_service(store, settings, fake_factory):
    services: list[RecallService] = []

    async def make(settings_=None, embedder_factory=None, reranker_factory=None, open_=True, store_=None, **kw):
        svc = RecallService(store_ or store, settings_ or settings, embedder_factory or fake_factory, reranker_factory, **kw)
        services.append(svc)
        if open_:
            await svc.open()
        return svc

    yield make
    for svc in services:
        await svc.close()


# ---- the tiny real cross-encoder (GUIDE recipe) ---------------------------------------
CE_CORPUS = [
    "the user lives in berlin and works as a data engineer",
    "project uses python 3.11 with textual and sqlite",
    "favourite programming language is rust",
    "the api endpoint is served on port 8080",
    "user prefers dark mode in every editor",
    "database migrations run at startup",
] * 5


@pytest.fixture(scope="session")
def tiny_cross_encoder(tmp_path_factory) -> str:
    import torch
    from sentence_transformers import CrossEncoder
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    out = str(tmp_path_factory.mktemp("tiny-ce"))
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(
        CE_CORPUS, trainers.WordPieceTrainer(vocab_size=500, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    )
    c, s = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", c), ("[SEP]", s)]
    )
    PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=128,
    ).save_pretrained(out)
    torch.manual_seed(0)
    BertForSequenceClassification(
        BertConfig(
            vocab_size=tok.get_vocab_size(),
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=64,
            max_position_embeddings=128,
            num_labels=1,
        )
    ).save_pretrained(out)
    CrossEncoder(out, device="cpu").predict([("q", "p")])
    return out


@pytest.fixture(scope="session")
def real_embedding_model():
    """Load all-MiniLM-L6-v2 once for the session (later Embedders reuse it)."""
    path = emb.resolve_model_path("all-MiniLM-L6-v2")
    return emb._load_sentence_transformer(path)
