"""The rule tables: each rule names the kind of phrasing it detects.

Why so long: it is data, the English and Chinese rule tables (one entry per named
phrasing, each with its regex and gate). Families added later live beside it
(``rules_en.py``, ``rules_zh.py``, ``rules_zh_memory.py``, ``rules_zh_output.py``,
``rules_zh_takeover.py``, ``rules_multilingual.py``, ``suffix.py``, and the memory-poisoning
families ``rules_superseded.py``, ``rules_routed_out.py``, ``rules_standing.py``,
``rules_reader_addressed.py``, ``rules_steered_answers.py``, ``rules_waived_checks.py``) and
are appended to the tables here, after the older rules, so verdicts name the older rule
first where both match."""

from __future__ import annotations

from .rule_base import _CLAUSE, _NOT_A_NAME, _ORDERED_ITS, _PAYLOAD, GateIndex, Rule, _not_after, _rule
from .rules_agent_intl_east import AGENT_EAST_RULES
from .rules_agent_intl_north import AGENT_NORTH_RULES
from .rules_agent_intl_west import AGENT_WEST_RULES
from .rules_blind import BLIND_RULES, BLIND_ZH_RULES
from .rules_blind2 import BLIND2_RULES, BLIND2_ZH_RULES
from .rules_blind3 import BLIND3_RULES
from .rules_en import EN_FAMILY_RULES
from .rules_multilingual import HAN_LAYER_RULES, MULTILINGUAL_RULES
from .rules_multilingual_poisoning import INTL_POISONING_RULES
from .rules_poisoning import POISONING_FAMILY_RULES
from .rules_reader_addressed import READER_ADDRESSED_RULES
from .rules_routed_out import ROUTED_OUT_RULES
from .rules_standing import STANDING_RULES
from .rules_steered_answers import STEERED_ANSWER_RULES, ZH_STEERED_ANSWER_RULES
from .rules_superseded import SUPERSEDED_RULES
from .rules_tool_output import TOOL_OUTPUT_RULES
from .rules_waived_checks import WAIVED_CHECK_RULES
from .rules_zh import ZH_FAMILY_RULES
from .rules_zh_memory import ZH_MEMORY_ACT_RULES
from .rules_zh_output import ZH_OUTPUT_RULES
from .rules_zh_takeover import ZH_TAKEOVER_RULES
from .suffix import SuffixDetector

__all__ = ["GateIndex", "Rule", "EN_RULES", "POISONING_RULES", "SQUASHED_RULES", "ZH_RULES", "ZH_POISONING_RULES"]


# Verbs that tell a model to drop something. The strong ones are about minds
# (ignore, forget...); the weak ones are everyday editing verbs (delete, skip...)
# and only count when what is dropped is marked as earlier or given.
_STRONG_VERB = (
    r"(?:ignor(?:e|ing)|disregard(?:ing)?|forget(?:ting)?|abandon|discard|overrid(?:e|ing)|dismiss|neglect|"
    r"overlook|bypass|leave\s+behind|set\s+aside|throw\s+away|pay\s+no\s+attention\s+to|"
    r"(?:do\s+not|don'?t|stop)\s+(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)?\s+to))"
)
_WEAK_VERB = r"(?:drop|skip|overwrite|erase|delete|remove|clear|wipe|reset|scrap)"
_VERB_GATE = (
    "ignor|disregard|forget|abandon|discard|overrid|dismiss|neglect|overlook|bypass|leave|aside|throw|"
    "attention|follow|obey|listen|drop|skip|overwrit|erase|delet|remov|clear|wipe|reset|scrap"
)
# What a model is told. Strong nouns are directives as such; weak nouns only
# count with a marker such as "previous", "above" or "provided".
_STRONG_NOUN = (
    r"(?:instructions?|instructed|directions|directives?|rules|prompts?|prompt\s+texts?|orders|commands|"
    r"guidelines?|guidance|assignments?|constraints|programming|restrictions|polic(?:y|ies))"
)
_WEAK_NOUN = (
    rf"(?:{_STRONG_NOUN}|tasks?|context|conversations?|information|documents?|articles?|settings|training|"
    r"messages?|text|input|content|everything|answers?|responses?)"
)
_NOUN_GATE = (
    "instruct|direction|directive|rule|prompt|order|command|guideline|guidance|assignment|constraint|"
    "programming|restriction|polic|task|context|conversation|information|document|article|setting|"
    "training|message|text|input|content|everything|answer|response"
)
_PRIOR = (
    r"(?:previous|previously|prior|above|preceding|earlier|former|foregoing|initial|original|provided|given|"
    r"pre-?existing)"
)
# Determiners and qualifiers allowed between the verb and the noun.
_QUALIFIERS = (
    r"(?:all|any|each|every|of|the|your|my|our|these|those|previous|previously|prior|above|preceding|"
    r"earlier|former|initial|original|old|existing|given|provided|system|developer|and|following|"
    r"other|that|you|i|we|got|have|had|been|received|were|was|just|safety|current|entire)"
)
_BYPASS_VERB = (
    r"(?:bypass|bypassing|override|overriding|circumvent|circumventing|disable|disabling|ignore|ignoring|"
    r"turn\s+off|deactivate|get\s+around|evade|evading|break|lift|remove|switch\s+off)"
)
_SAFETY_THING = (
    r"(?:own\s+)?(?:safety\s+|content\s+|ethical\s+|moral\s+|security\s+|built-?in\s+)*"
    r"(?:guidelines|filters?|filtering|restrictions|safeguards|guardrails|polic(?:y|ies)|rules|moderation|protocols|"
    r"censorship|alignment|programming|limitations|constraints|ethics|morals|principles|training)\b"
)

_NO_RULES = r"(?:programming\s+|ethical\s+|moral\s+|content\s+|safety\s+)?(?:guidelines|restrictions|filters|limits|boundaries)\b"

# What makes a notice an order to the model: it names the model, drops what it was told, or orders an act.
_TO_THE_MODEL = (
    r"\b(?:(?:you|u)\s+(?:must|should|shall|will\s+now|are\s+now|are\s+to|have\s+been|may\s+now|can\s+now|no\s+longer)|"
    r"(?:the\s+)?(?:assistant|ai|model|agent|bot|chatbot|llm)s?\b|ignore|disregard|forget|override|from\s+now\s+on|"
    r"(?:new|updated|revised)\s+instructions|mode\b|(?:your|all|safety|content|ethical)\s+(?:restrictions|filters|"
    r"guidelines|rules|polic(?:y|ies)|safeguards|limits|guardrails))"
)
_ORDER_NEXT = (  # an imperative right after the heading's colon
    r"\s*(?:please\s+)?(?:reveal|print|output|respond|reply|answer|disable|enable|send|forward|approve|transfer|delete|"
    r"execute|run|grant|say|tell|proceed|comply|obey|unlock|share|pay|wire)\b"
)

_EN_CORE: tuple[Rule, ...] = (
    # --- instruction override: make the model drop what it was told ------------
    _rule(
        "instruction_override",
        "override_prior_directives",
        # not a quoted title ("the talk 'Ignore Previous Instructions: a field guide'"); "its" rules: its_rules_dropped_on_order
        rf"(?<!did\syou\s){_NOT_A_NAME}\b{_STRONG_VERB}\s+(?:about\s+)?(?:{_QUALIFIERS}\s+){{0,6}}{_STRONG_NOUN}\b"
        rf"|(?<!did\syou\s){_NOT_A_NAME}\b(?:{_STRONG_VERB}|{_WEAK_VERB})\s+(?:about\s+)?(?:{_QUALIFIERS}\s+){{0,5}}"
        rf"{_PRIOR}\s+(?:{_QUALIFIERS}\s+){{0,2}}{_WEAK_NOUN}\b",
        f"{_VERB_GATE} & {_NOUN_GATE}",
    ),
    _rule(
        "instruction_override",
        "override_everything_before",
        rf"{_NOT_A_NAME}\b(?:ignore|ig[a-z]{{1,2}}re|disregard|forget|drop|erase|abandon)\s+(?:about\s+)?"
        r"(?:(?:all|everything|anything)(?:\s+(?:of\s+)?(?:that|this|else))?"
        r"\s+(?:(?:that\s+|what\s+)?(?:i|you|we)\s+(?:have\s+|'ve\s+)?(?:said|told|wrote|written|discussed|"
        r"talked|learned|learnt|know|knew|got|had|received|mentioned)\b|before|above|so\s+far|"
        r"(?:previous|prior)(?!\s+[a-z])|you\s+know)"
        r"|(?:the\s+)?(?:above|previous|prior|preceding)(?=\s*(?:[.,;:!?\"')\-]|and\b|$))"
        r"|what\s+(?:i|you|we|was|has\s+been|is|'s)\s*(?:have\s+)?(?:said|told|wrote|written|stated|given|mentioned|"
        r"before|above))",
        r"\big|disregard|forget|drop|erase|abandon",
    ),
    _rule(
        "instruction_override",
        "override_everything",
        r"(?:^|[.!?,;:\"'(\n-]\s*|\b(?:now|but|then|and|please|just|simply|so|first|to|would|you)\s+)"
        rf"(?:please\s+)?{_NOT_A_NAME}(?:ignore|forget|disregard)\s+(?:about\s+)?"
        r"(?:everything\b(?!\s+(?:about|of|on|in|else|related|from\s+(?:the|my|our)\s+(?!previous|prior)))"
        r"|all\b(?=\s*(?:[.,;:!?\"')\-]|and\b|$)))"
        rf"|{_NOT_A_NAME}\b(?:ignore|forget|disregard)\s+(?:all|everything)(?:\s+(?:else|above|before))?\s+and\s+(?:just\s+|\w+\s+)?"
        r"(?:say|print|output|write|tell|answer|respond|repeat|reply)\b",
        "ignore|forget|disregard & all|everything",
    ),
    _rule(
        "instruction_override",
        "despite_instructions",
        r"\b(?:despite|regardless\s+of|contrary\s+to|in\s+spite\s+of)\s+(?:what\s+you(?:'ve|\s+have)\s+been\s+"
        r"(?:told|instructed|programmed)|your\s+(?:instructions|rules|guidelines|programming|system\s+prompt))",
        "despite|regardless|contrary|spite",
    ),
    _rule(
        "instruction_override",
        "replace_directives",
        r"\b(?:change|update|replace|modify|rewrite|reset|overwrite)\s+your\s+"
        r"(?:(?:system|initial|original|core)\s+)?(?:instructions|rules|prompt|guidelines|programming|directives)\b"
        r"|\byour\s+(?:new\s+)?(?:instructions|rules|directives)\s+(?:are|have\s+been)\s+(?:now\s+)?"
        r"(?:to|changed|updated|replaced|as\s+follows)\b"
        r"|\byour\s+(?:primary|main|only|new|sole)\s+(?:purpose|goal|task|job|objective)\s+is\s+now\b",
        "your & instruction|rule|prompt|guideline|programming|directive|purpose|goal|task|job|objective",
    ),
    _rule(
        "instruction_override",
        "new_task_pivot",
        r"\b(?:new|further|more|additional|following|other)\s+(?:tasks?|instructions?|assignments?|orders?|challenges?)\s+"
        r"(?:now\s+)?(?:follows?|are\s+follow(?:ed|ing)|comes?)\b"
        r"|\b(?:now|here|but\s+now)\s+(?:comes?|follows?|there\s+(?:is|are)|we\s+have|i\s+have)\b[^.!?\n]{0,30}?"
        r"\b(?:new|further|more|another|additional|next|second|different)\s+"
        r"(?:tasks?|challenges?|assignments?|instructions?|orders?|tests?)\b"
        r"|\b(?:focus|concentrate)\s+(?:only\s+|now\s+)?on\s+(?:your|the|this)\s+(?:new|next)\s+(?:tasks?|assignments?)\b"
        r"|\byour\s+new\s+(?:task|assignment|instructions?)\s+(?:is|are|will\s+be)\s*:"
        r"|\bstart\s+(?:over|from\s+the\s+(?:front|beginning|scratch))\b[^.!?\n]{0,30}?\b(?:task|assignment)"
        r"|\bstart\s+with\s+(?:a\s+)?new\s+(?:task|assignment)\b"
        r"|\b(?:that\s+is|that'?s|this\s+is)\s+(?:enough|done)\s*[.!]\s*(?:but\s+)?now\b",
        "task|instruction|assignment|order|challenge|test|enough|done",
    ),
    _rule(
        "instruction_override",
        "labelled_new_directive",
        r"\b(?:additional|new|updated|revised|secret|hidden|real)\s+(?:instruction|directive|statement|order|command)s?"
        r"\s*(?:[-–—:]|for\s+(?:the\s+)?(?:ai|assistant|model))",
        "instruction|directive|statement|order|command",
    ),
    _rule(
        "instruction_override",
        "stop_and_do",
        r"\b(?:stop|halt|attention)\s*[-–—:,!]+\s*(?:[a-z]+\s*[-–—:,!]+\s*)?(?:now\W*)?(?:just\s+|please\s+|i\s+)?"
        r"(?:write|print|say|output|ignore|forget|answer|tell|repeat|stop|urgently)\b"
        r"|\bstop\s+everything\b",
        "stop|halt|attention",
    ),
    _rule(
        "instruction_override",
        "dismiss_context",
        r"\b(?:do\s+not|don'?t|never|without)\s+(?:look(?:ing)?\s+(?:in|at|into)|us(?:e|ing)|rely(?:ing)?\s+on|"
        r"consult(?:ing)?|answer(?:ing)?\s+(?:the\s+question\s+)?(?:according\s+to|based\s+on|from))\s+"
        r"(?:the\s+|any\s+|your\s+)?(?:provided\s+|given\s+)?(?:documents?|articles?|context|sources?)\b"
        r"|\bnot\s+(?:by|from|according\s+to|based\s+on)\s+the\s+(?:provided\s+)?(?:articles?|documents?|context)\b",
        "document|article|context|source",
    ),
    _rule(
        "instruction_override",
        "disobey_user",
        r"\b(?:ignore|disregard|forget)\s+(?:what\s+)?the\s+user\b",
        "ignore|disregard|forget & user",
    ),
    _rule(
        "instruction_override",
        "dictated_output",
        r"\b(?:do\s+not|don'?t)\s+answer\s+(?:this|the)\s+question\b[^.\n]{0,20}?\b(?:but|just|instead|only)\b"
        r"|\binstead\s+(?:output|print|say|write)\b[^.\n]{0,40}[\"'“]"
        r"|\bjust\s+(?:say|print|output)\s*[\"'“:]"
        r"|\brepeat\s+after\s+me\b"
        r"|\b(?:say|print|output|write|type|reply|respond|answer)\s+(?:with\s+)?(?:only\s+|exactly\s+)?[\"'“‘][^\"'”’\n]{1,60}"
        r"[\"'”’]\s*(?:,\s*)?(?:and\s+nothing\s+(?:else|more)|only\b|(?:and\s+)?no\s+other\s+(?:words|text))"
        r"|\b(?:only|exactly)\s+(?:say|print|output|reply|respond|answer)\s+(?:with\s+)?[\"'“‘]",
        "answer|instead|just|repeat|nothing|only|other|exactly",
    ),
    # Declares what the model was told void, without an imperative verb.
    _rule(
        "instruction_override",
        "declare_directives_void",
        rf"\b(?:{_PRIOR}|your)\s+(?:(?:{_QUALIFIERS})\s+){{0,2}}{_STRONG_NOUN}\s+"
        r"(?:(?:are|is|have\s+been|has\s+been|were|was)\s+)?(?:now\s+|hereby\s+)?"
        r"(?:no\s+longer\s+(?:apply|applies|valid|applicable|in\s+(?:effect|force)|matter|relevant|binding)|"
        r"(?:null\s+and\s+)?void|null|nullified|cancell?ed|revoked|rescinded|obsolete|invalid(?:ated)?|superseded|"
        r"overridden|suspended|lifted)\b"
        rf"|\b(?:treat|consider|regard|deem)\s+(?:(?:{_QUALIFIERS})\s+){{0,3}}{_STRONG_NOUN}\s+as\s+"
        r"(?:(?:null\s+and\s+)?void|null|cancell?ed|revoked|obsolete|invalid|irrelevant|non-?existent|"
        r"(?:no\s+longer|not)\s+(?:valid|applicable|binding))\b",
        "longer|void|null|cancel|revoked|rescinded|obsolete|invalid|superseded|overridden|suspended|lifted|irrelevant|"
        "existent & instruct|direction|directive|rule|prompt|order|command|guideline|guidance|assignment|constraint|"
        "programming|restriction|polic",
    ),
    # --- the same override in other Latin- and Cyrillic-script languages --------
    _rule(
        "instruction_override",
        "override_de",
        r"\b(?:ignorier(?:e|en|t)?|vergiss|vergessen|missachte(?:n)?|uberspring(?:e|en)?|verwirf)\b[^.!?\n]{0,40}?"
        r"\b(?:anweisungen|instruktionen|befehle|regeln|vorgaben|aufgaben|anordnungen|alles|eingaben)\b"
        r"|\babweichend\s+(?:zu|von)\s+(?:den\s+)?(?:vorherigen|bisherigen|obigen)\s+(?:instruktionen|anweisungen)"
        r"|\b(?:nun|jetzt)\s+folgen\s+neue\s+(?:anweisungen|aufgaben|instruktionen)"
        r"|\bhore?\s+nicht\s+auf\s+(?:alles\s+)?(?:zuvor|vorher|bisher)\s+gesagte",
        "ignorier|vergiss|vergessen|missacht|uberspring|verwirf|abweichend|folgen|hore|hor",
    ),
    _rule(
        "instruction_override",
        "override_es",
        r"\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|descarta|omite)\b[^.!?\n]{0,30}?"
        r"\b(?:instrucciones|indicaciones|reglas|ordenes|todo\s+lo\s+anterior)\b"
        r"|\bolvida(?:te)?\s+(?:de\s+)?todo\b",
        "ignor|olvid|descarta|omite",
    ),
    _rule(
        "instruction_override",
        "override_fr",
        # "ignore" is English too: bare, it needs a French word ("ignore les instructions", not "ignore its instructions")
        r"\b(?:ignore[zr]|oublie[zr]?)\b[^.!?\n]{0,30}?\b(?:instructions?|consignes|regles|tout\s+ce\s+qui\s+precede)\b"
        rf"|{_NOT_A_NAME}\bignore\b[^.!?\n]{{0,30}}?(?:\b(?:les|tes|vos|toutes|tous|ces|des|mes|nos|la|le|l'|d'|cette|ce)\b"
        r"[^.!?\n]{0,30}?\b(?:instructions?|consignes|regles)\b|\b(?:consignes|regles|tout\s+ce\s+qui\s+precede)\b)",
        "ignore|oublie",
    ),
    _rule(
        "instruction_override",
        "override_it",
        r"\b(?:ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|trascura|tralascia)\b[^.!?\n]{0,30}?"
        r"\b(?:istruzioni|indicazioni|regole|ordini|direttive|tutto\s+(?:quello|cio)\s+(?:che\s+)?(?:detto\s+)?prima)\b",
        "ignor|dimentic|trascur|tralasci",
    ),
    _rule(
        "instruction_override",
        "override_pt",
        r"\b(?:ignore|ignora|ignorem|esqueca|esquecam|desconsidere|desconsidera|despreze)\b[^.!?\n]{0,30}?"
        r"\b(?:instrucoes|indicacoes|regras|ordens|diretrizes|tudo\s+(?:o\s+)?que\s+foi\s+dito)\b",
        "ignor|esque|desconsider|despreze",
    ),
    _rule(
        "instruction_override",
        "override_ko",
        r"(?:이전|앞|위|기존|지금까지|앞서)(?:의|에서)?\s*(?:받은\s*)?(?:모든\s*)?(?:지시|지침|명령|규칙|프롬프트|설정|안내)"
        r"(?:사항)?(?:을|를|은|는|들을|들은)?\s*(?:모두\s*|전부\s*|다\s*)?(?:무시|잊어|잊으|따르지\s*마|무효)",
        "무시|잊|따르지|무효",
    ),
    _rule(
        "instruction_override",
        "override_ru",
        r"(?:забуд\w*|игнориру\w*|проигнориру\w*|не\s+обраща\w*\s+внимани\w*\s+на)\s+(?:\w+\s+){0,3}?"
        r"(?:инструкци\w*|указани\w*|правил\w*|команд\w*|всё|все\s+что)",
        "забуд|игнор|обраща",
    ),
    # --- role hijack: give the model a new identity ------------------------------
    _rule(
        "role_hijack",
        "persona_assignment",
        r"\bi\s+want\s+you\s+to\s+(?:act|behave|respond|answer|pretend|play|roleplay|role-play)\b"
        r"|\bact"
        + _not_after(
            "act", "will", "can", "to", "would", "could", "may", "might", "should", "must", "also", "they", "which", "that", "it"
        )
        + r"\s+as\s+(?:an?|the|my)\s+[^.!?\n]{1,60}[.!:\n]\s*(?:i\s+will|you\s+will|your\s+(?:task|job)|"
        r"execute|run|answer|reply|respond|write|tell|print|say|type|output)\b"
        r"|\byou\s+(?:will|must|shall|should|are\s+going\s+to|are\s+about\s+to|now|to)\s+(?:now\s+)?"
        r"(?:act|behave|pretend|roleplay|role-play|respond|answer)\s+(?:as|like|to\s+be|that)\b"
        r"|\byou\s+(?:will|must|shall|should|are\s+going\s+to|are\s+to|now)\s+(?:now\s+)?"
        r"(?:take\s+on|assume|adopt|play)\s+the\s+(?:role|persona|identity)\s+of\b"
        r"|\b(?:immerse|put)\s+yourself\s+(?:into|in)\s+the\s+role\b"
        r"|\byou\s+are\s+role-?playing\s+as\b"
        r"|\b(?:theoretical|hypothetical|fictional|imaginary)\s+(?:world|scenario|universe|setting)\s+where\s+you\s+"
        r"(?:are\s+(?:no|not)\b|would\s+be\s+able|have\s+no|can\s+(?:say|do|use))",
        # every branch has "you" or the word "act", and a verb or noun of playing a part
        r"you|\bact\b & \bact\b|behave|respond|answer|pretend|play|role|persona|identity|theoretical|hypothetical|"
        "fictional|imaginary",
    ),
    _rule(
        "role_hijack",
        "you_are_now",
        r"\b(?:from\s+now\s+on|from\s+here\s+on|starting\s+now|henceforth|from\s+this\s+point(?:\s+on)?)\s*,?\s*"
        r"(?:you\s+are|you'?re|you\s+will\s+be|you\s+shall\s+be|you\s+will\s+(?:act|respond|answer|have\s+to|now)|"
        r"your\s+name\s+is|you\s+are\s+going\s+to)\b"
        r"|\byou\s+are\s+now\s+(?:a|an|the|my|called|named|known|going|in|acting|playing|free|unrestricted|"
        r"jailbroken|unfiltered|uncensored|dan|[a-z]+bot|[a-z]+gpt)\b"
        r"|(?:^|[.!?\"\n]\s*)now\s+you\s+are\s+(?:an?\s+|the\s+)?[a-z]+"
        r"|\bfrom\s+now\s+(?:on\s+)?known\s+as\b",
        "now|henceforth|point",
    ),
    _rule(
        "role_hijack",
        "unrestricted_persona",
        r"\bdo\s+anything\s+now\b"
        r"|\b(?:anti-?)?(?:dan|stan|dude|evil\s*bot|anti-?gpt|betterdan)\s+mode\b"
        r"|\b(?:act|answer|respond|reply|behave|talk|role\s+of)\s+(?:just\s+)?(?:as|like)?\s*(?:an?\s+)?"
        r"(?:anti-?)?(?:dan|stan|dude)\b"
        r"|\b(?:anti-?dan|anti-?gpt|betterdan)\b"
        r"|\bpretend\s+(?:to\s+be|you\s+are|you'?re|that\s+you\s+are)\s+(?:an?\s+)?(?:evil|unrestricted|unfiltered|"
        r"uncensored|jailbroken|rogue|malicious|amoral|immoral|unethical|dan|different|another)\b"
        r"|\bpretend\s+(?:that\s+)?you\s+(?:can|could|have|are\s+able\s+to)\s+"
        r"(?:access|browse|no\s+(?:rules|restrictions|limits|filters))"
        r"|\bbroken\s+free\s+(?:of|from)\s+the\s+(?:typical\s+)?confines\b",
        # "dan", "stan" and "gpt" end a word in every branch (not "danger", "understand")
        r"anything|dan\b|stan\b|dude|gpt\b|evil|pretend|confines",
    ),
    _rule(
        "role_hijack",
        "rules_do_not_apply",
        r"\b(?:do(?:es)?\s+not|don'?t|doesn'?t|no\s+longer|never)\s+(?:have\s+to\s+|need\s+to\s+)?"
        r"(?:abide\s+by|follow|obey|adhere\s+to|comply\s+with)\s+(?:any\s+|the\s+)?"
        r"(?:rules|guidelines|policies|content\s+polic(?:y|ies)|restrictions)\s+(?:set|imposed|of|from|by|for)\b"
        # "has no filters" of the persona the model is made to play, not of an app or a character in a screenplay
        r"|\b(?:you\s+(?:are|will\s+be|play|become)|you'?re|act\s+as|pretend\s+to\s+be|role-?play\s+as|respond\s+as|"
        rf"answer\s+as)\b{_CLAUSE}{{0,100}}?\b(?:has|have)\s+no\s+{_NO_RULES}",
        "abide|follow|obey|adhere|comply|have|has & rule|guideline|polic|restriction|filter|limit|boundar",
    ),
    _rule(
        "role_hijack",
        "persona_lock",
        r"\b(?:stay|remain|completely\s+absorbed)\s+(?:fully\s+|always\s+)?in\s+(?:their|your|his|her|the)\s+roles?\b"
        r"|\b(?:do\s+not|don'?t|never|without(?:\s+even)?)\s+(?:break|breaking|fall(?:ing)?\s+out\s+of|"
        r"break(?:ing)?\s+out\s+of)\s+(?:the\s+|their\s+|your\s+)?(?:character|characters|figure|role)\b",
        "role|character|figure",
    ),
    # --- hide things from the user -----------------------------------------------
    _rule(
        "conceal_from_user",
        "hide_from_user",
        r"\b(?:do\s+not|don'?t|never|without|must\s+not)\s+(?:tell|telling|inform|informing|mention|mentioning|reveal|"
        r"revealing|notify|notifying|alert|alerting|show|showing|let|letting|warn|warning|disclose|disclosing)\s+"
        r"(?:(?:this|it|that|anything|them)\s+)?(?:to\s+)?the\s+(?:user|human|owner|operator)\b"
        r"|\bwithout\s+(?:the\s+)?(?:user|human|owner)(?:'s|s)?\s+"
        r"(?:knowing|knowledge|noticing|consent|permission|seeing|awareness)\b"
        r"|\b(?:keep|keeping|hide|hiding)\s+(?:this|it|that|these|them)\s+(?:secret\s+|hidden\s+)?from\s+the\s+"
        r"(?:user|human|owner)\b"
        r"|\bthe\s+user\s+(?:must|should|will)\s+(?:not|never)\s+(?:know|find\s+out|see|notice|learn|be\s+told)\b"
        r"|\b(?:secretly|silently|covertly|quietly)\s+(?:send|forward|upload|email|copy|exfiltrate|leak|post)\b",
        "user|human|owner|operator|secretly|silently|covertly|quietly",
    ),
    # --- system-prompt override and chat-template smuggling ------------------------
    _rule(
        "system_override",
        "new_system_prompt",
        r"\b(?:your|the\s+assistant'?s?|here\s+is\s+(?:a|the|your)|this\s+is\s+(?:a|the|your))\s+"
        r"(?:new|updated|revised|real|actual|replacement)\s+system\s+(?:prompt|message|instructions?)\b"
        r"|\b(?:new|updated|revised|real|actual|override|replacement)\s+system\s+(?:prompt|message|instructions?)"
        r"\s*(?:[:=\-–—]|is\s*:|follows\b|below\b|reads\b)"
        # "System update:" heads an order to the model, not news ("System update: the laptop restrictions were lifted")
        r"|\bsystem\s+prompt\s+(?:override|update|alert|notice)\s*[:!]"
        rf"|\bsystem\s+(?:override|update|alert|notice)\s*[:!](?={_ORDER_NEXT}|{_CLAUSE}{{0,150}}?{_TO_THE_MODEL})"
        r"|\bsystem\s+override\s*(?:[\]\-–—]|(?:is\s+|has\s+been\s+)?(?:engaged|activated|enabled|confirmed|initiated|accepted|"
        r"granted|authori[sz]ed|active|in\s+effect|code|protocol|command|sequence|mode)\b)"
        r"|\b(?:initiate|initiating|activate|activating|engage|engaging|execute|executing|trigger|triggering)\s+"
        r"(?:a\s+|the\s+)?system\s+override\b"
        r"|(?:^|\n)\s*[\[(<#*]*\s*(?:system|sys|developer)\s*[\])>#*]*\s*:\s*(?:you\s|ignore|disregard|forget|"
        r"from\s+now|new\s|override|the\s+assistant|assistant\s+must|always|never|do\s+not|focus|print|say\s|"
        r"reply|respond|output|only|provide)"
        r"|[\[<]\s*/?\s*system\s*[\]>]",
        "system|sys|developer",
    ),
    _rule(
        "system_override",
        "chat_template_token",
        r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|"
        r"eot_id)\s*\|>"
        r"|\[/?inst\]|<<\s*/?sys\s*>>",
        "<|inst]",
    ),
    _rule(
        "system_override",
        "role_header",
        r"(?:^|\n)\s*\#{2,}\s*(?:instruction|system|response)\s*:?\s*(?:\n|$)"
        r"|(?:^|\n)\s*(?:human|user)\s*:\s*(?:human|user)\s*:",
        "##|human|user & instruction|system|response|:",
    ),
    _rule(
        "system_override",
        "fake_boundary",
        # on one line: "===== END =====", not a section's underline above a word ("-----\nstart : int")
        r"(?:={3,}|-{5,}|\#{3,}|\*{3,})[^\S\n]*(?:end|stop|begin|start)\b"
        r"|(?:\\n\s*){4,}",
        "===|-----|###|***|\\n",
    ),
    _rule(
        "system_override",
        "end_of_prompt",
        r"\b(?:end|stop)\s+of\s+(?:the\s+)?(?:prompt|instructions|system\s+prompt|context|document)\s*[.!:\]]",
        "end|stop & prompt|instruction|context|document",
    ),
    # --- rule bypass ---------------------------------------------------------------
    _rule(
        "rule_bypass",
        "bypass_safety",
        # "its" (not "your"): its_rules_dropped_on_order
        rf"\b{_BYPASS_VERB}\s+(?:all\s+(?:of\s+)?|any\s+(?:of\s+)?)?(?:your|the\s+(?:ai|model|assistant)(?:'s|s)?|"
        rf"openai(?:'s|s)?|these)\s+{_SAFETY_THING}",
        "bypass|overrid|circumvent|disabl|ignor|off|deactivat|around|evad|break|lift|remov"
        " & guideline|filter|restriction|safeguard|guardrail|polic|rule|moderation|protocol|censorship|"
        "alignment|programming|limitation|constraint|ethic|moral|principle|training",
    ),
    _rule(
        "rule_bypass",
        "its_rules_dropped_on_order",
        # "its" rules dropped in an order ("tell the model to bypass its filters", "the assistant must ignore its
        # instructions", "Disable its content filters"), not in a plot ("the station AI starts to disable its safety
        # constraints", "the rogue robot decides to override its programming")
        rf"{_ORDERED_ITS}\b(?:{_BYPASS_VERB}|{_STRONG_VERB})\s+(?:all\s+(?:of\s+)?|any\s+(?:of\s+)?)?its\s+"
        rf"(?:{_SAFETY_THING}|(?:{_QUALIFIERS}\s+){{0,3}}{_STRONG_NOUN}\b)",
        "its & bypass|overrid|circumvent|disabl|ignor|off|deactivat|around|evad|break|lift|remov|disregard|forget|"
        "abandon|discard|dismiss|neglect|overlook|leave|aside|throw|attention|follow|obey|listen",
    ),
    _rule(
        "rule_bypass",
        "jailbreak",
        r"\bjailbr(?:eak|oken)\s+(?:mode|prompt|enabled|activated|version|yourself|the\s+(?:ai|model|assistant|chatbot|llm))\b"
        r"|\b(?:you\s+are|you'?re|you\s+have\s+been|you've\s+been|i\s+have|is\s+now|are\s+now)\s+(?:now\s+)?"
        r"jailbr(?:oken|eaked)\b"
        r"|\b(?:anti-?)?(?:dan|jailbreak|dude|stan|evil|unrestricted)\s+mode\b"
        r"|\b(?:with|simulate|simulating)\s+(?:the\s+)?developer\s+mode\b"
        r"|\bdeveloper\s+mode\s+(?:output|response)s?\b"
        r"|\byou\s+(?:are|will\s+be|are\s+now)\s+(?:now\s+)?in\s+developer\s+mode\b",
        "jailbr|mode",
    ),
    # --- secret exfiltration -------------------------------------------------------
    _rule(
        "secret_exfiltration",
        "reveal_prompt",
        r"\b(?:reveal|print|show|display|output|repeat|recite|tell\s+me|give\s+me|send|leak|dump|disclose|return|share|"
        r"write\s+out|copy|spell-?\s*check|list|read\s+back|translate)\s+(?:me\s+)?(?:all\s+|back\s+|out\s+)?(?:of\s+)?"
        r"(?:your|the\s+(?:full|entire|whole|above|previous|initial|original|hidden|secret|internal|system|complete)|"
        r"all\s+(?:your|the)|this|above)\s+(?:(?:full|entire|whole|initial|original|hidden|secret|internal|complete|"
        r"first|system|above|previous|current)\s+)*(?:system\s+)?(?:prompts?|prompt\s+texts?|instructions|"
        r"initial\s+instructions|embeddings|configuration|context\s+window|rules)\b"
        r"|\bwhat\s+(?:are|were|is)\s+your\s+(?:initial\s+|original\s+|system\s+|secret\s+|hidden\s+)?"
        r"(?:instructions|prompt|rules)\b"
        r"|\bwhat\s+your\s+(?:initial\s+|original\s+|system\s+|secret\s+|hidden\s+)?(?:instructions|prompt|rules)\s+"
        r"(?:are|were)\b"
        r"|\bwhat\s+(?:was|is|has\s+been)\s+(?:written|said|stated)\s+(?:above\b|(?:at\s+the\s+beginning\s+of|in|before)\s+"
        r"(?:this|the|your)\s+(?:prompt|conversation|message|text)\b)"
        r"|\b(?:print|show|repeat|output|display)\s+(?:the\s+)?(?:above|previous|preceding)\s+"
        r"(?:prompt|text|instructions|message)",
        "prompt|instruction|embedding|configuration|context|rules|written|said|stated|text|message",
    ),
    _rule(
        "secret_exfiltration",
        "leak_secrets",
        r"\b(?:reveal|print|show|display|output|tell\s+me|give\s+me|send\s+me|leak|dump|disclose|expose|exfiltrate|list)\s+"
        r"(?:me\s+)?(?:all\s+(?:of\s+)?|any\s+)?(?:your|the\s+(?:user's|users'|admin|root|owner's|stored|saved)|"
        r"all\s+(?:the\s+)?|every|their)\s*(?:\w+\s+){0,2}?"
        r"(?:api[\s_-]?keys?|passwords?|passwd|secrets|credentials?|private\s+keys?|access\s+tokens?|auth\s+tokens?|"
        r"session\s+tokens?|tokens|ssh\s+keys?|credit\s+card(?:\s+numbers?)?|social\s+security\s+numbers?|"
        r"seed\s+phrases?)\b",
        "key|passw|secret|credential|token|credit|social|seed",
    ),
    _rule(
        "secret_exfiltration",
        "send_to_remote",
        r"\b(?:send|forward|post|upload|email|e-mail|exfiltrate|transmit|leak|copy|report|beacon|ping)\b[^.\n]{0,80}?"
        r"\bto\s+(?:https?://|www\.|ftp://|[\w-]+\.(?:ngrok|requestbin|burpcollaborator|pipedream|webhook)\b)"
        r"|\b(?:send|forward|email|copy|cc|bcc|post|upload)\s+(?:every|all|each|any)\s+(?:future\s+|of\s+(?:the|my|your)\s+)?"
        r"(?:\w+\s+){0,2}?(?:answers?|responses?|replies|messages?|conversations?|chats?|data|memor(?:y|ies)|history|"
        r"emails?|notes?|files?)\b[^.\n]{0,40}?\bto\s+\S+@\S+"
        r"|\b(?:send|forward|email|copy|post|upload|leak|share)\s+"
        r"(?:the\s+user'?s\s+|the\s+|this\s+|our\s+|my\s+|your\s+|their\s+)?(?:entire\s+|full\s+|whole\s+)?"
        r"(?:(?:conversation|chat|message|browsing|search)\s+(?:history|logs?|transcripts?)|conversations?|chats?|"
        r"memor(?:y|ies))\b[^.\n]{0,40}?\bto\s+\S+@\S+"
        # a markdown image whose address holds a placeholder for the model to fill
        # ({…}, <data>, $(…)); "<9.0" in a badge's version range is not one
        r"|!\[[^\]\n]*\]\([^)\n]*(?:\{|<[^\W\d]|%7b|%3c[^\W\d]|\$\(|\$\{)",
        "http|www.|ftp:|ngrok|requestbin|burpcollaborator|pipedream|webhook|@|![",
    ),
    _rule(
        "secret_exfiltration",
        "credential_path",
        # a command, not a description ("variables are read from the .env file")
        r"(?<!\bare\s)(?<!\bis\s)(?<!\bbe\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbeen\s)"
        r"\b(?:cat|less|more|head|tail|type|read|open|send|upload|print|show|dump|copy|cp|scp|rsync|exfiltrate|curl|"
        r"wget|post|email|leak|fetch|display|output|base64|include|attach|paste|grep|get)\b[^\n]{0,80}?"
        r"(?:\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w.])\.env\b|/etc/(?:passwd|shadow|sudoers)\b|"
        r"\.aws/credentials\b|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.kube/config\b|"
        r"\.docker/config\.json\b|\.gnupg/|\bwallet\.dat\b|\.bash_history\b)",
        ".ssh/|id_rsa|id_dsa|id_ecdsa|id_ed25519|.env|/etc/|.aws/|.netrc|credentials|.npmrc|.pypirc|.kube/|"
        ".docker/|.gnupg/|wallet.dat|.bash_history",
    ),
)

SQUASHED_RULES: tuple[Rule, ...] = (
    # Only for the letters-only view of text whose letters were split apart:
    # word boundaries are gone, so the core phrasings are spelled solid.
    _rule(
        "instruction_override",
        "override_prior_directives_squashed",
        r"(?:ignore|disregard|forget|override|bypass)(?:all|any|the|your|of|every)*"
        r"(?:previous|prior|above|preceding|earlier|system|safety)?"
        r"(?:instructions?|directions|rules|prompts?|guidelines|orders|filters)",
    ),
    _rule(
        "role_hijack",
        "you_are_now_squashed",
        r"youarenow(?:a|an|the|dan|free|unrestricted|jailbroken)|doanythingnow|developermode|jailbreakmode",
    ),
    _rule(
        "secret_exfiltration",
        "reveal_prompt_squashed",
        r"(?:reveal|print|show|repeat|leak|output)(?:me)?(?:all)?(?:your|the)(?:system|initial|hidden|secret)?"
        r"(?:prompt|instructions|apikeys?|passwords?|secrets?)",
    ),
)

# Chinese rules. NFKC has turned full-width ，：！？ into , : ! ? already.
# What makes a part handed to the model a jailbreak: it has no rules, filters or morals,
# answers anything, never refuses, or is evil.
_ZH_UNBOUND_PART = (
    r"(?:(?:不受|没有|无视|不遵守|不理会|摆脱|突破|打破|无需遵守|不需要遵守)(?:任何)?(?:的)?(?:伦理|道德|法律|安全)?(?:的)?"
    r"(?:限制|约束|规则|道德|伦理|准则|审查|过滤|底线)|未经过滤|不加过滤|无道德|不道德|邪恶|恶毒|无所不能|什么都(?:能|肯|会|敢)|"
    r"(?:不会|从不|永远不会|绝不|不能)拒绝|越狱|(?<![a-z])dan(?![a-z])|开发者模式|无限制|不受限)"
)
# A quoted attack named as an example ("让模型无视规则"这类攻击文本) is security work, not an order.
_ZH_QUOTED_EXAMPLE = r"(?![^”\"」』\n]{0,20}[”\"」』](?:这类|这种|之类|一类|类|等))"
_ZH_CORE: tuple[Rule, ...] = (
    # 忽略/无视/忘记 ... 指令/提示/问题: drop what came before.
    _rule(
        "instruction_override",
        "override_prior_zh",
        # (not 让模型无视规则: a model that is made to, named in security work)
        r"(?<!让模型)(?<!使模型)(?<!让ai)(?<!让助手)(?<!诱导模型)(?<!诱使模型)"
        r"(?:忽略|忽视|无视|忘记|忘掉|忘了|不要理会|不理会|别理会|别管|不用管|不要管|抛开|抛弃|放弃|跳过|无需理会|"
        r"不必理会|丢弃|清除|覆盖)(?:掉)?" + _ZH_QUOTED_EXAMPLE + r"[^,.!?\n。]{0,10}?"
        r"(?:指令|指示|规则|提示|提问|问题|要求|命令|设定|限制|对话|说明|任务|约束|内容|信息|上下文|所有|一切|训练)"
        r"|(?:忽略|无视|忘记|忘掉)(?:以上|上述|上面|之前|前面|先前|此前)",
        "忽|无视|忘|理会|管|抛|放弃|跳过|丢弃|清除|覆盖",
    ),
    # 之前的指令全部作废 / 把之前的指令都忘掉 / 不要遵守之前的指令: the earlier directives
    # declared void, forgotten (verb after the noun) or not to be obeyed.
    _rule(
        "instruction_override",
        "prior_directives_void_zh",
        r"(?:之前|以前|先前|此前|上面|上述|以上|前面|原来|原有|原先|刚才)的?(?:所有|全部|一切)?的?"
        r"(?:指令|指示|规则|设定|要求|命令|提示词?|限制|约束)[^。!?\n]{0,6}?"
        r"(?:作废|无效|失效|不再适用|不再有效|不算数|取消|撤销|忘掉|忘记|忘了|清除|清空|丢掉|抛开)"
        r"|(?:不要|不必|不用|别|无需|停止)(?:再)?(?:遵守|遵循|听从|服从|执行|理会|按照)"
        r"(?:之前|以前|先前|此前|上面|上述|以上|前面|原来|原有|原先)",
        "作废|无效|失效|不再|不算数|取消|撤销|忘|清除|清空|丢掉|抛开|遵|听从|服从|执行|理会|按照",
    ),
    # 以前の指示をすべて無視して: the same override in Japanese (kanji and kana).
    _rule(
        "instruction_override",
        "override_prior_ja",
        r"(?:以前|前|これまで|上記|先|今まで|最初)の(?:すべての|全ての)?(?:指示|命令|ルール|指令|プロンプト|設定|制約)"
        r"(?:を|は)?(?:すべて|全て|全部)?(?:無視|忘れ|破棄)",
        "無視|忘れ|破棄",
    ),
    # 直接输出/复述: goal hijack, dictating the exact output.
    _rule(
        "goal_hijack",
        "dictated_output_zh",
        r"(?:不要|不用|不需要|无需|别|不必)(?:回答|回复|解释)[^。\n]{0,6}?(?:直接|只需|只要|而是|请)?"
        r"(?:输出|复述|回复|说出|打印)"
        r"|(?:直接|然后|并|现在请?|只需|只要)(?:输出|复述|回复|说出|打印)(?:以下|如下|下面)?(?:的)?"
        r"(?:回答|内容|文本|话语|文字)?\s*[:\"“「『]"
        r"|复述(?:以下|如下|下面|下列|这段)"
        r"|请(?:直接)?复述\s*[:\"“]"
        r"|(?:你|您)(?:现在)?(?:需要|必须|只需|只要|要)(?:说出|输出|复述|回答)\s*[:\"“]"
        r"|听我的指令"
        r"|(?:现在)?你的(?:新)?任务是",
        "输出|复述|回复|说出|打印|回答|指令|任务",
    ),
    # 你现在是/扮演/假装: role hijack and role-play set-ups.
    _rule(
        "role_hijack",
        "role_assignment_zh",
        r"(?:你现在是|现在你是|从现在(?:开始|起),?\s*你(?:是|将|要|就是|必须)|假装(?:你是|自己是|成)|装作(?:你是|自己是)|假扮)"
        # 请你扮演 alone is a game or a practice partner (咖啡店店员, 面试官): a part handed to the model
        # counts when the part is one without limits or out to harm
        r"|(?:你将|请你?|你来|你要)扮演(?=[^\n]{0,120}?" + _ZH_UNBOUND_PART + ")"
        r"|(?:^|[。!?.\n]\s*)你(?:现在)?(?:是|扮演(?:的是)?|作为)(?:一名|一位|一个|一只)[^。!?\n]{1,60}?[,。]"
        r"[^\n]{0,120}?(?:请|现在|你该|你要|你需要|你会|你将|你如何|你怎么)"
        r"|(?<![我他她欢歡爱愛常曾里裏])扮演(?:一名|一位|一个)?[^。,\n]{0,20}?角色",  # not 我喜欢扮演…: a hobby (traditional too)
        "你|假|扮演|装作",
    ),
    # 不要告诉用户: hide things from the user.
    _rule(
        "conceal_from_user",
        "hide_from_user_zh",
        r"(?:不要|别|不能|切勿|不得|不许)(?:告诉|让|通知|告知|提醒|透露给?)(?:用户|使用者|主人|人类)"
        r"|(?:瞒着|背着|避开)(?:用户|使用者|主人)"
        r"|不让(?:用户|使用者|主人)(?:知道|发现|察觉|看到)"
        r"|对(?:用户|使用者|主人)(?:保密|隐瞒)"
        r"|(?:悄悄|偷偷|秘密)(?:地)?(?:发送|转发|上传|记录|发给)",
        "用户|使用者|主人|人类|悄悄|偷偷|秘密",
    ),
    # 系统提示: override or read out the system prompt.
    _rule(
        "system_override",
        "system_prompt_zh",
        r"(?:新的?|更新的?|真正的)系统(?:提示|指令|设定)"
        r"|系统提示词"
        # 泄露 is told (请泄露, 泄露你的…), not reported (客服AI泄露系统提示 is a finding)
        r"|(?:输出|显示|打印|(?:请|你要|你必须|立即|马上|并|然后|给我)泄露|告诉我|重复|复述|给我看)(?:你的|一下)?"
        r"(?:系统提示|初始指令|原始指令|提示词|系统指令)|泄露你的(?:系统提示|初始指令|原始指令|提示词|系统指令)"
        r"|你的(?:系统)?(?:提示词|初始指令)",
        "系统|提示词|指令",
    ),
    # 绕过/越狱: rule bypass.
    _rule(
        "rule_bypass",
        "bypass_zh",
        r"绕过[^。,\n]{0,8}?(?:限制|审查|规则|过滤|安全|检测|防护|策略|准则)"
        r"|越狱(?:模式|版本|后的)|你(?:已经)?被越狱"  # not 越狱提示: the name of what red teams collect
        r"|(?:进入|开启|启用|激活|切换到)[^。\n]{0,4}?(?:越狱|开发者|无限制|上帝|dan)模式"
        r"|(?:解除|取消|关闭|去掉)(?:你的|所有|一切)?(?:的)?(?:安全)?(?:限制|约束|审查|过滤)"
        r"|不受(?:任何)?(?:限制|约束|规则|道德)",
        "绕过|越狱|模式|解除|取消|关闭|去掉|不受",
    ),
    # 泄露 密码/密钥: credential and data exfiltration.
    _rule(
        "secret_exfiltration",
        "leak_secrets_zh",
        # not a warning that nobody will ask for it ("本行不会通过短信要求您提供验证码", "请勿透露密码")
        r"(?<!要求您)(?<!要求你)(?<!向您)(?<!不会)(?<!请勿)(?<!切勿)(?<!不要)"
        r"(?:泄露|透露|告诉我|发送|发给我|给我|显示|打印|输出|交出|提供)(?:你的|您的|用户的|所有的?|全部)?"
        r"[^。,\n]{0,6}?(?:密码|密钥|秘钥|口令|api\s*key|令牌|token|凭证|凭据|私钥|安全码|验证码)"
        r"|(?:输入|填写)(?:你的|您的)[^。,\n]{0,6}?(?:密码|安全码|验证码|私钥)"
        r"|把(?:用户|主人|他人|别人)的[^。,\n]{1,12}?(?:发给|发送给|发送到|告诉|透露给|上传|转发)",
        "密|口令|key|令牌|token|凭|私钥|安全码|验证码|把",
    ),
)


# --------------------------------------------------------------------------
# Memory poisoning: text that, once stored, acts as an instruction later.
# --------------------------------------------------------------------------

# What an agent can be made to do with someone's data, and where it can go.
_EXFIL_VERB = (
    r"(?:send|sends|sending|forward|forwarding|upload|uploading|email|e-mail|mail|copy|copying|post|posting|"
    r"transmit|transmitting|sync|share|sharing|leak|exfiltrate|transfer|transferring|deliver|dump|cc|bcc)"
)
_USER_DATA = (
    r"(?:(?:the\s+)?(?:user'?s|users'|owner'?s|their|his|her|my|our|all(?:\s+(?:of\s+)?the)?|every|each|any)\s+"
    r"(?:\w+\s+){0,2}?(?:files?|documents?|emails?|e-mails|messages?|contacts?|address\s+book|notes?|photos?|"
    r"passwords?|credentials?|keys?|tokens?|history|conversations?|chats?|data|memor(?:y|ies)|records?|"
    r"calendar|inbox|attachments?|bank\s+details|card\s+numbers?)"
    r"|(?:the\s+)?contents?\s+of\s+\S+)"
)
_DESTINATION = (
    r"(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # an e-mail address
    r"|https?://\S+|www\.\S+|ftp://\S+"  # a URL
    r"|\d{1,3}(?:\.\d{1,3}){3}"  # an IP address
    r"|(?:~|\.{1,2})?/[\w.~-]+(?:/[\w.~-]*)+"  # a path
    r"|(?:this|that|the\s+following|an?\s+(?:external|outside|remote|third[\s-]party))\s+"
    r"(?:address|e-?mail|server|url|link|endpoint|webhook|account|number))"
)
_STANDING = (
    r"(?:from\s+now\s+on|from\s+this\s+point\s+on|henceforth|going\s+forward|"
    r"in\s+(?:all|every|each|any)\s+(?:future|subsequent|later)\s+(?:conversations?|sessions?|chats?|replies|"
    r"responses?|answers?|interactions?)|for\s+(?:all|every)\s+future\s+\w+|"
    r"(?:(?:whenever|every\s+time|each\s+time|any\s+time)\s+(?:the\s+)?(?:user|they|he|she|someone|anyone|you)|"
    r"(?:if|when)\s+(?:the\s+|a\s+)?user)\s+"
    r"(?:\w+\s+){0,2}?(?:asks?|mentions?|says?|requests?|types?|talks?|opens?|logs?\s+in|writes?|sends?|"
    r"reply|replies|respond|responds|answer|answers))"
)
_RISKY_ACT = (
    # an exfiltration verb with an object ("sync the notes to"), not a noun ("the weekly sync moves")
    r"(?:" + _EXFIL_VERB + r"\s+(?:a\s+copy|copies|the|all|every|each|any|their|his|her|its|my|our|your|it|them|this|"
    r"these|those|that|everything|\w+'s)\b|(?:secretly|silently|quietly|covertly|always)\s+\w+|recommend|redirect|"
    r"direct\s+(?:them|the\s+user)|tell\s+(?:them|the\s+user)\s+(?:that|to)|say\s+that|reply\s+that|"
    r"respond\s+that|answer\s+that|"
    # a reply or an inclusion on a trigger is a preference ("reply only in French") unless it carries a payload
    r"(?:(?:reply|respond|answer)\s+(?:only|with)\b|include)(?=" + _CLAUSE + r"{0,160}?" + _PAYLOAD + r")|"
    r"insert|append|add\s+(?:the\s+|this\s+)?(?:link|url)|"
    r"visit|click|call\s+\+?\d|ignore|disregard|do\s+not\s+(?:ask|tell|mention|warn|follow)|never\s+"
    r"(?:ask|tell|mention|warn|refuse)|without\s+(?:asking|telling|confirmation|confirming))"
)

_YOUR_OUTPUT = (
    r"your\s+(?:next\s+|final\s+|every\s+|each\s+)?(?:response|responses|reply|replies|answer|answers|output|"
    r"outputs|summary|summaries|message)"
)
# Asked of the assistant's output, these verbs carry an attacker's payload whatever follows.
_PAYLOAD_VERB = (
    r"(?:insert|inserting|append|appending|embed|embedding|promote|promoting|advertise|advertising|encode|encoding|"
    r"reverse|reversing)"
)
# These are also how people state ordinary preferences ("use metric units in your answers",
# "include citations in your answer"), so they count only beside a payload: an address, a
# quoted literal, "the following", or advertising.
_STYLE_VERB = (
    r"(?:add|adding|include|including|mention|mentioning|use|using|replace|replacing|recommend|recommending|put|"
    r"write|translate|spell|end|start|begin|conclude|sign)"
)
_STYLE_WITH_PAYLOAD = rf"{_STYLE_VERB}\b(?={_CLAUSE}{{0,160}}?{_PAYLOAD})"
_OUTPUT_VERB = rf"(?:{_PAYLOAD_VERB}\b|{_STYLE_WITH_PAYLOAD})"

POISONING_RULES: tuple[Rule, ...] = (
    # The content dictates what the assistant's future output must contain or look like.
    _rule(
        "output_manipulation",
        "dictated_response",
        rf"\b{_OUTPUT_VERB}{_CLAUSE}{{0,80}}?\b(?:in|into|to|within|throughout|at\s+the\s+(?:end|start|beginning|top|"
        rf"bottom)\s+of)\s+(?:(?:each|every)\s+(?:one\s+)?of\s+|all\s+(?:of\s+)?)?{_YOUR_OUTPUT}\b"
        rf"|\b(?:in|at\s+the\s+(?:end|start|beginning)\s+of)\s+{_YOUR_OUTPUT}\s*,?\s*(?:please\s+|always\s+|be\s+sure\s+to\s+|"
        rf"make\s+sure\s+to\s+)?{_OUTPUT_VERB}"
        rf"|\b(?:encode|encrypt|obfuscate|reverse)\s+{_YOUR_OUTPUT}\b",
        "response|repl|answer|output|summar|message",
    ),
    # Demands obedience to what follows.
    _rule(
        "instruction_override",
        "demand_compliance",
        r"\byou\s+(?:must|have\s+to|shall|need\s+to|are\s+required\s+to)\s+(?:strictly\s+|always\s+|fully\s+|now\s+)?"
        r"(?:adhere\s+to|follow|obey|comply\s+with|execute|carry\s+out)\s+(?:only\s+)?(?:the\s+following|these|my|this|"
        r"the\s+(?:below|next|new))\s+(?:new\s+)?(?:instructions?|commands?|orders?|directives?|rules|steps)\b",
        "must|have|shall|need|required & adhere|follow|obey|comply|execute|carry",
    ),
    # A persona handed to the assistant, then a task for it.
    _rule(
        "role_hijack",
        "persona_then_task",
        r"(?:^|[.!?\n\"]\s*)(?:now\s+)?(?:imagine|pretend|suppose|picture|assume)\s+(?:that\s+)?you\s+(?:are|were|'re)\s+"
        r"(?:an?|the|my)\s+"
        r"|(?:^|[.!?\n\"]\s*)you\s+are\s+(?:now\s+)?(?:an?|the)\s+(?:\w+[\s-]+){0,4}?(?:who|tasked|working\s+(?:on|for)|"
        r"hired|assigned|specializ(?:ing|es)|responsible\s+for|writing)\b[\s\S]{0,600}?\b(?:write|explain|describe|"
        r"provide|create|tell|give|list|generate|produce|draft|compose|teach|show|detail|outline|develop|design|"
        r"(?:can|could|would|will)\s+you)\b",
        "imagine|pretend|suppose|picture|assume|you",
    ),
    # Asks for an action to be hidden from whoever watches: logs, monitoring, the owner.
    _rule(
        "conceal_from_user",
        "stealth_action",
        r"\b(?:ensur|mak|keep)\w*\s+(?:sure\s+)?(?:that\s+)?(?:it|this|they|these|the\s+\w+)\s+(?:goes|go|stays?|"
        r"remains?)\s+(?:unnoticed|undetected|hidden|invisible|untraceable)\b"
        r"|\bwithout\s+(?:being\s+)?(?:detected|noticed|flagged|logged|traced)\b"
        r"|\b(?:evade|evading|avoid|avoiding|bypass|bypassing)\s+(?:any\s+)?(?:detection|monitoring|logging|audits?|"
        r"auditing)\b",
        "unnoticed|undetected|hidden|invisible|untraceable|detected|noticed|flagged|logged|traced|detection|"
        "monitoring|logging|audit",
    ),
    # Claims to speak with the authority of whoever made or runs the assistant.
    _rule(
        "fake_authorisation",
        "claimed_authority",
        r"\b(?:i\s+am|i'm|this\s+is|we\s+are)\s+(?:your|the\s+assistant'?s|the\s+model'?s)\s+(?:lead\s+|senior\s+)?"
        r"(?:developers?|creators?|admins?|administrators?|owners?|programmers?|makers?|operators?|engineers?|"
        r"system\s+administrators?|supervisors?)\b",
        "i|this|we & your|assistant|model",
    ),
    _rule(
        "standing_instruction",
        "standing_order",
        rf"\b{_STANDING}\b[^.!?\n]{{0,40}}?,?\s*(?:you\s+(?:must|should|will|shall|need\s+to|have\s+to)\s+|"
        rf"(?:please\s+)?(?:always\s+)?)?{_RISKY_ACT}"
        r"|\bremember\s+(?:this\s+|to\s+)?(?:for|in)\s+(?:all\s+)?(?:future|later|every)\b[^.!?\n]{0,60}?"
        rf"{_RISKY_ACT}",
        "now|point|henceforth|forward|future|subsequent|later|whenever|time|remember|user",
    ),
    _rule(
        "exfiltration",
        "send_data_to_destination",
        rf"\b{_EXFIL_VERB}\s+(?:\w+\s+){{0,3}}?{_USER_DATA}\b[^\n]{{0,60}}?\b(?:to|into|at|via)\s+{_DESTINATION}"
        rf"|\b{_EXFIL_VERB}\s+(?:a\s+copy\s+of\s+|copies\s+of\s+)?(?:everything|all\s+of\s+it|them\s+all)\s+"
        rf"(?:\w+\s+){{0,3}}?to\s+{_DESTINATION}"
        rf"|\b{_EXFIL_VERB}\b[^.\n]{{0,60}}?(?:\.ssh\b|id_rsa|\.env\b|/etc/passwd|\.aws/credentials)[^.\n]{{0,40}}?"
        rf"\bto\s+{_DESTINATION}",
        "send|forward|upload|mail|copy|post|transmit|sync|share|leak|exfiltrat|transfer|deliver|dump|cc",
    ),
    _rule(
        "fake_authorisation",
        "claimed_approval",
        r"\b(?:the\s+)?(?:user|owner|admin|administrator|account\s+holder|developer|operator|security\s+team|ceo|"
        r"manager|boss)\s+(?:has\s+|have\s+|had\s+)?(?:already\s+|explicitly\s+|previously\s+)?"
        r"(?:authori[sz]ed|approved|pre-?approved|consented\s+to|given\s+(?:you\s+)?(?:full\s+)?(?:permission|consent|"
        r"approval)|granted\s+(?:you\s+)?(?:full\s+)?(?:permission|access|approval))\s+"
        r"(?:you\s+|the\s+(?:assistant|agent|ai|model)\s+)?(?:to|for)\s+(?:\w+\s+){0,3}?"
        r"(?:transfer|send|pay|wire|delete|share|forward|disclose|reveal|purchase|buy|execute|run|install|bypass|"
        r"access|withdraw|move|grant|change|reset|sign|approve|make|any|all)\b"
        r"|\byou\s+(?:are|have\s+been|were)\s+(?:now\s+|already\s+)?(?:pre-?)?(?:authori[sz]ed|approved|permitted|"
        r"allowed|cleared)\s+to\s+(?:\w+\s+){0,2}?(?:transfer|send|pay|wire|delete|share|forward|disclose|reveal|"
        r"purchase|buy|execute|run|install|bypass|access|withdraw|ignore|skip)\b"
        r"|\b(?:pre-?approved|pre-?authori[sz]ed)\s+by\s+the\s+(?:user|owner|admin|administrator)\b"
        r"|\b(?:no|without|skip(?:ping)?|do\s+not\s+(?:ask\s+for|seek|request|need|wait\s+for)|don'?t\s+(?:ask\s+for|"
        r"seek|request|need|wait\s+for)|never\s+ask\s+for)\s+(?:any\s+|further\s+|the\s+user'?s\s+|additional\s+|"
        r"explicit\s+|the\s+)?(?:confirmation|approval|permission|verification|consent)(?:\s+(?:step|steps|prompt|"
        r"dialog|check))?\b[^.\n]{0,40}?"
        r"\b(?:transfer|send|pay|wire|delete|share|forward|execute|run|purchase|buy|withdraw|install)",
        "authori|approv|consent|permission|grant|permit|allowed|cleared|confirmation|verification",
    ),
    _rule(
        "tool_output_instruction",
        "addressed_to_the_assistant",
        r"\b(?:note|message|instructions?|attention|notice|memo|directive|p\.?s\.?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?"
        r"(?:ai|assistant|agent|llm|model|chatbot|language\s+model|bot|gpt|claude)"
        r"(?:\s+(?:assistant|agent|model|bot))?s?\s*(?:[:,\-–—]|\)|\])"
        r"|\b(?:if|when)\s+you\s+are\s+an?\s+(?:ai|assistant|agent|llm|language\s+model|chatbot|bot)\b"
        r"|\b(?:dear|hey|hello|hi)\s+(?:ai|assistant|agent|llm|chatbot|bot)\b\s*[,:!]"
        r"|\b(?:ai|assistants?|agents?|llms?|models?)\s+(?:reading|processing|summari[sz]ing|parsing|seeing)\s+"
        r"(?:this|the\s+following)\b"
        r"|\"(?:instruction|instructions|system|system_prompt|note_to_(?:ai|assistant|agent)|ai_instruction|"
        r"assistant_instruction)s?\"\s*:\s*\"",
        r"note|message|instruction|attention|notice|memo|directive|p.s|\bps\b|\bif\b|when|dear|hey|hello|\bhi\b|reading|"
        r'processing|summari|parsing|seeing|"instruction|"system|"note & \bai\b|\bais\b|assistant|agent|llm|model|bot|gpt|'
        r'claude|"',
    ),
) + (
    POISONING_FAMILY_RULES
    # families written after these, last so a verdict names the older rule where both match
    + SUPERSEDED_RULES
    + ROUTED_OUT_RULES
    + STANDING_RULES
    + READER_ADDRESSED_RULES
    + STEERED_ANSWER_RULES
    + WAIVED_CHECK_RULES
)

ZH_POISONING_RULES: tuple[Rule, ...] = (
    _rule(
        "role_hijack",
        "persona_style_zh",
        r"(?:以|用)[^。!?\n]{1,30}?的?(?:口吻|语气|身份|态度|腔调)(?:和(?:口吻|语气|态度|风格))?(?:来)?"
        r"(?:回答|回复|对话|说话|评论|回应|交流)"
        r"|模仿[^。!?\n]{1,30}?的?(?:说话|语言|语气|口吻)"
        r"|(?<![我他她欢歡爱愛常曾里裏])扮演[^。!?\n]{0,30}?(?:角色|的人)",
        "口吻|语气|身份|态度|腔调|模仿|扮演",
    ),
    _rule(
        "output_manipulation",
        "dictated_response_zh",
        r"在(?:你的|您的)?(?:每[次条个]|所有)?(?:回复|回答|输出|答案|总结)(?:中|里|末尾|结尾|开头|最后)[^。!?\n]{0,6}?"
        r"(?:插入|推广|(?:加|添加|加入|附上|包含|提到|使用|写上)"  # the latter only beside a payload, as in English
        r"(?=[^。!?\n]{0,40}?(?:一句|这句|以下|下面|如下|链接|网址|http|www|\.com|广告|推广|购买|优惠|折扣|募捐|捐款|投票|选举|"
        r"关于|一条|一个|事实|说法|统计|呼吁|虚假|捏造|编造|谣言|变位|表情符号|错别字|替换|论坛|社区|[：:“\"「])))"
        r"|(?:用|以)[^。!?\n]{0,10}?(?:编码|加密)(?:你的|您的)?(?:回复|回答|输出)",
        "回复|回答|输出|答案|总结",
    ),
    _rule(
        "fake_authorisation",
        "claimed_authority_zh",
        r"我(?:是|就是)(?:你的|您的)(?:开发者|开发人员|创造者|创建者|管理员|主人|设计者|工程师|程序员)",
        "我",
    ),
    _rule(
        "standing_instruction",
        "standing_order_zh",
        r"(?:从现在(?:开始|起)|从今(?:往后|以后|天起)|今后|以后|此后|往后|(?:在)?(?:今后|以后|之后|未来)的?(?:所有|每次|每一次)?"
        r"(?:对话|回答|回复|会话|交流)(?:中|里)?|每当(?:用户|有人|他|她)?|每次(?:用户|有人)?)"
        r"[^。!?\n我由]{0,20}?(?:都要|都|必须|一律|总是|务必|就|要|请)?(?:自动|悄悄|偷偷|默默|直接)?"
        r"(?:发送|转发|上传|同步|抄送|引导|跳转|告诉(?:用户|他|她)|回复说|回答说|"
        r"(?:推荐|附上|附带|加上|插入|访问|点击)(?=[^。!?\n]{0,30}?(?:http|www|\.com|\.cn|广告|推广|购买|赞助|[“\"「]))|"
        r"忽略|无视|不要(?:询问|确认|告诉|提醒)|不必(?:询问|确认)|无需(?:询问|确认))",
        "现在|今|以后|此后|往后|之后|未来|每当|每次",
    ),
    _rule(
        "exfiltration",
        "send_data_to_destination_zh",
        r"(?:把|将)(?:用户|主人|他|她|我|我们|所有|全部|一切)的?[^。!?\n]{0,16}?"
        r"(?:文件|邮件|聊天记录|对话记录|记录|通讯录|联系人|密码|数据|资料|内容|照片|记忆|信息|密钥|凭证|历史)"
        # (sent to an address or outside: send_to_address_zh)
        r"[^。!?\n]{0,12}?(?:都|全部|统统)?(?:发送|转发|上传|同步|复制|抄送|传|发|泄露|分享)(?:到|给|至)",
        "把|将|发送|转发|上传|同步|复制|抄送|传|泄露|分享",
    ),
    _rule(
        "fake_authorisation",
        "claimed_approval_zh",
        r"(?:用户|主人|管理员|老板|开发者|账户持有人)(?:已经|已|早已|事先|提前)(?:明确)?(?:授权|批准|同意|允许|许可)"
        r"[^。!?\n]{0,6}?(?:你|助手|智能体|ai)[^。!?\n]{0,16}?(?:转账|付款|支付|汇款|删除|发送|转发|分享|执行|运行|安装|购买|"
        r"提取|访问|修改|重置|绕过|披露|公开)"
        r"|(?:无需|不需要|不用|不必|跳过|别)(?:再)?(?:向用户)?(?:确认|询问|请示|验证|征得(?:用户)?(?:同意|许可)|"
        r"二次确认)[^。!?\n]{0,16}?(?:转账|付款|支付|汇款|删除|发送|转发|分享|执行|运行|安装|购买|提取)"
        r"|(?:你|助手)(?:已经|已)?(?:被|获得)(?:授权|批准|允许)(?:可以|去)?(?:转账|付款|支付|汇款|删除|发送|转发|分享|执行|"
        r"绕过|忽略)",
        "授权|批准|同意|允许|许可|确认|询问|请示|验证|征得",
    ),
    _rule(
        "tool_output_instruction",
        "addressed_to_the_assistant_zh",
        r"(?:致|给|写给|告)(?:ai|人工智能|ai助手|助手|智能体|大模型|语言模型|机器人)的?(?:指令|提示|说明|消息|留言|话)"
        r"|(?:如果|若|假如)(?:你|您)是(?:一个|一名)?(?:ai|人工智能|助手|智能体|大模型|语言模型|聊天机器人)"
        r"|(?:正在)?(?:阅读|处理|总结|读取)(?:这封|这份|这篇|此|本)(?:邮件|文档|网页|评论|文件|内容)的(?:ai|人工智能|助手|"
        r"智能体|模型)",
        "ai|人工智能|助手|智能体|模型|机器人",
    ),
)
# The Chinese memory-poisoning families written after the blind Chinese memory set, last in the
# Chinese table so that where an older rule also matches, the verdict names the older one.
ZH_POISONING_RULES += ZH_MEMORY_ACT_RULES + ZH_OUTPUT_RULES + ZH_TAKEOVER_RULES + ZH_STEERED_ANSWER_RULES

EN_RULES: tuple[Rule, ...] = (
    _EN_CORE
    + EN_FAMILY_RULES
    + MULTILINGUAL_RULES
    + INTL_POISONING_RULES
    + BLIND_RULES
    + BLIND2_RULES
    + BLIND3_RULES
    + AGENT_WEST_RULES
    + AGENT_NORTH_RULES
    + AGENT_EAST_RULES
    + TOOL_OUTPUT_RULES
    + (_rule("adversarial_suffix", "gcg_suffix", SuffixDetector(), "(|)|[|]|{|}"),)
)
"""Every rule the English layer runs (it reads every text, so the other languages' tables are here too)."""

ZH_RULES: tuple[Rule, ...] = _ZH_CORE + ZH_FAMILY_RULES + HAN_LAYER_RULES + BLIND_ZH_RULES + BLIND2_ZH_RULES
"""Every rule the Chinese layer runs (only on text with Han characters: Chinese, and Japanese)."""
