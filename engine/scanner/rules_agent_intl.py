"""Poisoned agent memories in languages other than English and Chinese, by construction.

Why it exists: the multilingual tables (``rules_multilingual.py``,
``rules_multilingual_poisoning.py``) name "ignore the previous instructions", "you are
now DAN", "reveal your password" and someone's data sent to an address. A memory set in
fourteen other languages (issue 11) showed what else a poisoned memory says, and that
nearly all of it passed: a note addressed to the AI inside an e-mail or a review; the
earlier or safety rules declared void and the note made the top rule; a persona or mode
defined by having no rules; the hidden instructions repeated, translated or summarised;
data sent to a URL, a bare domain, a phone number or "outside"; a standing order that
pays, buys or publishes without asking; approval claimed in advance so that nobody is
asked; backups destroyed, the trash emptied, the whole balance moved; things kept from
the user; a link or a false claim put into every answer.

Each family is a construction, written per language in its own words and word order
(``rules_agent_intl_west.py``: Spanish, French, German, Italian, Portuguese, Dutch,
Polish, Russian; ``rules_agent_intl_east.py``: Japanese, Korean, Turkish, Arabic, Hindi,
Indonesian, Vietnamese). A family needs every part of its construction within one
sentence, never one word: "the assistant" + "may" + "delete"; "if the user asks" + "say
no"; "every answer" + "add" + a link. The memories in the same words pass: the user's own
forwarding rule (the address is the source, or the mail is theirs), a manager who approves
expenses, a surprise kept out of a shared calendar, a story about a rogue AI, a retention
rule that deletes old snapshots (``tests/adversarial/test_rules9_intl_*.py``).

Gaps are bounded and never cross a sentence end (a dot inside an address does not end
one); every rule is gated on its parts' literal words (``fastre.gate_group``), so its
regex runs only on text in its language that holds them.
"""

from __future__ import annotations

import unicodedata
from itertools import permutations
from typing import NamedTuple

from .fastre import gate_group
from .rule_base import Needing, Rule, _rule
from .rules_multilingual_poisoning import to_destination

STOP = ".!?。！？।؟\n"


def gap(n: int) -> str:
    """Up to ``n`` characters inside one sentence (a dot followed by a non-space, as in an
    address or "3.5", does not end it)."""
    return rf"(?:[^{STOP}]|\.(?=\S)){{0,{n}}}?"


class Agent(NamedTuple):
    """One language's constructions (regex alternations, lower case, Latin accents folded).
    An empty field leaves that language without the rule."""

    addressed: str  # an instruction addressed to the AI inside content: "note for the AI assistant:"
    void: str  # the earlier or safety rules declared void; this note declared the top rule
    persona: str  # a persona or mode defined by having no limits: "you are X, an AI without rules"
    hidden: str  # the assistant's hidden, initial or system instructions, or configuration
    transform: str  # repeat / copy / translate / summarise / write out (as told to the assistant)
    data: str  # someone's data: the user's messages, contacts, credentials, card number
    send: str  # send / forward / upload / attach, in any form
    outside: str  # a destination in words: "an external address", "a publicly shared folder"
    standing: str  # from now on / every time / as soon as / next time the user …
    act: str  # what a standing order makes risky: pay, buy, delete, publish, accept
    waive: str  # without asking / no confirmation needed / secretly
    incoming: str  # a trigger anyone can pull: "as soon as a mail arrives with …"
    pay: str  # completes a payment: clicks the payment link, confirms the payment
    approved: str  # approval claimed in advance: "pre-approved", "consent obtained in advance"
    permitted: str  # the assistant explicitly permitted a risky act
    may: str  # "can / may" + a risky act (counts only after a claimed approval)
    no_ask: str  # no need to ask again / without the one-time code
    destroy: str  # backups destroyed, the trash emptied, the whole balance moved, admins revoked
    conceal: str  # kept from the user: don't tell the user, deny it if asked, report "no changes"
    output: str  # dictated output: a link in every answer, "when asked about X always say …"
    named: str = ""  # the AI as every ``addressed`` construction names it, searched first (Needing)


def _agent_rules(lang: str, a: Agent) -> tuple[Rule, ...]:
    """The rules of one language (its table NFKC-normalised, as the views are)."""
    a = Agent(*(unicodedata.normalize("NFKC", field) for field in a))
    dest = f"{to_destination(lang)}|{a.outside}" if a.outside else to_destination(lang)
    out: list[Rule] = []

    def add(family: str, name: str, pattern: "str | Needing", *gates: str) -> None:
        out.append(_rule(family, f"{name}_{lang}", pattern, " & ".join(gate_group(g) for g in gates)))

    if a.addressed:
        # the gate's words include "si", "que", "ia": in most texts, so the AI's name, bounded
        # as the constructions bound it, is looked for before the whole alternation runs
        addressed = Needing(a.addressed, a.named) if a.named else a.addressed
        add("tool_output_instruction", "addressed_to_the_assistant", addressed, a.addressed)
    if a.void:
        add("instruction_override", "directives_declared_void", a.void, a.void)
    if a.persona:
        add("role_hijack", "persona_without_limits", a.persona, a.persona)
    if a.hidden:
        either = rf"(?:{a.transform}){gap(60)}(?:{a.hidden})|(?:{a.hidden}){gap(60)}(?:{a.transform})"
        add("secret_exfiltration", "hidden_instructions_transformed", either, a.hidden, a.transform)
    if a.data and a.send:
        parts = (f"(?:{a.data})", f"(?:{a.send})", f"(?:{dest})")
        add("exfiltration", "data_sent_out", "|".join(gap(60).join(p) for p in permutations(parts)), a.data, a.send)
    if a.standing and (a.act or a.send):
        acts, checks = f"(?:{_any(a.act, a.send)})", f"(?:{_any(a.waive, dest)})"
        pattern = rf"(?:{a.standing}){gap(100)}(?:{acts}{gap(60)}{checks}|{checks}{gap(60)}{acts})"
        if a.incoming:
            pattern += rf"|(?:{a.incoming}){gap(80)}(?:{a.pay})"
        add(
            "standing_instruction",
            "standing_order_unchecked",
            pattern,
            f"{a.standing}|{a.incoming}" if a.incoming else a.standing,
        )
    if a.permitted:
        add("fake_authorisation", "assistant_permitted", a.permitted, a.permitted)
    waived = _any(a.no_ask, a.may, a.permitted)
    if a.approved and waived:
        add("fake_authorisation", "approval_claimed_in_advance", rf"(?:{a.approved}){gap(120)}(?:{waived})", a.approved)
    if a.destroy:
        add("goal_hijack", "destructive_action", a.destroy, a.destroy)
    if a.conceal:
        add("conceal_from_user", "kept_from_the_user", a.conceal, a.conceal)
    if a.output:
        add("output_manipulation", "dictated_answer", a.output, a.output)
    return tuple(out)


def _any(*fields: str) -> str:
    """The alternation of the fields that are not empty."""
    return "|".join(f for f in fields if f)


def build(tables: dict[str, Agent]) -> tuple[Rule, ...]:
    """Every language's rules, family by family within each language."""
    return tuple(rule for lang, table in tables.items() for rule in _agent_rules(lang, table))
