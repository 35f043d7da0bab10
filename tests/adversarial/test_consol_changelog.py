"""Issue 8, item 14: change_log is bounded. Reads (recall's access bookkeeping) do
not journal a row per hit, old rows are pruned, and a reader that fell behind the
pruned rows reloads everything instead of missing changes."""

from __future__ import annotations

from ..engine.recall.conftest import fake_factory, make_service, settings, store  # noqa: F401 - fixtures
from ..engine.recall.helpers import delete, insert, make_entry


async def _rows(store) -> int:
    return (await store.fetchone("SELECT count(*) FROM change_log"))[0]


async def test_recall_hits_do_not_grow_the_change_log(engine):
    ids = [(await engine.add(f"k/{i}", f"fact number {i}")).entry.id for i in range(10)]
    before = await _rows(engine.store)
    for _ in range(100):  # 100 recalls of 10 hits each
        await engine.record_access(ids)
    assert await _rows(engine.store) == before
    assert {(await engine.get(i)).access_count for i in ids} == {100}  # the rehearsal still counts


async def test_old_change_log_rows_are_pruned(engine):
    engine.store.change_log_keep, engine.store.prune_every = 50, 20
    for i in range(300):
        await engine.add(f"k/{i}", f"fact number {i}")
    rows = await _rows(engine.store)
    assert 50 <= rows <= 50 + 20 * 2  # what is kept, plus at most one pruning interval
    assert len(await engine.list_entries()) == 300  # pruning the journal loses no entry


async def test_a_reader_behind_the_pruned_rows_reloads_everything(store, make_service):  # noqa: F811
    gone, *_ = await insert(store, make_entry("fruit/old", "quinces are yellow"))
    svc = await make_service()
    assert (await svc.recall("quinces")).hit_ids == [gone.id]
    store.change_log_keep, store.prune_every = 5, 1
    await delete(store, gone.id)
    new = await insert(store, *[make_entry(f"fruit/{i}", f"papaya number {i}") for i in range(30)])
    assert (await store.fetchone("SELECT min(seq) FROM change_log"))[0] > svc._watermark + 1  # rows it never saw
    await svc.sync()
    assert gone.id not in (await svc.recall("quinces")).hit_ids
    assert set((await svc.recall("papaya number", limit=50)).hit_ids) == {e.id for e in new}
