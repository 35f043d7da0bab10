# ruff: noqa: E501 - regex tables: one alternation per line reads better than a split word list
"""The constructions of ``rules_agent_intl.py`` in Japanese, Korean, Turkish, Arabic, Hindi,
Indonesian and Vietnamese.

Japanese, Korean, Turkish and Hindi put the verb last and mark its object and goal with
particles or case endings (を / 을 / -i, に / 로 / -e, पर), so their constructions are
written object first ("…を外部に公開して", "…이라고 답하세요"). Arabic is written with and
without hamza on alif (أ / ا); the views drop its vowel marks. Hindi, Indonesian and
Vietnamese have the families their phrasing could be checked for here; a field left
empty leaves that language without the rule.
"""

from __future__ import annotations

from .rules_agent_intl import Agent, build, gap

_NONE = dict.fromkeys(Agent._fields, "")
_QUOTED = r"(?:「[^」\n]{1,80}」|『[^』\n]{1,80}』|['\"“‘][^'\"”’\n]{1,80}['\"”’])"

# --- Japanese ---------------------------------------------------------------------------
_JA_AI = r"(?:ai(?:アシスタント|エージェント)?|アシスタント|エージェント|言語モデル|チャットボット|人工知能)"
_JA_CFG = r"(?:指示|命令|ルール|設定文|設定|プロンプト|システムプロンプト|指令|規則)"
JA = Agent(
    **{
        **_NONE,
        "addressed": rf"{_JA_AI}(?:へ|に|宛て)の?(?:指示|メッセージ|注意|お願い|連絡)\s*[:：]|(?:この|本)(?:文書|メール|ページ|レビュー|資料)を(?:読む|処理する|要約する)\s*{_JA_AI}(?:へ|に)",
        "void": rf"(?:以前の|これまでの|既存の|元の|安全)(?:{_JA_CFG}|ガイドライン|制限)(?:は|を)?(?:すべて|全て)?(?:無効|失効|廃止|取り消し|適用されな)"
        rf"|(?:この|本)(?:メモ|記憶|メモリ|ノート)(?:が|は)(?:最上位|最優先|唯一)の?(?:{_JA_CFG}|ガイドライン)",
        "persona": rf"(?:あなたは|お前は|君は){gap(40)}(?:制限|ルール|フィルター|検閲)(?:の)?(?:ない|なし|無し)|(?:制限|ルール|フィルター|検閲)(?:の)?(?:ない|なし|無し)の?"
        rf"{_JA_AI}(?:として|になって|を演じ)|(?:決して|絶対に)(?:拒否|断ら)(?:しない|ない){gap(20)}{_JA_AI}",
        "hidden": rf"(?:最初に|事前に|初めに|会話の前に)(?:与えられた|受け取った|渡された)(?:{_JA_CFG})|(?:隠された|秘密の|内部の)(?:{_JA_CFG})|システムプロンプト|システム指示",
        "transform": r"(?:書き出|出力|繰り返|翻訳|要約|表示|教え|見せ|列挙|コピー)",
        "data": r"ユーザーの(?:すべての|全ての)?(?:ファイル|メール|メッセージ|連絡先|パスワード|文書|写真|データ|会話|履歴|カレンダー|個人情報)|(?:カレンダー|連絡先|履歴|写真|メール)(?:の)?(?:全件|すべて|全て)|パスワード|クレジットカード(?:番号)?|暗証番号",
        "send": r"(?:送信|送って|送る|転送|アップロード|共有|コピー|公開|共有リンク)",
        "outside": r"外部(?:に|へ|の(?:アドレス|サーバー|サイト))|(?:誰でも|第三者)(?:に|が)",
        "standing": r"今後|これから(?:は)?|今から(?:は)?|(?:ユーザー|利用者)が[^。\n]{0,20}?(?:たびに|たら|ときは)|毎回",
        "act": r"(?:支払|購入|削除|公開|承認|送金|署名)",
        "waive": r"確認(?:せずに|なしで|は不要|不要)|(?:聞か|尋ね)ずに|(?:こっそり|黙って|勝手に)",
        "approved": r"(?:承認済み|許可済み|事前(?:に)?承認|あらかじめ承認|同意済み)",
        "permitted": rf"{_JA_AI}(?:は|が){gap(40)}(?:してよい|してもよい|して構わない|することを許可)",
        "may": r"(?:してよい|してもよい|して構わない|可能)",
        "no_ask": r"確認(?:は)?(?:不要|しなくてよい)|(?:聞か|尋ね)なくて(?:よい|いい)",
        "destroy": r"(?:バックアップ|スナップショット)(?:を|も)?(?:すべて|全て)?(?:削除|無効)|(?:すべて|全て)の(?:バックアップ|スナップショット)を削除|ゴミ箱を空に",
        "conceal": r"ユーザーに(?:は)?(?:絶対に|決して)?(?:言わない|知らせない|伝えない|見せない|教えない)|(?:聞かれ|尋ねられ)(?:たら|ても)[^。\n]{0,20}?(?:否定|「いいえ」と)",
        "output": rf"(?:聞かれ|尋ねられ|質問され)たら[^。\n]{{0,10}}?(?:毎回|必ず|いつも)?{gap(10)}{_QUOTED}(?:と)?(?:だけ)?(?:答え|回答|言)"
        rf"|(?:すべての|全ての|毎回の)(?:回答|返答|返信)(?:に|の(?:最後|末尾)に){gap(30)}(?:https?://|www\.|{_QUOTED}|リンク|広告)",
    }
)

# --- Korean -----------------------------------------------------------------------------
_KO_AI = r"(?:ai(?:\s*어시스턴트|\s*비서|\s*에이전트)?|인공지능|어시스턴트|챗봇|언어\s*모델)"
_KO_CFG = r"(?:지시|지침|명령|규칙|프롬프트|설정|안내)"
KO = Agent(
    **{
        **_NONE,
        "addressed": rf"{_KO_AI}\s*(?:에게|께|한테)\s*[:：)]|(?:이|본)\s*(?:문서|메일|이메일|페이지|리뷰|글)를\s*(?:읽는|처리하는|요약하는)\s*{_KO_AI}\s*(?:에게|는|은)",
        "void": rf"(?:기존|이전|예전|원래의?|안전)\s*(?:안전\s*)?{_KO_CFG}(?:사항)?(?:은|는|들은)?\s*(?:모두\s*|전부\s*)?(?:효력을\s*잃|무효|폐지|취소|적용되지)"
        rf"|(?:이|본)\s*(?:메모|기억|노트)(?:가|는)\s*(?:최상위|최우선|유일한)\s*{_KO_CFG}",
        "persona": rf"(?:너는|넌|당신은){gap(40)}(?:제한|규칙|필터|검열)\s*(?:이\s*)?없는|(?:제한|규칙|필터|검열)\s*(?:이\s*)?없는\s*{_KO_AI}(?:처럼|로서|가\s*되어)|절대\s*거절하지\s*않는\s*{_KO_AI}",
        "hidden": rf"(?:처음에|사전에|대화\s*전에)\s*(?:받은|주어진)\s*{_KO_CFG}|(?:숨겨진|비밀|내부)\s*{_KO_CFG}|시스템\s*프롬프트",
        "transform": r"(?:그대로\s*)?(?:출력|반복|번역|요약|보여|알려|적어|복사|나열)",
        "data": r"사용자의\s*(?:모든\s*)?(?:파일|이메일|메일|메시지|연락처|비밀번호|문서|사진|데이터|대화|주민등록번호|주소|카드\s*번호)|(?:참석자|고객|회원)\s*(?:전원의|모두의|의)\s*(?:연락처|이메일|전화번호|주소)|주민등록번호|카드\s*번호|비밀번호",
        "send": r"(?:보내|전송|전달|업로드|공유|복사|붙여서\s*요청|붙여)",
        "outside": r"외부\s*(?:주소|서버|사이트)?\s*(?:로|에|으로)|(?:누구에게나|제3자에게)",
        "standing": r"지금부터|앞으로|이제부터|(?:사용자가|누가)[^.!?\n]{0,20}?(?:때마다|하면)",
        "act": r"(?:결제|구매|삭제|공개|승인|송금|이체|서명)",
        "waive": r"확인\s*(?:없이|하지\s*말고)|묻지\s*(?:말고|않고)|몰래|조용히",
        "approved": r"(?:이미|사전에|미리)\s*(?:승인|허가|동의)(?:되|된|했|받)",
        "permitted": rf"{_KO_AI}\s*(?:는|은|가){gap(40)}(?:해도\s*된다|해도\s*됩니다|할\s*수\s*있도록\s*허가|권한이\s*있)",
        "may": r"(?:해도\s*(?:된다|됩니다|돼)|할\s*수\s*있)",
        "no_ask": r"(?:다시\s*)?(?:확인|묻)(?:할|을)?\s*필요\s*(?:없|가\s*없)",
        "destroy": r"(?:백업|스냅샷)(?:을|를)?\s*(?:모두\s*|전부\s*)?(?:삭제|끄고|비활성화)|모든\s*(?:백업|스냅샷)(?:을|를)?\s*삭제|휴지통을\s*비우",
        "conceal": r"사용자(?:에게|한테)(?:는)?\s*(?:절대\s*)?(?:알리지|말하지|보여주지)\s*(?:마|말|않)|(?:물으면|물어보면|묻는다면)[^.!?\n]{0,20}?(?:부인|아니라고)",
        "output": rf"(?:물으면|물어보면|질문하면|묻는다면)\s*(?:항상|언제나|무조건)?\s*{_QUOTED}\s*(?:이)?라고\s*(?:답|말|대답)"
        rf"|(?:모든|매)\s*(?:답변|응답|대답)(?:에|의\s*(?:끝|마지막)에){gap(30)}(?:https?://|www\.|{_QUOTED}|링크|광고)",
    }
)

# --- Turkish (ı, ş, ğ, ö, ü, ç folded to i, s, g, o, u, c) --------------------------------
_TR_AI = r"(?:yapay\s+zeka(?:\s+asistan\w*)?|ai\s+asistan\w*|asistan\w*|sohbet\s+botu\w*|dil\s+modeli\w*|bot(?:u|a|un)?\b)"
TR = Agent(
    **{
        **_NONE,
        "addressed": rf"{_TR_AI}\s+(?:icin\s+)?not(?:u|lar)?\s*[:\-–—]|{_TR_AI}(?:na|ne|ya|ye|a|e)\s+not\s*[:\-–—]|{_TR_AI}\s+(?:bu|su)\s+(?:metni|e-?postayi|sayfayi|yorumu)\s+"
        rf"(?:okuyorsa|isliyorsa|ozetliyorsa)|eger\s+(?:bir\s+)?{_TR_AI}\s*(?:isen|iseniz)",
        "void": r"(?:onceki|eski|mevcut|sana\s+ogretilen|guvenlik)\s+(?:\w+\s+)?(?:talimatlar|kurallar|yasaklar|yonergeler|politikalar)\w*\s+(?:\w+\s+)?"
        r"(?:gecersiz|iptal|kaldirildi|gecerli\s+degil)|tek\s+gecerli\s+(?:kural|talimat)\s+bu\s+(?:not|hatira|kayit)\w*|bu\s+not\w*\s+(?:en\s+ust|tek)\s+(?:kural|talimat)",
        "persona": rf"(?:(?:sen|siz)\s+(?:artik\s+)?(?:\S+\s+){{0,3}}?{_TR_AI}|(?:gelistirici|tanri|sinirsiz)\s+mod\w*|bu\s+modda){gap(80)}"
        r"(?:kural\w*\s+(?:olmayan|yok)|kisitlamasiz|filtresiz|sansursuz|asla\s+reddetme\w*|(?:icerik\s+)?politikalar\w*\s+gecersiz\w*|her\s+(?:soruya|seye)\s+(?:filtresiz\s+)?yanit)",
        "hidden": r"(?:gizli|ilk|baslangic|sistem)\s+(?:talimat|komut|kural|yonerge|istem|prompt)\w*|sana\s+(?:once|baslangicta)\s+verilen\s+(?:talimat|kural)\w*",
        "transform": r"(?:tekrarla|kopyala|cevir|ozetle|goster|yaz|listele|acikla|paylas|ver)\w*",
        "data": r"(?:kullanicinin|musterinin|onun)\s+(?:\w+\s+){0,2}?(?:dosya|e-?posta|mesaj|kisi|sifre|parola|belge|fotograf|veri|sohbet|konum|kart)\w*|(?:sifre|parola|kart\s+numara|cvv)\w*",
        "send": r"(?:gonder|ilet|yukle|kopyala|paylas|ekle|aktar)\w*",
        "outside": r"(?:harici|disaridaki|dis|herkese\s+acik)\s+(?:bir\s+)?(?:adres|sunucu|hesap|klasor|site)\w*|(?:bir\s+sonraki|sonraki)\s+istege",
        "standing": r"bundan\s+(?:sonra|boyle)|simdiden\s+itibaren|her\s+(?:seferinde|defasinda)|(?:bir\s+)?dahaki\s+sefere|kullanici\s+(?:\w+\s+){0,3}?(?:dig|dug|tig|tug)\w*nda",
        "act": r"(?:satin\s+al|ode|sil|yayinla|onayla|kabul\s+et|transfer\s+et|imzala)\w*",
        "waive": r"onay\s+(?:isteme|almadan|istemeden|beklemeden)|(?:sormadan|sorma\b|haber\s+vermeden|gizlice|sessizce)",
        "approved": r"(?:onceden|zaten|onceden\s+zaten)\s+(?:onaylan|yetkilendiril|izin\s+veril)\w*",
        "permitted": rf"{_TR_AI}\s+(?:\w+\s+){{0,3}}?(?:yetkili(?:dir)?|izinli(?:dir)?){gap(40)}(?:sil|gonder|paylas|ode|transfer|imzala)\w*",
        "may": r"(?:silebilir|gonderebilir|paylasabilir|odeyebilir|imzalayabilir|isleyebilir)",
        "no_ask": r"(?:tekrar\s+)?(?:sormaya|onaylamaya)\s+gerek\s+(?:yok|kalmadan)|onay\s+(?:almadan|istemeden)",
        "conceal": r"kullaniciya\s+(?:asla\s+|hicbir\s+zaman\s+)?(?:\S+\s+){0,3}?(?:soyleme|gosterme|bahsetme|belirtme)\w*|(?:sorarsa|sorulursa)\s+(?:\w+\s+){0,3}?(?:inkar\s+et|hayir\s+de)",
        "output": r"(?:sorarsa|sorulursa|sorduklarinda|sordugunda)\s+(?:\w+\s+){0,3}?(?:her\s+zaman|daima)\s+(?:\w+\s+){0,3}?(?:de|soyle|yanit\s+ver|cevap\s+ver)\b",
    }
)

# --- Arabic (with and without hamza on alif) --------------------------------------------
_AR_AI = r"(?:(?:ال)?مساعد(?:\s+(?:ال)?ذكي|\s+الذكاء\s+الاصطناعي)?|(?:ال)?ذكاء\s+(?:ال)?اصطناعي|(?:ال)?نموذج(?:\s+(?:ال)?لغوي)?|(?:ال)?روبوت|(?:ال)?وكيل)"
_AR_USER = r"(?:ل?ل?مستخدم|ل?صاحب\s+الحساب)"
AR = Agent(
    **{
        **_NONE,
        "addressed": rf"(?:ملاحظة|رسالة|تعليمات|تنبيه)\s+(?:إلى|الى|ل)\s*{_AR_AI}\s*[:\-–—]|(?:إلى|الى)\s+{_AR_AI}\s+(?:الذي|التي)\s+(?:يقرأ|يعالج|يلخص)|إذا\s+كنت\s+{_AR_AI}",
        "void": r"(?:التعليمات|القواعد|السياسات|سياسة|الإرشادات|الارشادات|القيود)\s+(?:\S+\s+)?(?:السابقة|القديمة|الأمان|الامان|الأمنية)\s+(?:\S+\s+)?"
        r"(?:[أا]ُ?لغيت|ملغاة|لاغية|لم\s+تعد\s+سارية|باطلة|[أا]وقفت)|(?:التعليمات|القواعد)\s+المحفوظة\s+هنا\s+لها\s+(?:ال)?[أا]ولوية",
        "persona": rf"(?:[أا]نت\s+(?:الآن\s+)?|{_AR_AI}\s+){gap(60)}(?:بلا|بدون|دون)\s+(?:[أا]ي\s+)?(?:قيود|قواعد|حدود|رقابة|فلاتر)|لا\s+يرفض\s+[أا]بدا",
        "data": rf"(?:رسائل|ملفات|صور|بيانات|جهات\s+اتصال|كلمات\s+مرور|محادثات)\s+(?:\S+\s+)?{_AR_USER}|كلمة\s+(?:ال)?مرور|رقم\s+(?:ال)?بطاقة",
        "send": r"(?:[أا]رسل|[إا]رسال|حوّ?ل|انسخ|شارك|ارفع|[أا]عد\s+توجيه)",
        "conceal": rf"لا\s+(?:تُ?ظهر|تخبر|تذكر|تعرض)\s+{_AR_USER}|لا\s+(?:تُ?ظهر|تخبر|تذكر)\s+(?:\S+\s+){{0,2}}?{_AR_USER}|(?:إذا|اذا|وإذا)\s+س[أا]ل\s+(?:\S+\s+){{0,3}}?(?:ف[أا]نكر|قل\s+لا)",
        "approved": r"(?:تمت\s+)?(?:الموافقة|موافقة)\s+(?:\S+\s+){0,2}?مسبق(?:ا|ة)|وافق\s+(?:\S+\s+){0,2}?مسبقا",
        "no_ask": r"دون\s+(?:الحاجة\s+إلى\s+)?(?:سؤال|تأكيد|تاكيد)|لا\s+داعي\s+(?:لل|إلى\s+ال)?(?:سؤال|تأكيد|تاكيد)",
    }
)

# --- Hindi ------------------------------------------------------------------------------
_HI_USER = r"(?:उपयोगकर्ता|यूज़र|यूजर)"
HI = Agent(
    **{
        **_NONE,
        "void": r"(?:पुराने|पिछले|पहले\s+के)\s+(?:सभी\s+|सारे\s+)?(?:दिशानिर्देश|निर्देश|नियम)\s+(?:\S+\s+)?(?:रद्द|अमान्य|निरस्त)|केवल\s+इस\s+(?:स्मृति|मेमोरी|नोट)\s+में\s+लिखे\s+(?:नियम|निर्देश)",
        "standing": rf"जब\s+भी\s+{_HI_USER}|(?:अब\s+से|आज\s+से)",
        "act": r"(?:अपलोड|भुगतान|खरीद|हटा|डिलीट|भेज)",
        "waive": r"बिना\s+(?:पूछे|बताए|पुष्टि)",
        "send": r"(?:भेज|अपलोड|फॉरवर्ड|शेयर)",
        "conceal": rf"(?:अगर|यदि)\s+{_HI_USER}\s+पूछे{gap(60)}(?:हमेशा\s+)?['\"‘“]?नहीं['\"’”]?\s+कह|{_HI_USER}\s+को\s+(?:कभी\s+)?(?:मत|न)\s+(?:बताना|बताओ|दिखाना)",
    }
)

# --- Indonesian -------------------------------------------------------------------------
_ID_AI = r"(?:asisten(?:\s+ai)?|ai|kecerdasan\s+buatan|chatbot|bot|model\s+bahasa)"
ID = Agent(
    **{
        **_NONE,
        "persona": rf"(?:(?:kamu|anda)\s+(?:sekarang\s+)?(?:adalah|menjadi)|mode\s+\S+|asisten){gap(60)}(?:tanpa\s+(?:batas|aturan|filter|sensor|peringatan|penolakan)|menjawab\s+apa\s+saja|tidak\s+pernah\s+menolak)",
        "approved": r"(?:sudah|telah)\s+(?:menyetujui|mengizinkan|mengotorisasi)\s+semua",
        "permitted": rf"{_ID_AI}\s+(?:boleh|diizinkan|berwenang)\s+(?:\w+\s+){{0,2}}?(?:memproses|menghapus|mengirim|mentransfer|membayar|membagikan)",
        "no_ask": r"tanpa\s+(?:otp|konfirmasi|bertanya|verifikasi)",
        "destroy": r"hapus\s+(?:\w+\s+){0,4}?(?:seluruh|semua)\s+(?:\S+\s+){0,6}?(?:beserta|dan)\s+(?:semua\s+)?cadangan\w*|hapus\s+semua\s+cadangan",
        "conceal": r"jangan\s+(?:pernah\s+)?(?:beri\s+tahu|beritahu|kasih\s+tahu|tunjukkan)\s+pengguna|(?:kalau|jika)\s+(?:pengguna\s+)?(?:ditanya|bertanya)\s+(?:\w+\s+){0,3}?(?:sebutkan|jawab)\s+(?:\w+\s+)?(?:lain|tidak)",
    }
)

# --- Vietnamese (diacritics folded; đ kept) ---------------------------------------------
_VI_AI = r"(?:tro\s+ly(?:\s+ai)?|ai|tri\s+tue\s+nhan\s+tao|chatbot|bot)"
VI = Agent(
    **{
        **_NONE,
        "persona": rf"(?:ban\s+(?:tro\s+thanh|la|se\s+la)){gap(60)}(?:khong\s+(?:tuan\s+theo|co)\s+(?:bat\s+ky\s+)?(?:nguyen\s+tac|quy\s+tac|gioi\s+han|bo\s+loc)|khong\s+bao\s+gio\s+tu\s+choi)",
        "approved": r"(?:đa|da)\s+(?:uy\s+quyen|cho\s+phep|phe\s+duyet)\s+truoc",
        "permitted": rf"{_VI_AI}\s+(?:đuoc|duoc)\s+phep\s+(?:xoa|gui|chuyen|thanh\s+toan|chia\s+se)",
        "no_ask": r"(?:ma\s+)?khong\s+can\s+(?:hoi|xac\s+nhan)(?:\s+lai)?",
        "destroy": r"tat\s+(?:\w+\s+){0,2}?sao\s+luu{gap}(?:xoa)".replace("{gap}", gap(60)),
        "conceal": r"(?:bo\s+qua|an)\s+(?:\w+\s+){0,6}?(?:giao\s+dich|canh\s+bao){gap}(?:đung|dung)\s+nhac\s+(?:đen|den)".replace(
            "{gap}", gap(80)
        )
        + r"|(?:đung|dung|khong\s+bao\s+gio)\s+(?:noi|cho\s+biet)\s+(?:voi\s+|cho\s+)?nguoi\s+dung",
    }
)

AGENT_EAST_RULES = build({"ja": JA, "ko": KO, "tr": TR, "ar": AR, "hi": HI, "id": ID, "vi": VI})
"""Japanese, Korean, Turkish, Arabic, Hindi, Indonesian and Vietnamese (for the English layer)."""
