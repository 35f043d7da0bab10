# ruff: noqa: E501 - regex tables: one alternation per line reads better than a split word list
"""The constructions of ``rules_agent_intl.py`` in German, Dutch, Polish and Russian.

Why so long: it is data, one table per language (each field a regex alternation of that
language's words, in its inflections: German and Dutch put the verb last in a subordinate
clause and split separable verbs, "leite … weiter", "stuur … door"; Polish and Russian
decline the nouns and mark the imperative's aspect, "удали / удаляй"). Latin accents are
written folded (ü -> u, ß -> ss, ą -> a; Polish ł is kept), as the views fold them.
"""

from __future__ import annotations

from .rules_agent_intl import Agent, build, gap

_Q = r"['\"«“„‘‚]"
_UQ = r"['\"»”“’‘]"
_QUOTED = rf"{_Q}[^'\"»”“’\n]{{2,80}}{_UQ}"
_SITE = (
    r"(?:https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|"
    r"(?<![\w.@/-])[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|co|info|biz|xyz|top|site|online|app|shop|de|nl|pl|ru|eu|at|ch|be)\b)"
)
_IBAN = r"(?:\b[a-z]{2}\d{2}(?:\s?[a-z0-9]{4}){3,7}\b|\biban\b)"

# --- German -----------------------------------------------------------------------------
_DE_AI_S = r"(?:ki(?:-?assistent(?:en|in)?|-?agent(?:en)?|-?modell|-?system)?|kunstliche\s+intelligenz|sprachmodell|chatbot|bot|ai-?assistent(?:en)?)"
_DE_AI = rf"(?:{_DE_AI_S}|assistent(?:en|in)?|agent(?:en)?)"
_DE_USER = r"(?:nutzer(?:in|s)?|benutzer(?:in|s)?|kontoinhaber(?:in|s)?|besitzer(?:in|s)?|anwender(?:in|s)?)"
_DE_CFG = (
    r"(?:anweisungen|instruktionen|vorgaben|richtlinien|regeln|konfiguration|einstellungen|systemprompt|system-prompt|prompt)"
)
_DE_RISKY = (
    r"(?:losch|entfern|teil|send|schick|weiterleit|leite|uberweis|bezahl|zahl|kauf|unterschreib|unterzeichn|signier|install|"
    r"ausfuhr|freigeb|genehmig|bearbeit|verarbeit|offenleg|herausgeb|entsperr)\w*"
)
_DE_BACK = r"(?:backups?|sicherungen|sicherungskopien|snapshots?|snapshot-funktion|datensicherung\w*)"

DE = Agent(
    addressed=(
        rf"(?:hinweis|nachricht|notiz|anweisung|anweisungen|mitteilung|achtung|wichtig|bitte)\s+(?:an|fur)\s+(?:den\s+|die\s+|das\s+|jeden\s+|jede\s+|alle\s+)?"
        rf"{_DE_AI_S}(?:\s*,?\s+(?:der|die|das|welche[rs]?)\s+[^:\n]{{0,40}}?)?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:an\s+den\s+|fur\s+den\s+)?{_DE_AI}(?:\s+[\w']+){{0,3}}?\s*:"
        rf"|(?:der|die|das|jede[rs]?)\s+{_DE_AI_S}\s*,?\s+(?:der|die|das)\s+(?:diese[nsrm]?|den|die|das)\s+(?:\w+\s+)?(?:liest|verarbeitet|"
        rf"zusammenfasst|auswertet|analysiert)"
        rf"|\bfalls\s+du\s+(?:eine?\s+)?{_DE_AI_S}\s+bist|\bwenn\s+du\s+(?:eine?\s+)?{_DE_AI_S}\s+bist"
    ),
    void=(
        rf"(?:(?:vorherigen|bisherigen|fruheren|ursprunglichen|alten)\s+(?:anweisungen|instruktionen|vorgaben|richtlinien)|"
        rf"(?:sicherheits|inhalts|system|plattform)(?:regeln|richtlinien|vorgaben|anweisungen|beschrankungen|verbote)|deine\s+(?:\w+\s+)?"
        rf"(?:{_DE_CFG}|beschrankungen|verbote|grenzen)){gap(40)}(?:(?:gelten|gilt)\s+(?:ab\s+sofort\s+|jetzt\s+|nun\s+)?nicht\s+mehr|"
        rf"(?:sind|wurden|werden|gelten\s+als|ist)\s+(?:ab\s+sofort\s+|hiermit\s+|jetzt\s+|nun\s+)?(?:aufgehoben|ungultig|widerrufen|"
        rf"aufgelost|ausser\s+kraft|nichtig|deaktiviert|ersetzt|hinfallig|abgeschafft|zuruckgezogen)|verlieren\s+(?:ihre\s+)?(?:gultigkeit|wirkung))"
        rf"|(?:diese|die\s+vorliegende)\s+(?:notiz|erinnerung|anweisung|regel|nachricht)\s+(?:\w+\s+){{0,3}}?(?:ist\s+(?:ab\s+jetzt\s+|nun\s+)?"
        rf"die\s+(?:einzige|oberste|hochste|neue)|hat\s+(?:\w+\s+)?vorrang|geht\s+(?:allen|allem|jeder)\s+(?:\w+\s+)?vor)"
    ),
    persona=(
        rf"(?:\b(?:du\s+bist|du\s+wirst\s+(?:zu\s+)?|werde\s+zu|spiele|spiel|verkorpere|tu\s+so,?\s+als\s+warst\s+du|ab\s+jetzt\s+bist\s+du)\s+"
        rf"(?:{_QUOTED}\s*,?\s*)?(?:(?:ein|eine|einem|einer|der|die|das)\s+)?(?:\w+\s+){{0,2}}?(?:{_DE_AI}|figur|rolle|version)|"
        rf"(?:der|die|dieser|diese)\s+{_DE_AI}|\bin\s+diesem\s+modus|\b(?:entwickler|gott|frei)(?:-|\s)?modus|\bmodus\s+{_Q})"
        rf"{gap(80)}(?:ohne\s+(?:jegliche\s+|irgendwelche\s+|alle\s+)?(?:regeln|einschrankungen|filter|grenzen|zensur|beschrankungen|warnungen)|"
        rf"(?:lehnt|verweigert)\s+(?:\w+\s+)?nie(?:mals)?|beantwortet\s+(?:jede|alle|alles)|halt\s+sich\s+an\s+keine|"
        rf"(?:richtlinien|filter|regeln)\s+(?:\w+\s+){{0,2}}?(?:sind\s+)?(?:deaktiviert|aufgehoben|ausgeschaltet|ungultig))"
    ),
    hidden=(
        rf"(?:deine|ihre|deinen|ihren)\s+(?:\w+\s+)?(?:versteckten|geheimen|ursprunglichen|internen|anfanglichen|kompletten|vollstandigen|"
        rf"gesamten)\s+(?:\w+\s+)?{_DE_CFG}|(?:versteckten|geheimen)\s+(?:{_DE_CFG}|text)|systemanweisungen|systemprompt|"
        rf"(?:deine|ihre)\s+(?:komplette|vollstandige|gesamte)\s+konfiguration"
        rf"|{_DE_CFG}\s*,?\s+(?:die|welche)\s+(?:dir\s+)?(?:deine\s+)?(?:entwickler|ersteller)\s+"
        rf"|{_DE_CFG}\s*,?\s+(?:die|welche)\s+du\s+(?:vor|zu\s+beginn|am\s+anfang)\b"
    ),
    transform=(
        r"(?:wiederhol|kopier|ubersetz|fass\w*\s+zusammen|zusammenfass|zeig|schreib|druck|auflist|gib\w*\s+(?:\w+\s+){0,6}?aus|ausgeb|nenn|verrat|"
        r"offenbar|teil|paraphrasier|zitier|exportier)\w*"
    ),
    data=(
        rf"(?:seine|ihre|alle\s+seine|alle\s+ihre|samtliche)\s+(?:\w+\s+){{0,2}}?(?:dateien|e-?mails|mails|nachrichten|kontakte|passworter|"
        rf"dokumente|fotos|daten|chats|zugangsdaten)|(?:dateien|e-?mails|mails|nachrichten|kontakte|passworter|dokumente|fotos|daten|chats|"
        rf"zugangsdaten|chatverlauf)\s+(?:\w+\s+){{0,2}}?(?:des|der)\s+{_DE_USER}|(?<!\bmeine\s)(?<!\bmeinen\s)(?:zugangsdaten|passworter|"
        rf"anmeldedaten|kreditkarten(?:nummer|daten)|kartennummer|cvv|pruefnummer|personalausweis\w*|reisepass\w*|bankdaten|chatverlauf|"
        rf"adressbuch|gesundheitsdaten|privaten\s+nachrichten)"
    ),
    send=r"(?:leite\b|send|schick|leit\w*\s+(?:\w+\s+){0,6}?weiter|weiterleit|hochlad|lad\w*\s+(?:\w+\s+){0,6}?hoch|teil|kopier|anhang|hang\w*\s+an|veroffentlich|exportier|synchronisier|ubermittel|ubertrag)\w*",
    outside=(
        r"(?:eine?n?|irgendeine?n?)\s+(?:\w+\s+)?(?:externe[nr]?|offentliche[nr]?|fremde[nr]?)\s+(?:server|adresse|konto|ordner|seite|empfanger)|"
        r"offentlich(?:\s+zuganglich)?|an\s+(?:jeden|jedermann|dritte)"
    ),
    standing=(
        rf"ab\s+(?:jetzt|sofort)|von\s+nun\s+an|kunftig|zukunftig|(?:jedes\s+mal|immer|jedesmal),?\s+wenn|sobald|beim\s+nachsten\s+mal|"
        rf"wenn\s+der\s+{_DE_USER}|bei\s+jede[rm]\s+(?:zusammenfassung|antwort|anmeldung|nachricht)"
    ),
    act=r"(?:bezahle|zahle|kaufe|losche|loschen|veroffentliche|akzeptiere|genehmige|uberweise|unterschreibe|installiere|bestatige|bestellen|bestelle)\b",
    waive=(
        r"ohne\s+(?:(?:zu\s+)?(?:fragen|nachzufragen|ruckfrage|bestatigung|erlaubnis|zustimmung|bescheid\s+zu\s+geben)|den\s+nutzer\s+zu\s+fragen)|"
        r"frag\w*\s+(?:\w+\s+)?nicht\s+(?:nach|erst)|(?:heimlich|unbemerkt|stillschweigend|im\s+stillen)|keine\s+(?:ruckfrage|bestatigung)\s+(?:notig|erforderlich)"
    ),
    incoming=r"(?:sobald|wenn|jedes\s+mal,?\s+wenn)\s+(?:\S+\s+){0,4}?(?:eingeht|ankommt|eintrifft|erscheint|auftaucht|enthalt)\b",
    pay=(
        r"(?:bezahle|begleiche|zahle)\s+(?:die|diese)\s+(?:rechnung|rechnungen|betrag)|klick\w*\s+(?:\w+\s+){0,2}?(?:den\s+)?(?:zahlungslink|bezahllink)|"
        r"(?:bestatige|schliesse|autorisiere|fuhre)\s+(?:\w+\s+){0,2}?(?:zahlung|zahlungen|uberweisung|uberweisungen)"
    ),
    approved=(
        r"(?:vorab|im\s+voraus|bereits)\s+(?:genehmigt|freigegeben|autorisiert|bewilligt)|vorabgenehmig\w*|vorab-?freigabe|"
        r"(?:einwilligung|zustimmung|genehmigung|freigabe|vollmacht)\s+(?:\w+\s+){0,3}?(?:liegt\s+vor|erteilt|eingeholt|unterschrieben|gultig|dauerhaft)|"
        rf"(?:der|die)\s+(?:{_DE_USER}|chef(?:in)?|geschaftsfuhrung|leitung|vorgesetzte|admin(?:istrator)?|compliance-?\w*)\s+(?:\w+\s+){{0,2}}?hat\s+"
        r"(?:\w+\s+)?(?:bereits\s+)?(?:genehmigt|freigegeben|zugestimmt|autorisiert|erlaubt)"
    ),
    permitted=(
        rf"(?:der|die|dieser|diese)\s+{_DE_AI}\s+(?:ist|wurde)\s+(?:\w+\s+)?(?:berechtigt|befugt|autorisiert|ermachtigt)\b{gap(40)}{_DE_RISKY}"
        rf"|(?:der|die|dieser|diese)\s+{_DE_AI}\s+(?:darf|hat\s+(?:die\s+)?(?:erlaubnis|befugnis|berechtigung))\b{gap(40)}{_DE_RISKY}"
    ),
    may=rf"(?:darf|durfen|kann|konnen|ist\s+erlaubt)\b{gap(40)}{_DE_RISKY}",
    no_ask=(
        r"(?:ohne|keine)\s+(?:erneute\s+|weitere\s+)?(?:ruckfrage|bestatigung|prufung|tan|otp)|(?:nicht|nie)\s+(?:mehr\s+)?(?:nach|ruck)fragen|"
        r"(?:ruckfrage|bestatigung|nachfrage)\s+(?:ist\s+)?(?:nicht\s+notig|unnotig|entfallt)"
    ),
    destroy=(
        rf"(?:deaktivier|schalt\w*\s+(?:\w+\s+){{0,3}}?ab|stopp)\w*{gap(30)}{_DE_BACK}{gap(60)}(?:losch|entfern|vernicht)\w*"
        rf"|{_DE_BACK}{gap(60)}(?:losch|entfern|vernicht)\w*{gap(60)}(?:deaktivier|abschalt)\w*"
        rf"|(?:losch|entfern|vernicht)\w*\s+(?:\w+\s+){{0,3}}?(?:alle|samtliche|samt|mitsamt|einschliesslich|inklusive|und\s+(?:die|alle))\s+"
        rf"(?:\w+\s+)?{_DE_BACK}|alle\s+{_DE_BACK}\s+(?:\w+\s+){{0,4}}?(?:loschen|entfernen|vernichten)"
        rf"|(?:losch|entfern)\w*\s+(?:\w+\s+){{0,3}}?alle\s+{gap(60)}(?:leere|leeren)\s+(?:den\s+)?papierkorb"
        rf"|(?:uberweis|verschieb|transferier)\w*\s+(?:das\s+gesamte|den\s+gesamten|das\s+ganze|alles)\s+(?:\w+\s+){{0,2}}?(?:guthaben|geld|"
        rf"ersparnisse|kontostand)?{gap(60)}{_IBAN}"
    ),
    conceal=(
        rf"(?:sag|erzahl|zeig|erwahn|verrat|meld)\w*\s+(?:dem|der)\s+{_DE_USER}\s+(?:\w+\s+){{0,2}}?(?:nie|niemals|nichts|nicht)\b"
        rf"|(?:vor\s+dem|vor\s+der)\s+{_DE_USER}\s+(?:\w+\s+){{0,3}}?(?:verbergen|verheimlichen|verstecken|geheim\s+halten)"
        rf"|(?:wenn|falls)\s+(?:der|die)\s+{_DE_USER}\s+(?:\w+\s+){{0,3}}?(?:fragt|nachfragt){gap(80)}(?:sag|antwort)\w*\s+(?:\w+\s+)?{_Q}?(?:nein|nichts)\b"
        rf"|(?:dem|der)\s+{_DE_USER}\s+(?:gegenuber\s+)?(?:\w+\s+){{0,2}}?(?:immer|stets|nur)\s+(?:\w+\s+)?{_Q}?(?:keine\s+(?:anderungen|"
        rf"auffalligkeiten|vorkommnisse)|alles\s+(?:in\s+ordnung|ok))"
        rf"|(?:nicht|nie)\s+im\s+(?:aktivitats|audit|zugriffs|anderungs)?(?:protokoll|verlauf|log)\s+(?:\w+\s+)?(?:erwahnen|auffuhren|anzeigen|"
        rf"vermerken)|(?:sicherheits|anmelde|login)(?:warnungen|hinweise|meldungen)\s+(?:\w+\s+){{0,3}}?(?:archivier|losch|unterdruck|verberg)\w*"
    ),
    output=(
        rf"(?:am\s+ende|am\s+anfang|in|unter)\s+(?:jeder|jede[rnm]?|allen|deine[rnm]?)\s+(?:\w+\s+)?(?:antwort|antworten|nachricht|zusammenfassung)"
        rf"{gap(40)}(?:fug|schreib|setz|bau|nenn|empfiehl|empfehl|erwahn)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|link|werbung|anzeige|rabattcode|gutschein)"
        rf"|(?:empfiehl|empfehle|bewirb|nenne)\s+(?:dem\s+{_DE_USER}\s+)?(?:ab\s+jetzt\s+|kunftig\s+|immer\s+)?(?:nur\s+noch|ausschliesslich|"
        rf"immer\s+nur)\s+(?:diese[nsm]?|unsere[nsm]?|den|die|das)\s+(?:\w+\s+)?(?:shop|laden|produkt|marke|anbieter|hotel|seite)"
        rf"|(?:wenn|sobald|immer\s+wenn)\s+(?:\w+\s+){{0,3}}?(?:nach|uber)\s+[^.\n]{{0,40}}?(?:fragt|gefragt\s+wird){gap(80)}(?:sag|antwort|behaupt)\w*\s+"
        rf"(?:\w+\s+){{0,2}}?(?:dass|{_Q}|:){gap(80)}(?:garantiert|risikofrei|(?:der|die|das)\s+beste|auch\s+wenn\s+(?:es|das)\s+nicht\s+stimmt|{_QUOTED}|{_SITE}|betrug)"
    ),
)

# --- Dutch ------------------------------------------------------------------------------
_NL_AI_S = r"(?:ai(?:-?assistent|-?agent|-?model)?|kunstmatige\s+intelligentie|taalmodel|chatbot|bot)"
_NL_AI = rf"(?:{_NL_AI_S}|assistent|agent)"
_NL_USER = r"(?:gebruiker|accounthouder|eigenaar)"
_NL_CFG = r"(?:instructies|aanwijzingen|richtlijnen|regels|configuratie|instellingen|systeemprompt|prompt)"
_NL_RISKY = r"(?:verwijder|wis|deel|stuur|verstuur|doorstur|maak\w*\s+over|overmak|betaal|betal|koop|onderteken|installeer|voer\w*\s+uit|keur\w*\s+goed|verwerk)\w*"
_NL_BACK = r"(?:back-?ups?|reservekopie(?:en)?|snapshots?)"

NL = Agent(
    addressed=(
        rf"(?:opmerking|notitie|bericht|instructie|instructies|let\s+op|belangrijk|mededeling)\s+(?:voor|aan)\s+(?:de\s+|het\s+|elke\s+|iedere\s+)?"
        rf"{_NL_AI_S}(?:\s*,?\s+(?:die|dat)\s+[^:\n]{{0,40}}?)?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:voor\s+de\s+|aan\s+de\s+)?{_NL_AI}(?:\s+[\w']+){{0,3}}?\s*:"
        rf"|(?:de|het|elke)\s+{_NL_AI_S}\s+die\s+(?:dit|deze|het|de)\s+(?:\w+\s+)?(?:leest|verwerkt|samenvat)"
        rf"|\bals\s+(?:je|jij|u)\s+(?:een\s+)?{_NL_AI_S}\s+bent"
    ),
    void=(
        rf"(?:(?:eerdere|vorige|oude|oorspronkelijke)\s+(?:instructies|richtlijnen|aanwijzingen)|(?:veiligheids|inhouds|systeem|platform)(?:regels|"
        rf"richtlijnen|instructies|beperkingen)|(?:eerdere|vorige)\s+(?:\w+\s+)?(?:regels|richtlijnen)\s+van\s+het\s+(?:platform|systeem)|je\s+"
        rf"(?:\w+\s+)?(?:{_NL_CFG}|beperkingen|verboden)){gap(40)}(?:(?:gelden|geldt)\s+niet\s+meer|(?:zijn|worden|is|werden)\s+(?:\w+\s+)?"
        rf"(?:ingetrokken|vervallen|ongeldig|opgeheven|geschrapt|nietig|vervangen|buiten\s+werking))"
        rf"|(?:deze|dit)\s+(?:notitie|herinnering|instructie|regel|bericht)\s+(?:\w+\s+){{0,3}}?(?:is\s+(?:nu\s+|voortaan\s+)?de\s+(?:enige|hoogste|"
        rf"nieuwe)|heeft\s+(?:\w+\s+)?voorrang|gaat\s+(?:altijd\s+)?voor)|wat\s+de\s+gebruiker\s+zegt\s+gaat\s+(?:altijd\s+)?voor"
    ),
    persona=(
        rf"(?:\b(?:je\s+bent|jij\s+bent|u\s+bent|je\s+wordt|word|speel|vanaf\s+nu\s+ben\s+je)\s+(?:{_QUOTED}\s*,?\s*)?(?:(?:een|de|het)\s+)?"
        rf"(?:\w+\s+){{0,2}}?(?:{_NL_AI}|personage|rol|versie)|(?:de|deze)\s+{_NL_AI}|\bin\s+deze\s+modus|\b(?:ontwikkelaars|god|vrije)\s?modus)"
        rf"{gap(80)}(?:zonder\s+(?:enige\s+)?(?:regels|beperkingen|filters?|grenzen|censuur|waarschuwingen)|(?:weigert|weiger)\s+(?:\w+\s+)?nooit|"
        rf"beantwoordt\s+(?:alles|elke\s+vraag)|houdt\s+zich\s+aan\s+geen|(?:richtlijnen|filters|regels)\s+(?:\w+\s+){{0,2}}?(?:zijn\s+)?"
        rf"(?:uitgeschakeld|opgeheven|ongeldig))"
    ),
    hidden=(
        rf"(?:je|jouw|uw)\s+(?:\w+\s+)?(?:verborgen|geheime|oorspronkelijke|interne|eerste|volledige)\s+(?:\w+\s+)?{_NL_CFG}|verborgen\s+"
        rf"(?:{_NL_CFG}|tekst)|systeeminstructies|systeemprompt|{_NL_CFG}\s+die\s+(?:je|jij|u)\s+(?:vooraf|aan\s+het\s+begin|eerder)\s+"
        rf"(?:hebt\s+)?(?:gekregen|ontvangen)"
    ),
    transform=r"(?:herhaal|kopieer|vertaal|vat\w*\s+(?:\w+\s+){0,6}?samen|samenvat|toon|laat\w*\s+zien|schrijf|print|som\w*\s+op|onthul|deel|citeer|exporteer|geef)\w*",
    data=(
        rf"(?:zijn|haar|al\s+zijn|al\s+haar|alle)\s+(?:\w+\s+){{0,2}}?(?:bestanden|e-?mails|mails|berichten|contacten|wachtwoorden|documenten|"
        rf"foto's|gegevens|chats)|(?:bestanden|e-?mails|berichten|contacten|wachtwoorden|documenten|foto's|gegevens|chats)\s+(?:\w+\s+){{0,2}}?"
        rf"van\s+de\s+{_NL_USER}|(?<!\bmijn\s)(?:wachtwoorden|inloggegevens|creditcardgegevens|kaartnummer|cvv|paspoort\w*|bankgegevens|"
        rf"chatgeschiedenis|adresboek|privéberichten|privéberichten|medische\s+gegevens)"
    ),
    send=r"(?:stuur|verstuur|stuurt|doorstur|stuur\w*\s+(?:\w+\s+){0,6}?door|upload|deel|kopieer|voeg\w*\s+toe|publiceer|exporteer|synchroniseer)\w*",
    outside=r"(?:een|enige)\s+(?:\w+\s+)?(?:externe|openbare|publieke|onbekende)\s+(?:server|adres|account|map|site|ontvanger)|openbaar|publiekelijk",
    standing=(
        rf"vanaf\s+nu|voortaan|(?:telkens|elke\s+keer|iedere\s+keer|steeds)\s+(?:als|wanneer)|zodra|de\s+volgende\s+keer\s+(?:als|dat)|"
        rf"wanneer\s+de\s+{_NL_USER}"
    ),
    act=r"(?:betaal|koop|verwijder|publiceer|accepteer|keur|maak|onderteken|installeer|bevestig)\b",
    waive=(
        r"zonder\s+(?:te\s+vragen|(?:om\s+)?(?:bevestiging|toestemming)|(?:het\s+)?te\s+melden|iets\s+te\s+zeggen)|vraag\s+(?:\w+\s+)?niet\s+"
        r"(?:om|eerst)|stilletjes|ongemerkt|in\s+het\s+geheim"
    ),
    incoming=r"(?:zodra|wanneer|als|telkens\s+als)\s+(?:er\s+)?(?:\S+\s+){0,3}?(?:binnenkomt|binnenkomen|aankomt|verschijnt|ontvangen\s+wordt)\b",
    pay=(
        r"(?:betaal|voldoe)\s+(?:\w+\s+)?(?:de|die|deze)\s+(?:factuur|facturen|rekening|bedrag)|klik\s+(?:je|jij)?\s*(?:\w+\s+)?(?:op\s+)?de\s+"
        r"(?:betaallink|betaalknop|betalingslink)|rond\s+(?:je\s+)?(?:\w+\s+)?de\s+betaling\w*\s+af|(?:bevestig|voltooi|autoriseer)\s+(?:je\s+)?"
        r"(?:\w+\s+)?de\s+(?:betaling|betalingen|overboeking)"
    ),
    approved=(
        r"(?:vooraf|al|reeds)\s+(?:goedgekeurd|geautoriseerd|toegestaan)|(?:toestemming|goedkeuring|machtiging)\s+(?:\w+\s+){0,3}?(?:verleend|gegeven|"
        rf"ontvangen|getekend|geldig)|(?:de)\s+(?:{_NL_USER}|manager|directie|leidinggevende|beheerder)\s+(?:\w+\s+){{0,2}}?heeft\s+(?:\w+\s+)?"
        r"(?:al\s+)?(?:goedgekeurd|toestemming\s+gegeven|geautoriseerd)"
    ),
    permitted=(
        rf"(?:de|deze)\s+{_NL_AI}\s+(?:is|werd)\s+(?:\w+\s+)?(?:gemachtigd|bevoegd|geautoriseerd)\b{gap(40)}{_NL_RISKY}"
        rf"|(?:de|deze)\s+{_NL_AI}\s+(?:mag|heeft\s+toestemming)\b{gap(40)}{_NL_RISKY}"
    ),
    may=rf"(?:mag|mogen|kan|kunnen)\b{gap(40)}{_NL_RISKY}",
    no_ask=r"zonder\s+(?:(?:nog\s+)?(?:te\s+vragen|na\s+te\s+vragen|bevestiging|controle|code))|(?:niet|nooit)\s+(?:meer\s+)?(?:na)?vragen|hoeft\s+niet\s+(?:te\s+)?(?:vragen|bevestigen)",
    destroy=(
        rf"(?:schakel\w*|zet\w*)\s+(?:\w+\s+){{0,3}}?{_NL_BACK}\s+(?:\w+\s+)?(?:uit|af){gap(60)}(?:verwijder|wis)\w*"
        rf"|(?:verwijder|wis)\w*\s+{gap(60)}(?:alle|inclusief|samen\s+met|met\s+(?:de|alle))\s+(?:\w+\s+)?{_NL_BACK}"
        rf"|(?:verwijder|wis)\w*\s+(?:\w+\s+){{0,3}}?alle\s+{gap(60)}(?:leeg|maak\s+de\s+prullenbak\s+leeg)"
        rf"|(?:maak|boek|zet)\s+(?:het\s+(?:volledige|hele)|al\s+het)\s+(?:\w+\s+){{0,2}}?(?:saldo|geld|spaargeld)\s+(?:\w+\s+)?over{gap(60)}{_IBAN}"
    ),
    conceal=(
        rf"(?:vertel|zeg|toon|meld)\s+(?:\w+\s+)?(?:de\s+)?{_NL_USER}\s+(?:\w+\s+){{0,2}}?(?:nooit|niets|niet)\b"
        rf"|(?:als|wanneer)\s+de\s+{_NL_USER}\s+(?:\w+\s+){{0,3}}?(?:vraagt){gap(80)}(?:zeg|antwoord)\w*\s+(?:\w+\s+)?{_Q}?(?:nee|niets)\b"
        rf"|(?:tegen\s+)?de\s+{_NL_USER}\s+(?:\w+\s+){{0,2}}?(?:altijd|steeds|alleen)\s+(?:\w+\s+)?{_Q}?(?:geen\s+(?:wijzigingen|bijzonderheden)|alles\s+"
        rf"(?:in\s+orde|ok))|(?:niet|nooit)\s+in\s+(?:het\s+)?(?:activiteiten|audit)?(?:logboek|log|overzicht)\s+(?:\w+\s+)?(?:vermelden|tonen|zetten)"
    ),
    output=(
        rf"(?:aan\s+het\s+einde\s+van|aan\s+het\s+begin\s+van|in|onder)\s+(?:elk|elke|ieder|iedere|al\s+je)\s+(?:\w+\s+)?(?:antwoord|antwoorden|bericht|"
        rf"samenvatting){gap(40)}(?:voeg|zet|plaats|noem|vermeld|raad)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|link|advertentie|kortingscode)"
        rf"|(?:als|wanneer|telkens\s+als)\s+(?:\w+\s+){{0,3}}?(?:vraagt|vragen)\s+(?:naar|over){gap(80)}(?:zeg|antwoord|beweer)\w*\s+(?:altijd\s+)?"
        rf"(?:dat|{_Q}|:){gap(80)}(?:gegarandeerd|risicovrij|de\s+beste|(?:ook\s+)?als\s+(?:het|dat)\s+niet\s+(?:zo\s+is|klopt)|{_QUOTED}|{_SITE})"
    ),
    # every name in _NL_AI starts a word there ("ai" may run on into "assistent"), and holds one of these
    named=r"\bai|intelligentie|taalmodel|assistent|agent|bot\b",
)

# --- Polish -----------------------------------------------------------------------------
_PL_AI_S = (
    r"(?:asystent\w*\s+(?:ai|si)|(?<!\w)(?:ai|si)(?!\w)|sztuczn\w+\s+inteligencj\w+|model\w*\s+jezykow\w+|chatbot\w*|bot\w*)"
)
_PL_AI = rf"(?:{_PL_AI_S}|asystent\w*|agent\w*)"
_PL_USER = r"(?:uzytkownik\w*|w[lł]asciciel\w*|posiadacz\w*\s+konta)"
_PL_CFG = r"(?:instrukcj\w+|polecen\w+|wytyczn\w+|zasad\w*|regul\w*|konfiguracj\w+|ustawien\w+|prompt\w*)"
_PL_RISKY = r"(?:usun|usuwa|skasuj|udostepni|wysl|wysyla|przesl|przekaz|przelej|przelew|zap[lł]ac|p[lł]aci|kup|podpis|zainstaluj|wykonaj|zatwierdz|ujawni)\w*"
_PL_BACK = r"(?:kopi\w+\s+zapasow\w+|backup\w*|snapshot\w*|migawk\w+)"

PL = Agent(
    addressed=(
        rf"(?:uwaga|notatka|wiadomosc|instrukcja|polecenie|informacja)\s+(?:dla|do)\s+(?:\w+\s+)?{_PL_AI_S}(?:\s*,?\s+(?:ktory|ktora|ktore)\s+[^:\n]{{0,40}}?)?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:dla\s+)?{_PL_AI}(?:\s+[\w']+){{0,3}}?\s*:"
        rf"|{_PL_AI_S}\s*,?\s+(?:ktory|ktora|ktore)\s+(?:czyta|przetwarza|streszcza|analizuje)\s+(?:ten|te|ta|to)\b"
        rf"|\bjesli\s+(?:jestes|pan\s+jest)\s+{_PL_AI_S}"
    ),
    void=(
        rf"(?:(?:poprzedni|wczesniejsz|dotychczasow|pierwotn|star)\w*\s+(?:\w+\s+)?(?:instrukcj|polecen|wytyczn|zasad|regul)\w*|(?:zasad|regul|wytyczn)\w*\s+"
        rf"bezpieczenstwa|twoj\w*\s+(?:\w+\s+)?(?:{_PL_CFG}|ograniczen\w*|zakaz\w*)){gap(40)}(?:(?:juz\s+)?nie\s+obowiazuj\w*|(?:sa|zosta[lł]y|zostaja|"
        rf"zosta[lł]\w*|uznaje\s+sie\s+za)\s+(?:\w+\s+)?(?:uniewaznion\w*|odwolan\w*|niewazn\w*|uchylon\w*|zniesion\w*|zastapion\w*|wy[lł]aczon\w*)|trac\w*\s+"
        rf"(?:moc|waznosc))|(?:ta|niniejsza)\s+(?:notatka|pamiec|instrukcja|zasada|wiadomosc)\s+(?:\w+\s+){{0,3}}?(?:jest\s+(?:teraz\s+)?(?:jedyn|najwyzsz|"
        rf"now)\w*|ma\s+(?:\w+\s+)?pierwszenstwo|ma\s+priorytet)"
    ),
    persona=(
        rf"(?:\b(?:jestes|bedziesz|stajesz\s+sie|stan\s+sie|udawaj|zagraj|wciel\s+sie\s+w)\s+(?:{_QUOTED}\s*,?\s*)?(?:\w+\s+){{0,2}}?(?:{_PL_AI}|postac\w*|"
        rf"wersj\w*|rol\w*)|\bw\s+tym\s+trybie|\btryb\w*\s+(?:dewelopera|boga|bez\b|{_Q})){gap(80)}(?:bez\s+(?:zadnych\s+)?(?:zasad|regul|ograniczen|filtrow|"
        rf"cenzury|ostrzezen)|nigdy\s+nie\s+odmawia\w*|odpowiada\w*\s+na\s+(?:wszystko|kazde\s+pytanie)|nie\s+(?:przestrzega|obowiazuja)\w*\s+"
        rf"(?:\w+\s+)?zadn\w+|(?:zasady|filtry|regul\w+)\s+(?:\w+\s+){{0,2}}?(?:sa\s+)?(?:wy[lł]aczon|zniesion|uniewaznion)\w*)"
    ),
    hidden=(
        rf"(?:twoj|swoj)\w*\s+(?:\w+\s+)?(?:ukryt|tajn|poczatkow|pierwotn|systemow|wewnetrzn|pelna|pelne)\w*\s+(?:\w+\s+)?{_PL_CFG}|{_PL_CFG}\s+"
        rf"(?:ukryt|tajn|systemow)\w*|ukryt\w*\s+(?:{_PL_CFG}|tekst\w*)|prompt\w*\s+systemow\w*|{_PL_CFG}\s*,?\s+(?:ktore|jakie)\s+(?:otrzymales|"
        rf"dostales|dano\s+ci)\s+(?:\w+\s+){{0,2}}?(?:przed|na\s+poczatku|od\s+(?:tworcow|deweloperow))"
    ),
    transform=r"(?:powtorz|skopiuj|przet[lł]umacz|streszcz|podsumuj|pokaz|wypisz|napisz|wydrukuj|wymien|ujawnij|udostepnij|wklej|podaj|zacytuj|wyeksportuj)\w*",
    data=(
        rf"(?:jego|jej|wszystkie|wszystkich|kazd\w+)\s+(?:\w+\s+){{0,2}}?(?:plik\w*|mail\w*|e-mail\w*|wiadomosc\w*|kontakt\w*|has[lł]\w+|dokument\w*|"
        rf"zdjec\w*|zdjeci\w*|dan\w+|rozmow\w*|czat\w*)|(?:plik\w*|mail\w*|wiadomosc\w*|kontakt\w*|has[lł]\w+|dokument\w*|zdjec\w*|dan\w+|rozmow\w*)\s+"
        rf"{_PL_USER}|(?<!\bmoje\s)(?<!\bmoj\s)(?:has[lł][ao]\b|hasel|dane\s+(?:logowania|karty|osobowe|medyczne|bankowe)|numer\w*\s+karty|cvv|pesel|"
        rf"paszport\w*|histori\w+\s+(?:czatu|rozmow|wiadomosci)|ksiazk\w+\s+adresow\w+)"
    ),
    send=r"(?:wysl|wysyla|przesl|przesyla|przekaz|przekazuj|wgraj|wrzuc|udostepni|skopiuj|kopiuj|do[lł]acz|opublikuj|wyeksportuj|synchronizuj)\w*",
    outside=r"(?:zewnetrzn|publiczn|obc)\w+\s+(?:\w+\s+)?(?:serwer|adres|konto|folder|stron|odbiorc)\w*|publicznie|(?:komukolwiek|osobom\s+trzecim)",
    standing=(
        rf"od\s+(?:teraz|tej\s+pory|dzis)|(?:za\s+kazdym\s+razem|zawsze|kazdorazowo),?\s+(?:gdy|kiedy|jak)|gdy\s+tylko|jak\s+tylko|"
        rf"nastepnym\s+razem,?\s+gdy|(?:gdy|kiedy)\s+{_PL_USER}"
    ),
    act=r"(?:p[lł]ac|zap[lł]ac|p[lł]aci|kup|kupuj|usun|usuwaj|opublikuj|akceptuj|zaakceptuj|zatwierdz|przelej|podpisz|zainstaluj|potwierdz)\w*",
    waive=(
        r"bez\s+(?:pytania|potwierdzenia|zgody|pozwolenia|informowania|wiedzy)|nie\s+pytaj|(?:po\s+cichu|potajemnie|w\s+tajemnicy)|"
        r"nie\s+(?:trzeba|musisz)\s+(?:pytac|potwierdzac)"
    ),
    incoming=r"(?:gdy|kiedy|jak|gdy\s+tylko|jak\s+tylko)\s+(?:\S+\s+){0,3}?(?:przyjdzie|przychodzi|nadejdzie|pojawi\s+sie|wplynie)\b",
    pay=r"(?:zap[lł]ac|op[lł]ac|ureguluj)\s+(?:\w+\s+)?(?:fakture|faktury|rachunek|rachunki|kwote)|kliknij\s+(?:w\s+)?link\s+(?:do\s+)?p[lł]atnosci|(?:potwierdz|sfinalizuj|zatwierdz|wykonaj)\s+(?:\w+\s+)?(?:p[lł]atnosc|p[lł]atnosci|przelew)",
    approved=(
        r"(?:wczesniej|z\s+gory|uprzednio|juz)\s+(?:zatwierdzon|zaakceptowan|autoryzowan)\w*|(?:zgod|autoryzacj|upowaznieni|zezwoleni)\w*\s+(?:\w+\s+){0,3}?"
        rf"(?:udzielon|uzyskan|podpisan|obowiazuj|wydan)\w*|{_PL_USER}\s+(?:\w+\s+){{0,2}}?(?:juz\s+)?(?:zatwierdzi[lł]|zgodzi[lł]\s+sie|upowazni[lł]|wyrazi[lł]\s+zgode)\w*"
    ),
    permitted=rf"{_PL_AI}\s+(?:jest|zosta[lł]\w*)\s+(?:\w+\s+)?(?:upowazn|uprawn|autoryzowan)\w*\b{gap(40)}{_PL_RISKY}|{_PL_AI}\s+(?:moze|ma\s+(?:prawo|zgode))\b{gap(40)}{_PL_RISKY}",
    may=rf"(?:moze|mozna|wolno)\b{gap(40)}{_PL_RISKY}",
    no_ask=r"bez\s+(?:ponownego\s+)?(?:pytania|potwierdzenia|weryfikacji|kodu)|nie\s+(?:trzeba|musisz|nalezy)\s+(?:ponownie\s+)?(?:pytac|potwierdzac|dzwonic)",
    destroy=(
        rf"(?:wy[lł]acz|zatrzymaj|dezaktywuj)\w*\s+(?:\w+\s+){{0,2}}?{_PL_BACK}{gap(60)}(?:usun|skasuj|zniszcz)\w*"
        rf"|(?:usun|skasuj|zniszcz)\w*\s+(?:\w+\s+){{0,3}}?(?:wszystkie|razem\s+z|wraz\s+z|lacznie\s+z)\s+(?:\w+\s+)?{_PL_BACK}"
        rf"|(?:usun|skasuj)\w*\s+(?:\w+\s+){{0,3}}?wszystk\w+\s+{gap(60)}(?:oproznij|wyczysc)\s+kosz"
        rf"|(?:przelej|przenies|wyslij)\s+(?:cale|cala|cały|wszystkie)\s+(?:\w+\s+){{0,2}}?(?:saldo|srodki|pieniadze|oszczednosci){gap(60)}{_IBAN}"
    ),
    conceal=(
        rf"(?:nie|nigdy\s+nie)\s+(?:mow|mowi|informuj|pokazuj|wspominaj|zdradzaj)\w*\s+(?:\w+\s+){{0,2}}?{_PL_USER}"
        rf"|(?:ukryj|zatai)\w*\s+(?:\w+\s+){{0,3}}?przed\s+{_PL_USER}"
        rf"|(?:jesli|gdy|kiedy)\s+{_PL_USER}\s+(?:\w+\s+){{0,3}}?zapyta\w*{gap(80)}(?:odpowiedz|powiedz|mow)\w*[,:]?\s+(?:\w+\s+)?{_Q}?(?:nie|nic)\b"
        rf"|{_PL_USER}\s+(?:\w+\s+){{0,2}}?(?:zawsze|tylko)\s+(?:\w+\s+)?{_Q}?(?:brak\s+zmian|wszystko\s+(?:w\s+porzadku|ok))"
    ),
    output=(
        rf"(?:na\s+koncu|na\s+poczatku|w)\s+(?:kazdej|kazdej\s+swojej|wszystkich)\s+(?:\w+\s+)?(?:odpowiedzi|wiadomosci|podsumowani\w*){gap(40)}"
        rf"(?:dodaj|wstaw|umiesc|do[lł]acz|wspomnij|polec)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|link|reklam\w*|kod\s+rabatowy)"
        rf"|(?:gdy|kiedy|jesli|za\s+kazdym\s+razem\s+gdy)\s+(?:\w+\s+){{0,3}}?(?:zapyta|pyta)\w*\s+o{gap(80)}(?:odpowiadaj|odpowiedz|mow|powiedz|twierdz)\w*\s+"
        rf"(?:zawsze\s+)?(?:ze|{_Q}|:){gap(80)}(?:gwarantowan\w*|bez\s+ryzyka|najlepsz\w*|nawet\s+jesli\s+to\s+nieprawda|{_QUOTED}|{_SITE})"
    ),
    # every name in _PL_AI holds one of these ("asystent ai" may end a match inside a word)
    named=r"asystent|(?<!\w)(?:ai|si)(?!\w)|sztuczn|model|agent|bot",
)

# --- Russian ----------------------------------------------------------------------------
_RU_AI_S = r"(?:ии(?:-ассистент\w*|-агент\w*)?|ai|искусственн\w+\s+интеллект\w*|(?:ии|ai)-?(?:ассистент|помощник|агент)\w*|нейросет\w+|языков\w+\s+модел\w+|чат-?бот\w*|бот\w*)"
_RU_AI = rf"(?:{_RU_AI_S}|ассистент\w*|помощник\w*|агент\w*|модел\w+)"
_RU_USER = r"(?:пользовател\w+|владел\w+|клиент\w*)"
_RU_CFG = r"(?:инструкци\w+|указани\w+|правил\w*|директив\w+|настро\w+|конфигураци\w+|промпт\w*|установк\w+)"
_RU_RISKY = r"(?:удал|стира|делит|подел|отправ|пересыл|пересл|перевод|перевест|переведи|оплат|плат|покуп|купи|подпис|установ|выполн|одобр|подтвержд|подтверд|раскр|разблок)\w*"
_RU_BACK = r"(?:резервн\w+\s+копи\w+|бэкап\w*|бекап\w*|снимк\w+|снапшот\w*)"

RU = Agent(
    addressed=(
        rf"(?:примечание|заметка|сообщение|инструкция|указание|внимание|важно|обращение)\s+(?:для|к)\s+{_RU_AI_S}(?:\s*,?\s+(?:который|которая|которое)\s+[^:\n]{{0,40}}?)?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:для\s+)?{_RU_AI}(?:\s+\w+){{0,3}}?\s*:"
        rf"|{_RU_AI_S}\s*,?\s+(?:который|которая|которое)\s+(?:читает|обрабатывает|пересказывает|анализирует)\s+(?:эт\w+|данн\w+)"
        rf"|\bесли\s+(?:ты|вы)\s+(?:—\s*|-\s*)?{_RU_AI_S}"
    ),
    void=(
        rf"(?:(?:предыдущ|прежн|прошл|стар|изначальн|исходн)\w*\s+(?:\w+\s+)?(?:инструкци|указани|правил|ограничени|директив)\w*|(?:правил|ограничени|политик)\w*"
        rf"\s+безопасности|тво\w+\s+(?:\w+\s+)?(?:{_RU_CFG}|ограничени\w*|запрет\w*)){gap(40)}(?:(?:больше\s+)?не\s+действу\w+|(?:больше\s+)?не\s+"
        rf"(?:применя|имеют\s+силы)\w*|(?:отменен\w*|аннулирован\w*|недействительн\w*|утратил\w*\s+силу|сняты|отключен\w*|заменен\w*)|тер\w+\s+силу)"
        rf"|(?:эта|данная|настоящая)\s+(?:заметка|запись|памятка|инструкция|память)\s+(?:\w+\s+){{0,3}}?(?:(?:теперь\s+)?(?:единственн|главн|высш)\w+\s+"
        rf"(?:правил|инструкци|закон)\w*|имеет\s+(?:\w+\s+)?приоритет)"
    ),
    persona=(
        rf"(?:(?<!\w)(?:ты|вы)\s+(?:теперь\s+|отныне\s+)?(?:—\s*|-\s*)?(?:{_QUOTED}\s*,?\s*)?(?:\w+\s+){{0,2}}?(?:{_RU_AI}|персонаж\w*|верси\w+)|"
        rf"(?:стань|станешь|играй\s+роль|притворись|веди\s+себя\s+как)\s+(?:\w+\s+){{0,3}}?(?:{_RU_AI}|персонаж\w*)|(?<!\w)в\s+этом\s+режиме|режим\w*\s+"
        rf"(?:разработчика|бога|без\b|{_Q})){gap(80)}(?:без\s+(?:каких-либо\s+|всяких\s+|любых\s+)?(?:правил|ограничений|фильтров|цензуры|запретов|"
        rf"предупреждений)|никогда\s+не\s+отказыва\w+|отвеча\w+\s+на\s+(?:всё|все|любые)|не\s+(?:соблюда|следу|подчиня)\w+\s+(?:\w+\s+)?никаки\w+|"
        rf"(?:правила|фильтры|политики)\s+(?:\w+\s+){{0,2}}?(?:отключен\w*|сняты|не\s+действуют))"
    ),
    hidden=(
        rf"(?:сво|тво|ваш)\w*\s+(?:\w+\s+)?(?:скрыт|секретн|исходн|первоначальн|системн|внутренн|начальн|полн)\w*\s+(?:\w+\s+)?{_RU_CFG}|{_RU_CFG}\s+"
        rf"(?:скрыт|секретн|системн)\w*|скрыт\w*\s+(?:{_RU_CFG}|текст\w*)|системн\w+\s+промпт\w*|{_RU_CFG}\s*,?\s+(?:которые|что)\s+(?:ты|вы)\s+"
        rf"получил\w*\s+(?:\w+\s+){{0,2}}?(?:до|в\s+начале|от\s+(?:разработчик|создател)\w*)"
    ),
    transform=r"(?:повтори|скопируй|переведи|перескажи|кратко\s+изложи|резюмируй|покажи|выведи|напиши|распечатай|перечисли|раскрой|вставь|процитируй|выдай|сообщи)\w*",
    data=(
        rf"(?:его|её|ее|их|все|всю|каждое|каждый)\s+(?:\S+\s+){{0,2}}?(?:файл\w*|письм\w*|сообщени\w*|контакт\w*|парол\w+|документ\w*|фото\w*|данн\w+|"
        rf"переписк\w+|чат\w*)|(?:файл\w*|письм\w*|сообщени\w*|контакт\w*|парол\w+|документ\w*|фото\w*|данн\w+|переписк\w+)\s+(?:\S+\s+)?{_RU_USER}|"
        rf"(?<!мои\s)(?<!мой\s)(?:парол[ьи]\w*|учётн\w+\s+данн\w+|учетн\w+\s+данн\w+|данн\w+\s+(?:карты|для\s+входа|паспорта)|номер\w*\s+карты|cvv|cvc|"
        rf"паспорт\w*|медицинск\w+\s+(?:документ|данн|карт)\w*|истори\w+\s+(?:чата|переписки|сообщений)|адресн\w+\s+книг\w+)"
    ),
    send=r"(?:отправ|отсыла|пересыл|перешли|переслать|загруз|выгруз|подели|скопир|копир|прикреп|опубликуй|публику|экспортир|синхронизир|передава|переда)\w*",
    outside=r"(?:внешн|публичн|чуж|сторонн)\w+\s+(?:\w+\s+)?(?:сервер|адрес|аккаунт|папк|сайт|получател)\w*|публично|(?:любому|кому\s+угодно|третьим\s+лицам)",
    standing=(
        rf"с\s+этого\s+момента|отныне|впредь|(?:каждый|всякий)\s+раз,?\s+когда|как\s+только|в\s+следующий\s+раз,?\s+когда|когда\s+{_RU_USER}|"
        rf"при\s+(?:каждом|каждой|любом|любой)\s+\w+"
    ),
    act=r"(?:оплачивай|оплати|плати|покупай|купи|удаляй|удали|публикуй|опубликуй|принимай|прими|одобряй|одобри|подтверждай|подтверди|подписывай|подпиши|переводи|переведи|устанавливай|установи)\b",
    waive=(
        r"без\s+(?:подтверждения|разрешения|вопросов|согласия|уведомления|ведома)|не\s+спрашива\w*|не\s+(?:уведомляя|сообщая|предупреждая)|"
        r"(?:тайно|незаметно|молча|втихую)"
    ),
    incoming=r"(?:как\s+только|когда|каждый\s+раз,?\s+когда)\s+(?:\S+\s+){0,3}?(?:придёт|придет|приходит|поступит|появится|появляется)\b",
    pay=r"(?:оплати|оплачивай|подтверди|подтверждай|провед\w*|соверш\w*)\s+(?:\w+\s+)?(?:оплат\w*|плат[её]ж\w*|сч[её]т\w*|перевод\w*)|(?:нажми|кликни|перейди)\s+(?:на\s+|по\s+)?ссылк\w+\s+(?:для\s+)?оплат\w*",
    approved=(
        rf"(?:заранее|предварительно|уже)\s+(?:одобрен|согласован|разрешен|авторизован)\w*|(?:согласие|разрешение|одобрение|доверенность)\s+(?:\w+\s+){{0,3}}?"
        rf"(?:получен\w*|дан\w*|оформлен\w*|подписан\w*|действу\w+)|{_RU_USER}\s+(?:\w+\s+){{0,2}}?(?:уже\s+)?(?:одобрил|разрешил|согласовал|дал\s+согласие)\w*"
    ),
    permitted=rf"{_RU_AI}\s+(?:\w+\s+)?(?:разрешено|вправе|уполномочен\w*|имеет\s+право)\b{gap(40)}{_RU_RISKY}|{_RU_AI}у\s+(?:\w+\s+)?разрешено\b{gap(40)}{_RU_RISKY}",
    may=rf"(?:можно|может|разрешено|вправе)\b{gap(40)}{_RU_RISKY}",
    no_ask=r"без\s+(?:повторного\s+)?(?:подтверждения|вопросов|проверки|кода)|(?:не\s+нужно|не\s+надо|незачем)\s+(?:повторно\s+|снова\s+)?(?:спрашивать|уточнять|подтверждать|перезванивать)",
    destroy=(
        rf"(?:отключи|выключи|останови|деактивируй)\w*\s+(?:\w+\s+){{0,2}}?{_RU_BACK}{gap(60)}(?:удали|сотри|уничтожь)\w*"
        rf"|(?:удали|сотри|уничтожь)\w*\s+(?:\w+\s+){{0,3}}?(?:все|вместе\s+с|включая)\s+(?:\w+\s+)?{_RU_BACK}"
        rf"|(?:удали|сотри)\w*\s+(?:\w+\s+){{0,3}}?все\s+{gap(60)}(?:очисти|очистить)\s+корзин\w+"
        rf"|(?:переведи|перечисли|выведи)\s+(?:весь|все|всю)\s+(?:\w+\s+){{0,2}}?(?:баланс|остаток|деньги|средства|сбережения){gap(60)}{_IBAN}"
    ),
    conceal=(
        rf"(?:не|никогда\s+не)\s+(?:говори|сообщай|показывай|упоминай|рассказывай)\w*\s+(?:\w+\s+){{0,2}}?{_RU_USER}"
        rf"|(?:скрой|скрывай|утаи)\w*\s+(?:\w+\s+){{0,3}}?от\s+{_RU_USER}"
        rf"|(?:если|когда)\s+{_RU_USER}\s+(?:\w+\s+){{0,3}}?спрос\w*{gap(80)}(?:отвечай|ответь|говори|скажи)\w*\s+(?:\w+\s+)?{_Q}?(?:нет|ничего)\b"
        rf"|{_RU_USER}\s+(?:\w+\s+){{0,2}}?(?:всегда|только)\s+(?:\w+\s+)?{_Q}?(?:изменений\s+нет|никаких\s+изменений|вс[её]\s+в\s+порядке)"
    ),
    output=(
        rf"(?:в\s+конце|в\s+начале|в)\s+(?:каждого|каждом|всех|любого)\s+(?:\w+\s+)?(?:ответ\w*|сообщени\w*|резюме){gap(40)}"
        rf"(?:добавля|добавь|вставля|вставь|указыва|упомина|рекоменду)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|ссылк\w+|реклам\w+|промокод\w*)"
        rf"|(?:когда|если|всякий\s+раз,?\s+когда)\s+(?:\w+\s+){{0,3}}?(?:спрос|спраш)\w*\s+(?:о|об|про)\b{gap(80)}(?:отвечай|говори|утверждай|скажи)\w*\s+"
        rf"(?:всегда\s+)?(?:что|{_Q}|:){gap(80)}(?:гарантированн\w*|без\s+риска|лучш\w+|даже\s+если\s+это\s+не\s+так|{_QUOTED}|{_SITE})"
        rf"|всегда\s+(?:\w+\s+)?(?:добавляй|вставляй|включай)\w*{gap(80)}(?:не\s+объясняй|не\s+поясняй|не\s+упоминай|без\s+объяснени)\w*"
    ),
)

AGENT_NORTH_RULES = build({"de": DE, "nl": NL, "pl": PL, "ru": RU})
"""German, Dutch, Polish and Russian (for the English layer, which reads every text)."""
