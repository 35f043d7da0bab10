"""The parts of the MemoryEngine facade, one module per responsibility.

engine/memory.py assembles `MemoryEngine` from these: `core` (the open store, its
gate and the lazily made recall and consolidation services), `sources` (where
entries came from, live changes, folder sync), `jobs` (long work with progress and
stop), `sessions` (the WORKING tier and session messages), `recall` (recall, its
log and relevance judgments), `transfer` (export and gated import) and `curation`
(undo, tags, decisions). Callers use `engine.MemoryEngine`, never a part."""
