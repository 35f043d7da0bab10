"""The word diff behind the lattice's version diff and the review's side-by-side
highlight: exact round trips, and markers that read without colour."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from echo_memory_tui.diff import counts, marked, sides, word_diff


def test_markers_show_removed_and_added_words_without_colour():
    chunks = word_diff("Use pnpm 8 for the repo", "Use pnpm 9 for the whole repo")
    assert marked(chunks).plain == "Use pnpm [-8-]{+9+} for the {+whole+} repo"
    assert counts(chunks) == (1, 2)


def test_identical_texts_have_no_markers():
    chunks = word_diff("same words\non two lines", "same words\non two lines")
    assert marked(chunks).plain == "same words\non two lines"
    assert counts(chunks) == (0, 0)


def test_line_breaks_stay_outside_the_markers():
    assert marked(word_diff("first\nold line", "first\nnew line")).plain == "first\n[-old-]{+new+} line"


def test_fold_ignores_case_and_punctuation_for_two_statements():
    chunks = word_diff("The editor is Vim.", "the editor is vim", fold=True)
    assert counts(chunks) == (0, 0)
    assert counts(word_diff("The editor is Vim.", "the editor is vim", fold=False)) == (2, 2)


@given(
    st.text(alphabet=st.sampled_from("ab \n\tc"), max_size=30),
    st.text(alphabet=st.sampled_from("ab \n\tc"), max_size=30),
)
def test_chunks_give_back_both_texts_exactly(old, new):
    chunks = word_diff(old, new)
    assert "".join(c.old for c in chunks) == old
    assert "".join(c.new for c in chunks) == new
    left, right = sides(chunks)
    assert (left.plain, right.plain) == (old, new)
