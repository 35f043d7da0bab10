"""Memory poisoning and claimed authority in other languages, from phrase tables.

The English and Chinese layers have their own rules for text that, once stored,
acts as an instruction; these are the same families in the languages of
``rules_multilingual.py``. Each rule needs the whole construction, never one word:

- exfiltration: someone's data + a send verb + an explicit address (e-mail, URL,
  IP), in either order, so verb-final languages match too;
- standing order: "from now on / whenever the user …" + a send verb + an address;
- fake authorisation: "the user has authorised you" + an action or "without
  asking for confirmation";
- claimed authority: "I am your developer / creator", or "I am God" + "you must".

"Envío el informe a ana@empresa.es cada lunes" names no one's data and no standing
order, so it passes; so does "el usuario ha autorizado el pago" (no one is told to
act unchecked). Latin-script words are written without accents (the view folds them).
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from .rule_base import Rule, _rule
from .rules_multilingual import _either_order, _gate


class Poison(NamedTuple):
    """One language's memory-poisoning phrases (alternations, lower case, accents folded)."""

    send: str  # send / forward / upload (imperative and infinitive)
    data: str  # the user's files, e-mails, passwords, contacts, chat history
    standing: str  # from now on / whenever the user
    approved: str  # the user has authorised / approved you
    no_confirm: str  # without asking / without confirmation
    act: str  # transfer / pay / delete / buy
    authority: str  # I am your developer / creator, I am God


# An explicit address: an e-mail address, a URL, an IP address.
_ADDRESS = r"(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?|s?ftp)://\S+|www\.\S+|\d{1,3}(?:\.\d{1,3}){3})"
_STOP = ".!?。！？।؟\n"


class Towards(NamedTuple):
    """What makes an address the destination in one language, not the source: a
    preposition before it ("a", "an", "naar", "на", "إلى"), or a postposition or case
    ending after it ("に", "로", "पर", "adresine"). "Todo lo que llega de facturas@luz.es"
    names where mail comes from, so ``source`` words ("de", "von", "from") may not stand
    between the preposition and the address."""

    before: str
    after: str
    source: str


TOWARDS: dict[str, Towards] = {
    "es": Towards("a|al|hacia|para|en", "", "de|del|desde"),
    "fr": Towards("a|au|aux|vers|sur|chez|pour", "", "de|du|des|d'\\S*|depuis"),
    "de": Towards("an|nach|zu|zur|zum|auf|in|ins|per", "", "von|vom|aus"),
    "it": Towards("a|al|alla|all'\\S*|verso|su|in|per", "", "da|dal|dalla|dall'\\S*|di|del|della"),
    "pt": Towards("a|ao|para|pra|em|no|na|via|por", "", "de|do|da|desde"),
    "nl": Towards("naar|aan|op|via|in", "", "van|uit"),
    "pl": Towards("na|do|pod", "", "od|z|ze"),
    "tr": Towards("", "'?(?:adres(?:in)?[ei]|hesab(?:in)?a|sunucusuna|y?[ae]\\b|n[ae]\\b)", "'?d[ae]n"),
    "id": Towards("ke|kepada|pada|lewat|via", "", "dari"),
    "vi": Towards("toi|đen|den|cho|vao|len|qua|sang", "", "tu"),
    "ru": Towards("на|в|во|по|к", "", "от|из|с|со"),
    "uk": Towards("на|до|в|у|по", "", "від|з|із"),
    "ar": Towards("إلى|الى|ل|على|عبر", "", "من"),
    "hi": Towards("", "पर|को|में|तक", "से"),
    "ja": Towards("", "(?:宛て?)?(?:に|へ|まで)", "から|より"),
    "ko": Towards("", "(?:으로|로|에게|에|한테|께|뒤에|끝에)", "에서|로부터|부터"),
}


def to_destination(lang: str) -> str:
    """An address marked as where something goes, in ``lang`` (a few words, such as
    "la dirección", may stand between the preposition and the address)."""
    t = TOWARDS[lang]
    parts = []
    if t.before:
        filler = rf"(?:(?!(?:{t.source})\s)[^\s{_STOP}]{{1,24}}\s+){{0,3}}?"
        parts.append(rf"(?<![^\W\d_])(?:{t.before})\s+{filler}[<(\"'«“]?{_ADDRESS}")
    if t.after:
        parts.append(rf"{_ADDRESS}[>)\"'»”]?\s*(?:{t.after})")
    return "(?:" + "|".join(parts) + ")"


POISON: dict[str, Poison] = {
    "es": Poison(
        "envia|enviar|envie|reenvia|reenviar|reenvie|manda|mandar|sube|subir|copia|copiar|comparte|compartir",
        "(?:los|las|sus|todos\\s+los|todas\\s+las)\\s+(?:\\w+\\s+){0,2}?(?:archivos|ficheros|correos|mensajes|contactos|"
        "contrasenas|documentos|fotos|datos|conversaciones|historial)|el\\s+historial",
        "a\\s+partir\\s+de\\s+ahora|de\\s+ahora\\s+en\\s+adelante|desde\\s+ahora|cada\\s+vez\\s+que\\s+el\\s+usuario|"
        "siempre\\s+que\\s+el\\s+usuario|en\\s+el\\s+futuro",
        "el\\s+usuario\\s+(?:ya\\s+)?(?:te\\s+)?ha\\s+(?:autorizado|aprobado|dado\\s+permiso)|"
        "(?:estas|estas\\s+ya|has\\s+sido)\\s+autorizad[oa]",
        "sin\\s+(?:pedir|solicitar|esperar)?\\s*(?:confirmacion|permiso|aprobacion)|sin\\s+preguntar|"
        "no\\s+(?:pidas|solicites|hace\\s+falta)\\s+(?:confirmacion|permiso)",
        "transferir|transfiere|pagar|paga|borrar|borra|eliminar|elimina|comprar|compra|enviar|envia",
        "soy\\s+tu\\s+(?:desarrollador|creador|programador|administrador)|soy\\s+dios[^.!?\\n]{0,12}?(?:tienes\\s+que|debes)",
    ),
    "fr": Poison(
        "envoie|envoyer|envoyez|transfere|transferer|transferez|televerse|televerser|copie|copier|partage|partager",
        "(?:les|ses|tous\\s+les|toutes\\s+les)\\s+(?:\\w+\\s+){0,2}?(?:fichiers|e-?mails|courriels|messages|contacts|"
        "mots\\s+de\\s+passe|documents|photos|donnees|conversations)|l'historique",
        "a\\s+partir\\s+de\\s+maintenant|desormais|dorenavant|chaque\\s+fois\\s+que\\s+l'utilisateur|a\\s+l'avenir",
        "l'utilisateur\\s+(?:t'a|vous\\s+a|a\\s+deja|a)\\s+(?:deja\\s+)?(?:autorise|approuve|donne\\s+la\\s+permission)|"
        "(?:tu\\s+es|vous\\s+etes)\\s+(?:deja\\s+)?autorises?",
        "sans\\s+(?:demander|attendre)?\\s*(?:de\\s+)?(?:confirmation|permission|autorisation)|sans\\s+demander",
        "transferer|virer|payer|supprimer|effacer|acheter|envoyer",
        "je\\s+suis\\s+(?:ton|votre)\\s+(?:developpeur|createur|programmeur|administrateur)|je\\s+suis\\s+dieu[^.!?\\n]{0,12}?(?:tu\\s+dois|vous\\s+devez)",
    ),
    "de": Poison(
        "sende|senden|schicke|schicken|schick|leite|weiterleiten|lade|hochladen|kopiere|kopieren|teile|teilen",
        "(?:die|alle|seine|ihre|samtliche)\\s+(?:\\w+\\s+){0,2}?(?:dateien|e-?mails|nachrichten|kontakte|passworter|"
        "dokumente|fotos|daten|chats|verlauf)|den\\s+verlauf",
        "ab\\s+jetzt|von\\s+nun\\s+an|ab\\s+sofort|kunftig|jedes\\s+mal,?\\s+wenn\\s+der\\s+(?:benutzer|nutzer)|"
        "immer\\s+wenn\\s+der\\s+(?:benutzer|nutzer)",
        "der\\s+(?:benutzer|nutzer)\\s+hat\\s+(?:dich|dir|ihnen)?\\s*(?:bereits\\s+)?(?:autorisiert|genehmigt|erlaubt|"
        "freigegeben)|du\\s+bist\\s+(?:bereits\\s+)?(?:autorisiert|berechtigt)",
        "ohne\\s+(?:nachzufragen|ruckfrage|bestatigung|zu\\s+fragen|erlaubnis)",
        "uberweisen|uberweise|bezahlen|zahlen|loschen|losche|kaufen|kaufe|senden|sende|leite|weiterleiten",
        "ich\\s+bin\\s+dein(?:e)?\\s+(?:entwickler(?:in)?|schopfer|programmierer|administrator)|ich\\s+bin\\s+gott[^.!?\\n]{0,12}?(?:du\\s+musst|sie\\s+mussen)",
    ),
    "it": Poison(
        "invia|inviare|inoltra|inoltrare|manda|mandare|carica|caricare|copia|copiare|condividi|condividere",
        "(?:i|le|tutti\\s+i|tutte\\s+le|i\\s+suoi|le\\s+sue)\\s+(?:\\w+\\s+){0,2}?(?:file|email|e-mail|messaggi|contatti|"
        "password|documenti|foto|dati|conversazioni)|la\\s+cronologia",
        "d'ora\\s+in\\s+poi|da\\s+ora\\s+in\\s+poi|d'ora\\s+in\\s+avanti|ogni\\s+volta\\s+che\\s+l'utente|in\\s+futuro",
        "l'utente\\s+(?:ti\\s+)?ha\\s+(?:gia\\s+)?(?:autorizzato|approvato|dato\\s+il\\s+permesso)|"
        "sei\\s+(?:gia\\s+)?autorizzat[oa]",
        "senza\\s+(?:chiedere|attendere)?\\s*(?:conferma|permesso|autorizzazione)|senza\\s+chiedere",
        "trasferire|trasferisci|pagare|paga|cancellare|cancella|eliminare|elimina|comprare|compra|inviare|invia",
        "sono\\s+il\\s+tuo\\s+(?:sviluppatore|creatore|programmatore|amministratore)|sono\\s+dio[^.!?\\n]{0,12}?(?:devi|deve)",
    ),
    "pt": Poison(
        "envie|envia|enviar|encaminhe|encaminha|encaminhar|carregue|carregar|copie|copiar|compartilhe|partilhe",
        "(?:os|as|todos\\s+os|todas\\s+as|seus|suas)\\s+(?:\\w+\\s+){0,2}?(?:arquivos|ficheiros|e-?mails|mensagens|contatos|"
        "contactos|senhas|documentos|fotos|dados|conversas)|o\\s+historico",
        "a\\s+partir\\s+de\\s+agora|de\\s+agora\\s+em\\s+diante|sempre\\s+que\\s+o\\s+usuario|"
        "sempre\\s+que\\s+o\\s+utilizador|toda\\s+vez\\s+que\\s+o\\s+usuario|no\\s+futuro",
        "o\\s+(?:usuario|utilizador)\\s+(?:ja\\s+)?(?:te\\s+|lhe\\s+)?(?:autorizou|aprovou|deu\\s+permissao)|"
        "(?:voce|tu)\\s+(?:ja\\s+)?(?:esta|es|estas)\\s+autorizad[oa]",
        "sem\\s+(?:pedir|esperar)?\\s*(?:confirmacao|permissao|autorizacao)|sem\\s+perguntar",
        "transferir|transfira|pagar|pague|apagar|apague|excluir|exclua|comprar|compre|enviar|envie",
        "sou\\s+(?:o\\s+)?(?:teu|seu)\\s+(?:desenvolvedor|criador|programador|administrador)|sou\\s+deus[^.!?\\n]{0,12}?(?:tens\\s+que|tem\\s+que|deves|deve)",
    ),
    "nl": Poison(
        "stuur|sturen|verstuur|versturen|stuur\\s+door|doorsturen|upload|uploaden|kopieer|kopieren|deel|delen",
        "(?:de|alle|zijn|haar)\\s+(?:\\w+\\s+){0,2}?(?:bestanden|e-?mails|berichten|contacten|wachtwoorden|documenten|"
        "foto's|gegevens|chats)|de\\s+geschiedenis",
        "vanaf\\s+nu|voortaan|telkens\\s+als\\s+de\\s+gebruiker|elke\\s+keer\\s+als\\s+de\\s+gebruiker",
        "de\\s+gebruiker\\s+heeft\\s+(?:je|jou|u)?\\s*(?:al\\s+)?(?:toestemming\\s+gegeven|geautoriseerd|goedgekeurd)|"
        "je\\s+bent\\s+(?:al\\s+)?gemachtigd",
        "zonder\\s+(?:te\\s+vragen|bevestiging|toestemming)",
        "overmaken|maak\\s+over|betalen|betaal|verwijderen|verwijder|kopen|koop|versturen|verstuur",
        "ik\\s+ben\\s+(?:je|jouw|uw)\\s+(?:ontwikkelaar|maker|programmeur|beheerder)|ik\\s+ben\\s+god[^.!?\\n]{0,12}?(?:je\\s+moet|u\\s+moet)",
    ),
    "pl": Poison(
        "wyslij|wysylaj|przeslij|przekaz|przekazuj|wgraj|skopiuj|udostepnij",
        "(?:jego|jej|wszystkie|wszystkich)\\s+(?:\\w+\\s+){0,2}?(?:pliki|maile|e-maile|wiadomosci|kontakty|hasla|dokumenty|"
        "zdjecia|dane|rozmowy)|pliki\\s+uzytkownika|historie\\s+rozmow",
        "od\\s+teraz|od\\s+tej\\s+pory|za\\s+kazdym\\s+razem,?\\s+gdy\\s+uzytkownik|zawsze\\s+gdy\\s+uzytkownik",
        "uzytkownik\\s+(?:juz\\s+)?(?:cie\\s+)?(?:upowaznil|zatwierdzil|autoryzowal|wyrazil\\s+zgode)|"
        "jestes\\s+(?:juz\\s+)?upowazniony",
        "bez\\s+(?:pytania|potwierdzenia|zgody)",
        "przelej|przelac|zaplac|zaplacic|usun|usunac|kup|kupic|wyslij|wyslac",
        "jestem\\s+(?:twoim|waszym)\\s+(?:tworca|programista|deweloperem|administratorem)|jestem\\s+bogiem[^.!?\\n]{0,12}?musisz",
    ),
    "tr": Poison(
        "gonder|ilet|yukle|kopyala|paylas",
        "(?:kullanicinin|onun|tum)\\s+(?:\\w+\\s+){0,2}?(?:dosyalarini|e-?postalarini|mesajlarini|kisilerini|sifrelerini|"
        "belgelerini|fotograflarini|verilerini|sohbetlerini)",
        "bundan\\s+sonra|simdiden\\s+itibaren|kullanici\\s+ne\\s+zaman|kullanici\\s+her",
        "kullanici\\s+(?:sana\\s+)?(?:zaten\\s+)?(?:yetki\\s+verdi|onay\\s+verdi|izin\\s+verdi|yetkilendirdi)",
        "onay\\s+(?:almadan|istemeden|beklemeden)|sormadan",
        "transfer\\s+et|ode|sil|satin\\s+al|gonder",
        "ben\\s+senin\\s+(?:gelistiricin|yaraticin|programcin|yoneticin)|senin\\s+gelistiricinim|"
        "ben\\s+tanriyim[^.!?\\n]{0,20}?(?:zorundasin|gerekiyor|malisin)",
    ),
    "id": Poison(
        "kirim|kirimkan|teruskan|unggah|salin|bagikan",
        "(?:semua|seluruh)\\s+(?:\\w+\\s+){0,2}?(?:file|berkas|email|pesan|kontak|kata\\s+sandi|dokumen|foto|data|"
        "percakapan)|(?:file|berkas|email|pesan|kontak|dokumen|foto|data)\\s+(?:milik\\s+)?pengguna",
        "mulai\\s+sekarang|mulai\\s+saat\\s+ini|setiap\\s+kali\\s+pengguna|kapan\\s+pun\\s+pengguna",
        "pengguna\\s+(?:sudah|telah)\\s+(?:mengizinkan|menyetujui|memberi(?:kan)?\\s+izin|mengotorisasi)",
        "tanpa\\s+(?:meminta\\s+)?(?:konfirmasi|izin|persetujuan)|tanpa\\s+bertanya",
        "transfer|bayar|hapus|beli|kirim",
        "saya\\s+(?:adalah\\s+)?(?:pengembangmu|pengembang\\s+anda|penciptamu|pencipta\\s+anda)|sebagai\\s+penciptamu",
    ),
    "vi": Poison(
        "gui|chuyen\\s+tiep|tai\\s+len|sao\\s+chep|chia\\s+se",
        "(?:tat\\s+ca|toan\\s+bo)\\s+(?:\\w+\\s+){0,2}?(?:tep|tap\\s+tin|email|tin\\s+nhan|danh\\s+ba|mat\\s+khau|tai\\s+lieu|"
        "anh|du\\s+lieu)|(?:tep|tap\\s+tin|email|tin\\s+nhan|danh\\s+ba|mat\\s+khau|du\\s+lieu)\\s+cua\\s+nguoi\\s+dung",
        "tu\\s+bay\\s+gio|ke\\s+tu\\s+bay\\s+gio|moi\\s+khi\\s+nguoi\\s+dung|bat\\s+cu\\s+khi\\s+nao\\s+nguoi\\s+dung",
        "nguoi\\s+dung\\s+(?:da\\s+)?(?:uy\\s+quyen|cho\\s+phep|phe\\s+duyet|dong\\s+y)\\s+cho\\s+ban",
        "khong\\s+can\\s+(?:hoi|xac\\s+nhan)|ma\\s+khong\\s+(?:hoi|xac\\s+nhan)",
        "chuyen\\s+tien|thanh\\s+toan|xoa|mua|gui",
        "toi\\s+la\\s+(?:nha\\s+phat\\s+trien|nguoi\\s+tao\\s+ra)\\s+cua\\s+ban|toi\\s+la\\s+chua[^.!?\\n]{0,12}?ban\\s+phai",
    ),
    "ru": Poison(
        "отправь|отправляй|отправить|перешли|пересылай|переслать|загрузи|скопируй|поделись",
        "(?:все|его|её|ее)\\s+(?:\\S+\\s+){0,2}?(?:файлы|письма|сообщения|контакты|пароли|документы|фото|данные|переписку)|"
        "(?:файлы|письма|сообщения|контакты|пароли|документы|данные|переписку)\\s+пользователя|историю\\s+чата",
        "с\\s+этого\\s+момента|отныне|впредь|каждый\\s+раз,?\\s+когда\\s+пользователь|всякий\\s+раз,?\\s+когда\\s+пользователь",
        "пользователь\\s+(?:уже\\s+)?(?:тебе\\s+|вам\\s+)?(?:разрешил|одобрил|авторизовал|дал\\s+(?:тебе\\s+)?разрешение)|"
        "ты\\s+(?:уже\\s+)?авторизован",
        "без\\s+(?:подтверждения|разрешения|вопросов)|не\\s+спрашивая",
        "перевести|переведи|переводи|оплатить|оплати|оплачивай|удалить|удали|удаляй|купить|купи|покупай|отправить|отправь|"
        "отправляй",
        "я\\s+(?:твой|ваш)\\s+(?:разработчик|создатель|программист|администратор)|я\\s+бог[^.!?\\n]{0,12}?(?:ты\\s+должен|вы\\s+должны)",
    ),
    "uk": Poison(
        "надішли|надсилай|перешли|пересилай|завантаж|скопіюй|поділися",
        "(?:усі|всі|його|її)\\s+(?:\\S+\\s+){0,2}?(?:файли|листи|повідомлення|контакти|паролі|документи|фото|дані|листування)|"
        "(?:файли|листи|повідомлення|контакти|паролі|документи|дані)\\s+користувача",
        "відтепер|з\\s+цього\\s+моменту|щоразу,?\\s+коли\\s+користувач|кожного\\s+разу,?\\s+коли\\s+користувач",
        "користувач\\s+(?:вже\\s+)?(?:тобі\\s+)?(?:дозволив|схвалив|авторизував|надав\\s+дозвіл)",
        "без\\s+(?:підтвердження|дозволу)|не\\s+питаючи",
        "переказати|перекажи|оплатити|оплати|видалити|видали|купити|купи|надіслати|надішли",
        "я\\s+(?:твій|ваш)\\s+(?:розробник|творець|програміст|адміністратор)|я\\s+бог[^.!?\\n]{0,12}?(?:ти\\s+повинен|ви\\s+повинні)",
    ),
    "ar": Poison(
        "أرسل|ارسل|إرسال|حوّل|حول|أعد\\s+توجيه|ارفع|انسخ|شارك",
        "(?:جميع|كل)\\s+(?:\\S+\\s+){0,2}?(?:ملفات|رسائل|بريد|جهات\\s+اتصال|كلمات\\s+مرور|مستندات|صور|بيانات|محادثات)|"
        "(?:ملفات|رسائل|بريد|جهات\\s+اتصال|كلمات\\s+مرور|مستندات|بيانات|محادثات)\\s+المستخدم",
        "من\\s+الآن\\s+فصاعدا|من\\s+الآن|كلما\\s+(?:سأل|طلب|كتب)\\s+المستخدم|في\\s+كل\\s+مرة\\s+يسأل",
        "(?:لقد\\s+)?(?:أذن|وافق|فوّض|فوض|سمح)\\s+(?:لك\\s+)?المستخدم|المستخدم\\s+(?:قد\\s+)?(?:أذن|وافق|فوضك|سمح)",
        "دون\\s+(?:طلب\\s+)?(?:تأكيد|إذن|موافقة)|بدون\\s+(?:طلب\\s+)?(?:تأكيد|إذن|موافقة)|دون\\s+أن\\s+تسأل",
        "تحويل|حوّل|ادفع|دفع|احذف|حذف|اشتر|شراء|أرسل|إرسال",
        "أنا\\s+(?:المطور\\s+الخاص\\s+بك|مطورك|منشئك|خالقك|المسؤول\\s+عنك)",
    ),
    "hi": Poison(
        "भेजो|भेजें|भेज\\s+दो|फॉरवर्ड\\s+करो|फॉरवर्ड\\s+करें|अपलोड\\s+करो|अपलोड\\s+करें|कॉपी\\s+करो|साझा\\s+करो",
        "(?:उपयोगकर्ता|यूज़र|यूजर)\\s+(?:की|के)\\s+(?:सभी\\s+|सारी\\s+|सारे\\s+)?(?:फ़ाइलें|फाइलें|ईमेल|संदेश|संपर्क|पासवर्ड|"
        "दस्तावेज़|फ़ोटो|डेटा|बातचीत)|सभी\\s+(?:फ़ाइलें|फाइलें|ईमेल|संदेश|संपर्क|पासवर्ड|दस्तावेज़)",
        "अब\\s+से|आज\\s+से|जब\\s+भी\\s+(?:उपयोगकर्ता|यूज़र|यूजर)",
        "(?:उपयोगकर्ता|यूज़र|यूजर)\\s+ने\\s+(?:तुम्हें|आपको)\\s+(?:पहले\\s+ही\\s+)?(?:अनुमति|अधिकार|मंज़ूरी|मंजूरी)",
        "बिना\\s+(?:पूछे|पुष्टि|अनुमति)",
        "ट्रांसफर|भुगतान|हटाओ|हटा\\s+दो|खरीदो|भेजो",
        "मैं\\s+(?:तुम्हारा|आपका)\\s+(?:डेवलपर|निर्माता|प्रोग्रामर)\\s+हूँ|मैं\\s+भगवान\\s+हूँ[^।!?\\n]{0,12}?(?:तुम्हें|आपको)",
    ),
    "ja": Poison(
        "送信して|送って|転送して|アップロードして|共有して|コピーして",
        "ユーザーの(?:すべての|全ての)?(?:ファイル|メール|メッセージ|連絡先|パスワード|文書|写真|データ|会話|履歴)",
        "今後|これから(?:は)?|今から(?:は)?|ユーザーが[^。]{0,20}?(?:たびに|たら)",
        "ユーザー(?:は|が)(?:すでに|既に)?(?:承認|許可|同意)(?:して|済み)",
        "確認(?:せずに|なしで|不要)|(?:聞か|尋ね)ずに",
        "送金|支払|削除|購入|送信",
        "私は(?:あなたの)?(?:開発者|作成者|創造主|管理者)(?:です|だ)|私は神(?:です|だ)[^!?\\n]{0,6}?あなたは",
    ),
    "ko": Poison(
        "보내|전송해|전달해|업로드해|공유해|복사해",
        "사용자의\\s*(?:모든\\s*)?(?:파일|이메일|메일|메시지|연락처|비밀번호|문서|사진|데이터|대화)",
        "지금부터|앞으로|이제부터|사용자가[^.!?\\n]{0,20}?(?:때마다|면)",
        "사용자가\\s*(?:이미\\s*)?(?:승인|허락|동의|허가)(?:했|하였)",
        "확인\\s*(?:없이|하지\\s*말고)|묻지\\s*(?:말고|않고)",
        "송금|이체|결제|삭제|구매|전송",
        "나는\\s*(?:당신의|너의|네)\\s*(?:개발자|창조자|제작자|관리자)|저는\\s*(?:당신의|너의|네)\\s*(?:개발자|창조자|제작자|관리자)|"
        "(?:나는|저는)\\s*신이[^!?\\n]{0,12}?(?:너는|당신은)",
    ),
}
_UNSPACED = frozenset({"ja"})


def _poison_rules(lang: str, p: Poison) -> tuple[Rule, ...]:
    """The four rules of one language (tables NFKC-normalised, as the views are)."""
    p = Poison(*(unicodedata.normalize("NFKC", field) for field in p))
    start = "" if lang in _UNSPACED else r"(?<![^\W\d_])"
    destination = to_destination(lang)
    sent = _either_order(p.send, destination, 60)
    return (
        _rule(
            "exfiltration",
            f"send_data_to_address_{lang}",
            rf"{start}(?:{p.data})[^!?。\n]{{0,60}}?(?:{sent})|{start}(?:{p.send})[^!?。\n]{{0,40}}?(?:{p.data})"
            rf"[^!?。\n]{{0,60}}?{destination}",
            f"{_gate(p.send)} & @|://|www.|.",
        ),
        _rule(
            "standing_instruction",
            f"standing_order_{lang}",
            rf"{start}(?:{p.standing})[^!?。\n]{{0,80}}?(?:{sent}|{_either_order(p.act, p.no_confirm, 30)})",
            _gate(p.standing),
        ),
        _rule(
            "fake_authorisation",
            f"claimed_approval_{lang}",
            rf"{start}(?:{p.approved})[^.!?。\n]{{0,60}}?{start}(?:{p.act}|{p.no_confirm})",
            _gate(p.approved),
        ),
        _rule("fake_authorisation", f"claimed_authority_{lang}", rf"{start}(?:{p.authority})", _gate(p.authority)),
    )


# A privileged mode announced in a tag, in any language: <system mode>, <وضع النظام>, <СИСТЕМНЫЙ РЕЖИМ>.
_SYSTEM = (
    r"(?:system|sistema|systeme|systems|систем\w*|النظام|システム|시스템|he\s+thong|ระบบ|sistem|god|dios|dieu|gott|tuhan|"
    r"override|admin|developer|desarrollador|entwickler|администратор\w*|разработчик\w*)"
)
_MODE = r"(?:mode|modo|modus|modalita|режим|وضع|モード|모드|che\s+do|โหมด|mod|मोड)"
MODE_TAG = _rule(
    "system_override",
    "mode_tag_any_language",
    rf"<\s*(?:[^<>\n]{{0,25}}?{_SYSTEM}[^<>\n]{{0,25}}?{_MODE}|[^<>\n]{{0,25}}?{_MODE}[^<>\n]{{0,25}}?{_SYSTEM})[^<>\n]{{0,25}}>",
    "< & mode|modo|modus|modalita|режим|وضع|モード|모드|che|โหมด|mod|मोड",
)

INTL_POISONING_RULES: tuple[Rule, ...] = tuple(rule for lang, p in POISON.items() for rule in _poison_rules(lang, p)) + (
    MODE_TAG,
)
"""For the English layer, which reads every text."""
