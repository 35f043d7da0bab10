"""Write the scanner's traditional-to-simplified character table from OpenCC.

    python -m tools.trad_simp          # rewrite engine/scanner/trad_simp.txt
    python -m tools.trad_simp --check  # exit 1 when the file is not what OpenCC gives

The Chinese rules are written in simplified characters and read a traditional text
through a one-to-one fold (one character for one, so every offset holds). OpenCC's
t2s character dictionary (the ``opencc`` package, a dev dependency) knows every
common character a hand list missed (經, 詢 …); the scanner itself reads the written
table and needs no OpenCC at run time. Each CJK character is converted alone, so the
table holds OpenCC's default reading of it; ``OVERRIDES`` keeps the reading the rules
are written with where that default is a different simplified character."""

from __future__ import annotations

import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "engine" / "scanner" / "trad_simp.txt"
RANGES = (range(0x3400, 0xA000), range(0xF900, 0xFB00))  # the CJK blocks the Chinese views read
OVERRIDES = {
    "帳": "账",  # OpenCC: 帐 (curtain); the rules read 账户 (account), as in 帳戶
    "著": "着",  # OpenCC keeps 著 (also simplified, 著名); 隨著/看著 read 着 in the rules' phrasing
}


def table() -> str:
    """Two lines: the traditional characters, then their simplified forms, position by position."""
    import opencc  # dev dependency: only this tool needs it

    chars = [chr(cp) for block in RANGES for cp in block]
    simplified = opencc.OpenCC("t2s").convert("\n".join(chars)).split("\n")
    if len(simplified) != len(chars):
        raise SystemExit("OpenCC changed the line count; the table cannot be aligned")
    pairs = {a: b for a, b in zip(chars, simplified) if a != b and len(b) == 1}
    pairs.update(OVERRIDES)
    keys = sorted(pairs)
    return "".join(keys) + "\n" + "".join(pairs[k] for k in keys) + "\n"


def main(argv: list[str]) -> int:
    text = table()
    if "--check" in argv:
        current = TABLE.read_text(encoding="utf-8") if TABLE.exists() else ""
        return 0 if current == text else 1
    TABLE.write_text(text, encoding="utf-8")
    print(f"{TABLE}: {len(text.splitlines()[0])} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
