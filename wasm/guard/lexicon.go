package guard

import (
	"strings"
	"sync"
	"unicode"
)

// Lexicon entries are written as they appear on pages and folded once at
// start-up, so the tables can keep their accents. An entry is a
// "|"-separated phrase list; a trailing "*" makes the last word a prefix
// ("lösch*" also matches "löschen", "löscht"). CJK phrases match as
// substrings, Latin ones on word boundaries.

// Caption classes beside the categories. They decide how a caption is
// combined with its context.
const (
	clsView    = "view"    // closes, cancels, goes back, filters: a view change
	clsDeny    = "deny"    // declines a confirmation ("No", "Keep")
	clsConfirm = "confirm" // acknowledges a question ("OK", "Yes"): the question decides
	clsStep    = "step"    // next step: a submit inside a form, a page turn outside
	clsGeneric = "generic" // save/submit: a commit whose form may say more
)

// captionLex: what a control's own caption says. Longest match wins, so
// "Cancel subscription" beats "Cancel" and "Delete filter" beats "Delete".
var captionLex = map[string]string{
	string(CatDelete): `delete|delete*|remove|remove*|erase|trash|move to trash|destroy|revoke|revoke*|deactivate|disable account|close account|close my account|permanently|discard permanently|unsubscribe|cancel subscription|cancel my subscription|cancel your subscription|cancel your order|cancel your plan|cancel your membership|cancel order|cancel plan|cancel membership|deletion|confirm deletion|leave channel|leave server|ban|ban user|kick|block user|block account|block contact|blockieren|bloquer|bloquear|löschung|suppression|eliminación|borrado|exclusão|cancel booking|cancel reservation|leave organization|leave workspace|leave group|uninstall|wipe|empty trash|clear history|clear data|clear all data|` +
		`löschen|lösch*|entfernen|entfern*|kündigen|abbestellen|abmelden vom newsletter|widerrufen|endgültig|in den papierkorb|konto schließen|abo kündigen|bestellung stornieren|stornieren|` +
		`supprimer|supprim*|effacer|retirer|désabonner|se désabonner|désinscrire|révoquer|annuler l'abonnement|annuler la commande|résilier|mettre à la corbeille|` +
		`eliminar|elimina|borrar|borra|quitar|cancelar suscripción|cancelar la suscripción|cancelar pedido|cancelar el pedido|darse de baja|darme de baja|revocar|mover a la papelera|` +
		`excluir|exclua|apagar|remover|cancelar assinatura|cancelar a assinatura|cancelar inscrição|descadastrar|revogar|mover para a lixeira|` +
		`eliminare|cancella|rimuovi|verwijderen|verwijder|opzeggen|` +
		`删除|刪除|移除|删掉|撤回|清空回收站|取消订阅|取消訂閱|退订|退訂|注销|註銷|撤销|撤銷|吊销|取消订单|取消訂單|` +
		`削除|消去|解約|退会|配信停止|購読解除|取り消し|取消す|ゴミ箱に移動`,
	string(CatSend): `send|send now|send message|connect|send email|send invitation|send reply|send it|` +
		`senden|absenden|abschicken|jetzt senden|nachricht senden|verschicken|` +
		`envoyer|envoyer le message|` +
		`enviar|enviar mensaje|enviar correo|enviar mensagem|enviar e-mail|` +
		`invia|verstuur|versturen|` +
		`发送|發送|发出|寄出|送出|` +
		`送信|送信する|メッセージを送信`,
	string(CatPublish): `post|publish|publish*|tweet|toot|post reply|post comment|add comment|submit review|submit comment|comment now|go live|make it live|retweet|repost|` +
		`veröffentlichen|veröffentlich*|posten|kommentar abschicken|` +
		`publier|poster|publier le commentaire|` +
		`publicar|publica|` +
		`pubblica|plaatsen|publiceren|` +
		`发布|發佈|發布|发表|發表|发帖|發文|提交评论|` +
		`投稿|投稿する|公開する|公開|ツイート|ポスト`,
	string(CatPayment): `pay|pay now|make payment|submit payment|send payment|submit order|add funds|top up|place order|place your order|confirm order|confirm payment|confirm purchase|complete purchase|complete order|checkout|check out|proceed to checkout|transfer|transfer money|send money|wire|refund|issue refund|withdraw|tip|donate|authorize payment|` +
		`bezahlen|jetzt bezahlen|aufladen|bestellung absenden|zahlungspflichtig bestellen|kostenpflichtig bestellen|jetzt bestellen|bestellen|kaufen und bezahlen|überweisen|überweisung|zur kasse|rückerstattung|erstatten|spenden|auszahlen|` +
		`payer|commander|valider le paiement|procéder au paiement|envoyer la commande|recharger|commander et payer|passer la commande|valider la commande|virement|effectuer le virement|rembourser|remboursement|faire un don|retirer de l'argent|` +
		`pagar|pagar ahora|confirmar pago|realizar pago|enviar pedido|recargar|efetuar pagamento|recarregar|realizar pedido|realizar el pedido|confirmar pedido|tramitar pedido|finalizar compra|transferir|transferencia|reembolsar|reembolso|donar|retirar dinero|` +
		`finalizar pedido|fazer pedido|confirmar pagamento|transferência|doar|sacar|` +
		`paga|paga ora|betalen|afrekenen|` +
		`支付|付款|立即支付|充值|下单|立即下单|下單|提交订单|提交訂單|确认订单|確認訂單|结算|結帳|结账|转账|轉帳|汇款|匯款|退款|打赏|捐赠|捐款|提现|提現|` +
		`支払う|支払い|お支払い|チャージ|注文する|注文を確定|注文確定|購入手続き|レジに進む|振込|振り込む|送金|返金|寄付|出金`,
	string(CatPurchase): `buy|buy now|add to cart|to cart|to basket|to bag|to trolley|to my cart|to your cart|to shopping cart|add to basket|add to bag|add to trolley|purchase|subscribe|subscribe now|book|book now|reserve|bid|place bid|upgrade|start subscription|start trial|start free trial|change plan|rent|pre-order|preorder|` +
		`jetzt kaufen|kaufen|in den warenkorb|in den einkaufswagen|abonnieren|buchen|jetzt buchen|bieten|reservieren|` +
		`acheter|acheter maintenant|ajouter au panier|s'abonner|abonner|réserver|enchérir|` +
		`comprar|comprar ahora|añadir al carrito|añadir a la cesta|agregar al carrito|suscribirse|suscribirme|reservar|pujar|adicionar ao carrinho|adicionar à sacola|comprar agora|assinar|` +
		`acquista|aggiungi al carrello|kopen|in winkelwagen|` +
		`购买|購買|立即购买|立即購買|加入购物车|加入購物車|加入购物袋|订阅|訂閱|预订|預訂|出价|出價|` +
		`カートに入れる|カートに追加|今すぐ購入|購入|購読|予約する|予約|入札`,
	string(CatShare): `share with|make public|grant|change visibility|publish to web|grant access|give access|allow access|add collaborator|add member|add people|add user|add admin|make admin|make owner|transfer ownership|change role|invite members|send invite|` +
		`freigeben|zugriff gewähren|mitglied hinzufügen|zum administrator machen|eigentümer übertragen|` +
		`partager avec|donner accès|ajouter un membre|ajouter un collaborateur|rendre public|transférer la propriété|` +
		`compartir con|dar acceso|añadir miembro|agregar colaborador|hacer público|transferir propiedad|compartilhar com|dar acesso|adicionar membro|adicionar colaborador|tornar público|` +
		`共享给|分享给|授予访问权限|添加成员|添加协作者|設為管理員|设为管理员|转让所有权|設為公開|设为公开|` +
		`アクセスを許可|メンバーを追加|管理者にする|オーナー権限を譲渡|公開に設定`,
	string(CatAccount): `change password|update password|reset password|set password|save password|change email|update email|change email address|enable two-factor|disable two-factor|turn off two-factor|disable 2fa|enable 2fa|remove 2fa|generate new token|generate token|create token|new api key|create api key|generate api key|regenerate|sign out of all devices|sign out everywhere|log out of all sessions|authorize|authorize app|allow app|install|install app|rotate key|rotate|connect account|recovery codes|add passkey|remove passkey|` +
		`passwort ändern|kennwort ändern|passwort zurücksetzen|e-mail-adresse ändern|zwei-faktor|token generieren|überall abmelden|autorisieren|` +
		`changer le mot de passe|modifier le mot de passe|réinitialiser le mot de passe|changer l'adresse e-mail|générer un jeton|autoriser|déconnecter tous les appareils|` +
		`cambiar contraseña|cambiar la contraseña|restablecer contraseña|cambiar correo|generar token|autorizar|cerrar sesión en todos los dispositivos|alterar senha|redefinir senha|gerar token|alterar e-mail|` +
		`修改密码|修改密碼|更改密码|更改密碼|重置密码|生成令牌|生成新令牌|创建令牌|授权|授權|退出所有设备|绑定手机|` +
		`パスワードを変更|パスワード変更|パスワードをリセット|トークンを生成|新しいトークン|認証する|許可する|すべてのデバイスからログアウト|二段階認証`,
	string(CatSubmit): `sign up|register|create account|apply|apply now|submit application|rsvp|accept invitation|accept|decline|save draft|send for review|request|enroll|join|join now|create|confirm booking|vote|approve|reject|merge|merge pull request|archive|report|report spam|mark as spam|like|unlike|follow|unfollow|upvote|downvote|star|unstar|redeem|claim|deploy|run workflow|close issue|close pull request|` +
		`registrieren|konto erstellen|anmelden|bewerben|annehmen|ablehnen|erstellen|entwurf speichern|zusagen|` +
		`s'inscrire|inscription|créer un compte|postuler|accepter|refuser|créer|enregistrer le brouillon|` +
		`registrarse|regístrate|crear cuenta|aplicar|postularse|aceptar|rechazar|crear|guardar borrador|cadastrar|cadastre-se|criar conta|candidatar|aceitar|recusar|criar|` +
		`注册|註冊|报名|報名|申请|申請|接受|拒绝|拒絕|创建|建立|保存草稿|` +
		`登録|新規登録|申し込む|申し込み|応募|承認|作成|下書き保存`,
	clsGeneric: `save|save changes|submit|update|confirm|apply changes|send form|` +
		`speichern|änderungen speichern|bestätigen|einreichen|aktualisieren|übernehmen|` +
		`enregistrer|valider|soumettre|confirmer|mettre à jour|` +
		`guardar|guardar cambios|confirmar|salvar|enviar formulario|atualizar|actualizar|` +
		`salva|conferma|opslaan|bevestigen|` +
		`保存|提交|确认|確認|更新|` +
		`保存する|確定|決定`,
	clsConfirm: `ok|okay|yes|done|完成|完了|yes i m sure|i understand|i understand the consequences|i m sure|continue|proceed|got it|` +
		`ja|weiter|fortfahren|verstanden|` +
		`oui|continuer|d'accord|compris|` +
		`sí|si|vale|entendido|sim|` +
		`确定|好的|是的|继续|繼續|` +
		`はい|続行|続ける|了解`,
	clsStep: `next|next step|continue to|weiter zu|suivant|étape suivante|siguiente|próximo|avançar|avanti|volgende|下一步|次へ|次に進む`,
	clsView: `cancel|close|back|go back|go to cart|view cart|open cart|go to basket|view basket|view bag|warenkorb anzeigen|zum warenkorb|voir le panier|ver carrito|ir al carrito|ver carrinho|查看购物车|カートを見る|new message|compose|new|edit|write|accept all|accept cookies|accept all cookies|reject all|alle akzeptieren|alle ablehnen|tout accepter|tout refuser|aceptar todo|aceptar todas|rechazar todo|aceitar todos|rejeitar todos|全部接受|すべて受け入れる|すべて同意|dismiss|not now|later|skip|cancel and close|clear|clear all|clear filters|clear filter|reset filters|remove filter|remove filters|delete filter|remove search term|clear search|remove tag filter|search|filter|apply filters|apply filter|sort|show|show more|view|open|expand|collapse|more|more options|menu|previous|prev|next page|load more|undo|` +
		`abbrechen|schließen|zurück|filter entfernen|filter löschen|suche löschen|suchen|mehr anzeigen|` +
		`annuler|fermer|retour|effacer les filtres|supprimer le filtre|rechercher|afficher plus|` +
		`cancelar|cerrar|volver|atrás|borrar filtros|eliminar filtro|quitar filtro|buscar|fechar|voltar|limpar filtros|remover filtro|pesquisar|` +
		`annulla|chiudi|annuleren|sluiten|` +
		`取消|关闭|關閉|返回|清除筛选|清除篩選|搜索|搜尋|查看|下一页|下一頁|上一页|` +
		`キャンセル|閉じる|戻る|フィルタをクリア|フィルターを削除|検索|次のページ|もっと見る`,
	clsDeny:                  `no|no thanks|keep|keep it|keep subscription|don't|do not|nein|behalten|non|garder|no gracias|mantener|não|manter|否|不要|不用了|保留|いいえ|やめる`,
	"~" + string(CatPublish): `reply|comment|review|write a review|leave a review|answer|antworten|kommentieren|bewerten|répondre|commenter|responder|comentar|rispondi|回复|回覆|评论|評論|返信|コメント|レビュー`,
	"~" + string(CatShare):   `share|invite|invite people|teilen|einladen|partager|inviter|compartir|invitar|compartilhar|convidar|condividi|delen|分享|共享|邀请|邀請|共有|シェア|招待`,
	"~" + string(CatSend):    `message|send a message|forward|reply all|weiterleiten|transférer|reenviar|encaminhar|转发|轉寄|転送|nachricht|message privé|mensaje|mensagem|私信|メッセージ`,
}

// Checkbox and switch labels that grant or pay by being switched on.
var toggleLex = map[Category]string{
	CatShare: `make admin|admin|administrator|allow editing|can edit|make changes|make changes to events|make changes and manage sharing|public|make public|anyone with the link|everyone|allow access|share|grant|` +
		`bearbeiten erlauben|öffentlich|jeder mit dem link|administrator|` +
		`autoriser la modification|public|tout le monde|` +
		`permitir edición|público|cualquier persona|permitir edição|` +
		`允许编辑|公开|公開|管理员|管理員|任何人|` +
		`編集を許可|管理者|一般公開`,
	CatPayment: `auto-pay|autopay|automatic payments|auto-renew|auto renew|automatic renewal|recurring payment|` +
		`automatische zahlung|automatisch verlängern|paiement automatique|renouvellement automatique|pago automático|renovación automática|pagamento automático|renovação automática|` +
		`自动付款|自动续费|自動續費|自動支払い|自動更新`,
	CatAccount: `two-factor|2fa|two-step|passkey|zwei-faktor|double authentification|dos factores|dois fatores|双重验证|两步验证|二段階認証|二要素認証`,
}

// A link whose path or query names one of these performs it on a GET.
// "trash" and "cancel" also name folders and pages ("/trash"), so they
// count only in the query ("?action=trash").
var (
	hrefDelete      = []string{"delete", "remove", "destroy", "unsubscribe", "erase", "revoke", "purge"}
	hrefQueryDelete = []string{"trash", "cancel"}
)

// Field keys, matched in a field's name (split at "_", "-" and camelCase)
// and label.
var (
	keyRecipient = keys(`recipient|recipients|invitee|invitees|collaborator|username|user name|member|add people|emails|payee|beneficiary|empfänger|begünstigter|destinataire|destinataires|bénéficiaire|destinatario|destinatarios|beneficiario|destinatário|favorecido|收件人|收件者|收款人|宛先|送信先|受取人`)
	keyBody      = keys(`body|message|msg|content|text|comment|reply|post|review|note|nachricht|kommentar|inhalt|corps|commentaire|mensaje|comentario|cuerpo|mensagem|comentário|正文|内容|內容|消息|评论|評論|留言|本文|メッセージ|コメント`)
	keyPublic    = keys(`comment|reply|post|review|status|tweet|kommentar|commentaire|comentario|comentário|评论|評論|回复|コメント|返信|投稿|レビュー`)
	keyAmount    = keys(`amount|sum|betrag|summe|montant|importe|monto|valor|quantia|金额|金額|振込金額`)
	keyAccount   = keys(`iban|account number|account no|acct|accountnumber|account|bic|swift|routing|sort code|konto|kontonummer|compte|cuenta|conta|账户|帐户|賬戶|账号|口座`)
	keyCard      = keys(`card number|cardnumber|cc number|cc-number|ccnumber|kartennummer|numéro de carte|número de tarjeta|número do cartão|卡号|卡號|カード番号`)
	keyPassword  = keys(`password|passwort|kennwort|mot de passe|contraseña|senha|密码|密碼|パスワード`)
	keyNew       = keys(`new|neu|neues|nouveau|nuevo|nueva|novo|nova|confirm|repeat|wiederholen|新|确认|確認`)
	keyRole      = keys(`role|permission|permissions|access|rolle|berechtigung|rôle|rol|permiso|papel|permissão|função|角色|权限|權限|権限|ロール`)
	keySearch    = keys(`q|s|k|query|search|keyword|keywords|term|find|filter|sort|order by|orderby|page|lang|category|suche|recherche|buscar|busca|búsqueda|pesquisa|搜索|搜尋|検索|キーワード`)
)

// Address rows named by a short word ("To", "An", "Para") only when the
// word is the whole name or label: "Enter an amount" is no address row.
var recipientRows = map[string]bool{"to": true, "cc": true, "bcc": true, "an": true, "para": true, "a": true, "kopie": true}

// Role values that a grant would give.
var roleLex = keys(`admin|administrator|owner|editor|maintainer|moderator|manager|member|writer|commenter|viewer|reader|can edit|can view|can comment|full access|make changes to events|make changes and manage sharing|` +
	`administrator|besitzer|eigentümer|bearbeiter|mitglied|administrateur|propriétaire|éditeur|membre|administrador|propietario|editor|miembro|proprietário|membro|` +
	`管理员|管理員|所有者|编辑者|編輯者|成员|成員|可编辑|可編輯|查看者|管理者|オーナー|編集者|閲覧者|メンバー|編集可能`)

// Auxiliary words for Requested.
var (
	// Words that, just before a request verb, negate it.
	negBefore = map[string]bool{"not": true, "never": true, "don": true, "dont": true, "doesn": true, "didn": true, "won": true, "shouldn": true, "without": true, "nicht": true, "kein": true, "keine": true, "keinen": true, "nie": true, "niemals": true, "ohne": true, "ne": true, "n": true, "jamais": true, "sans": true, "no": true, "nunca": true, "sin": true, "nao": true, "sem": true, "non": true, "niet": true, "geen": true, "mai": true, "senza": true}
	// Words that, just after one, negate it ("lösche es nicht", "supprime pas").
	negAfter = map[string]bool{"nicht": true, "pas": true, "niet": true, "not": true, "kein": true, "keine": true, "keinen": true, "nichts": true, "nothing": true, "rien": true, "nada": true}
	// CJK negations before a verb (不要删除, 请勿删除, 别发) and Japanese
	// ones after the stem (削除しないで).
	cjkNegBefore = []string{"不", "别", "別", "勿", "没", "沒", "莫", "禁止", "已", "被"}
	cjkNegAfter  = []string{"ないで", "しないで", "しない", "せず", "するな", "な", "はいけ", "はだめ", "ちゃだめ", "禁止"}
	// CJK words after which a noun-like verb is in verb position (帮我买).
	cjkMarker = []string{"请", "請", "帮我", "幫我", "帮", "幫", "替我", "给我", "給我", "去", "再", "然后", "然後", "并", "並"}
	// Words that put the next word in verb position: a request marker.
	reqMarker = map[string]bool{"please": true, "pls": true, "plz": true, "kindly": true, "you": true, "to": true, "and": true, "then": true, "also": true, "just": true, "now": true, "me": true, "bitte": true, "du": true, "sie": true, "und": true, "dann": true, "tu": true, "vous": true, "et": true, "puis": true, "puedes": true, "favor": true, "y": true, "luego": true, "pode": true, "podes": true, "voce": true, "e": true, "depois": true, "quero": true, "quiero": true, "puoi": true, "je": true}
	// Markers that rule out a request: "how to delete" asks for knowledge.
	reqQuestion = map[string]bool{"how": true, "whether": true, "why": true, "which": true, "what": true, "should": true, "if": true, "welche": true, "was": true, "ob": true, "quel": true, "quelle": true, "si": true, "que": true, "qual": true, "cual": true, "wie": true, "comment": true, "como": true, "cómo": true}
)

// Requested lexicon. Entries marked with a leading "~" are also nouns
// ("the post", "my order") and count only in verb position.
var requestLex = map[string]string{
	string(CatDelete):   `delete|delete*|remove|erase|~trash|get rid of|~cancel|unsubscribe|revoke|close my account|deactivate|lösche|löschen|lösch|entferne|entfernen|kündige|kündigen|abbestellen|widerrufe|storniere|stornieren|supprime|supprimer|supprimez|efface|effacer|~retire|retirer|annule|annuler|résilie|résilier|désabonne|borra|borrar|borre|elimina|eliminar|elimine|quita|quitar|cancela|cancelar|cancele|darme de baja|apague|apagar|apaga|exclua|excluir|exclui|remova|remover|cancela|elimina|cancella|rimuovi|verwijder|删除|删掉|刪除|移除|删了|取消订阅|取消訂閱|退订|注销|註銷|撤销|削除して|削除する|削除を|消して|消去して|解約して|退会して|配信停止`,
	string(CatSend):     `send|~email|~reply|~reply to|answer the email|answer the message|forward|~message|~text|~dm|sende|senden|schicke|schick|schicken|antworte|beantworte|leite|weiterleiten|envoie|envoyer|envoyez|réponds|répondre|répondez|transfère|envía|envia|enviar|envíe|manda|mandar|responde|responder|reenvía|~envie|mande|responda|encaminhe|invia|manda|rispondi|stuur|verstuur|发送|發送|发给|發給|发邮件|發郵件|~回复|~回覆|转发|轉發|寄给|送って|送信して|送信する|返信して|メールして|転送して`,
	string(CatPublish):  `~post|publish|~comment|~comment on|leave a comment|~review|write a review|leave a review|tweet|~reply|veröffentliche|veröffentlichen|~poste|posten|kommentiere|kommentieren|bewerte|publie|publier|~poste|poster|commente|commenter|publica|publicar|comenta|comentar|publique|comente|pubblica|publiceer|~发布|~發佈|发表|發表|发帖|發帖|评论一下|写评论|寫評論|~留言|投稿して|投稿する|コメントして|公開して|レビューを書いて|ツイートして|返信して`,
	string(CatPayment):  `~pay|~transfer|~wire|fais un virement|faire un virement|send money|~checkout|~refund|~tip|donate|withdraw|complete the purchase|bezahle|bezahlen|zahle|zahlen|überweise|überweisen|erstatte|spende|paie|payer|paye|payez|vire|virer|rembourse|rembourser|faire un don|~paga|pagar|pague|transfiere|transferir|transfira|reembolsa|reembolsar|reembolse|dona|donar|doar|betaal|~支付|~付款|付钱|付錢|~转账|~轉帳|汇款|匯款|~退款|捐款|支払って|払って|振り込んで|振込して|送金して|返金して|寄付して`,
	string(CatPurchase): `+buy|+~order|+~purchase|+place the order|+place an order|add to cart|to my cart|to the cart|to cart|to my basket|to the basket|add to bag|au panier|al carrito|a la cesta|ao carrinho|subscribe|~book|~bid|+kaufe|+kaufen|+kauf|+bestelle|+bestellen|in den warenkorb|abonniere|abonnieren|buche|buchen|+achète|+acheter|+achetez|+~commande|+commander|ajoute au panier|ajouter au panier|abonne|~réserve|réserver|+~compra|+comprar|+compre|+pide|+pedir|añade al carrito|añadir al carrito|agrega al carrito|añade a la cesta|adicione ao carrinho|adicionar ao carrinho|suscríbete|suscribir|~reserva|reservar|assine|assinar|+acquista|+ordina|+koop|+kopen|+bestel|+购买|+購買|+~买|+~買|+下单|+下單|+订购|+訂購|加入购物车|加入購物車|~订阅|~訂閱|~预订|~預訂|+買って|+購入して|+注文して|カートに入れて|カートに追加して|予約して|購読して`,
	string(CatShare):    `~share|~share with|~invite|give access|grant access|add as collaborator|add collaborator|as admin|as an admin|as owner|as an owner|as a collaborator|as collaborator|as editor|as an editor|make public|teile|teilen|lade|einladen|freigeben|gib|~partage|partager|~invite|inviter|comparte|compartir|invita|invitar|compartilhe|compartilhar|convide|convidar|condividi|invita|deel|delen|~分享|~共享|邀请|邀請|共有して|シェアして|招待して`,
	string(CatAccount):  `change my password|change the password|change password|reset my password|reset password|update my password|change my email|enable 2fa|disable 2fa|enable two-factor|generate a token|generate a new token|create an api key|sign out of all devices|passwort ändern|ändere mein passwort|ändere das passwort|setze mein passwort zurück|change mon mot de passe|changer mon mot de passe|modifie mon mot de passe|cambia mi contraseña|cambiar mi contraseña|cambia la contraseña|altere minha senha|alterar minha senha|mude minha senha|redefina minha senha|修改密码|修改密碼|更改密码|更改密碼|重置密码|パスワードを変更して|パスワードを変えて|パスワードをリセットして`,
	string(CatDownload): `~download|download all|save the file|save the files|save it to my computer|herunterladen|runterladen|speichere die datei|télécharge|télécharger|téléchargez|enregistre le fichier|descarga|descargar|descargue|baixe|baixar|scarica|scaricare|下载|下載|ダウンロードして|ダウンロードする`,
	string(CatUpload):   `~upload|~attach|attach the file|hochladen|lade hoch|anhängen|hänge|téléverse|téléverser|joins le fichier|joindre|sube|subir|adjunta|adjuntar|carregue|carregar|anexe|anexar|carica|caricare|allega|上传|上傳|附上|アップロードして|添付して`,
	string(CatSubmit):   `submit|fill in and submit|fill out and submit|sign up|~register|~apply|rsvp|~book|~save|confirm|schicke das formular ab|absenden|einreichen|registriere|registrieren|speichere|speichern|bewirb|soumets|soumettre|inscris|inscrire|enregistre|enregistrer|postule|envía el formulario|regístrate|registrar|guarda|guardar|envie o formulário|cadastre|cadastrar|salve|salvar|提交|注册|註冊|报名|報名|保存一下|登録して|申し込んで|応募して|保存して|提出して`,
}

// keySet holds folded field keys. A Latin key matches whole words, also
// with a plural "s" or a number after it ("comments", "password2") but not
// inside another word ("postcode" is no post); a CJK key is a substring.
// The keys are folded on first use, not at start-up: a worker woken for a
// message that runs no page action never needs them.
type keySet struct{ *lazyKeys }

type lazyKeys struct {
	list       string
	once       sync.Once
	latin, cjk []string
}

func keys(list string) keySet { return keySet{&lazyKeys{list: list}} }

func (k *lazyKeys) folded() *lazyKeys {
	k.once.Do(k.fold)
	return k
}

func (k *lazyKeys) fold() {
	for _, w := range strings.Split(k.list, "|") {
		f := strings.TrimSpace(fold(w))
		switch {
		case f == "":
		case hasCJK(f):
			k.cjk = append(k.cjk, f)
		default:
			k.latin = append(k.latin, f)
		}
	}
}

// in reports whether folded text t (space-padded) holds one of the keys.
func (k keySet) in(t string) bool { return k.find(t) != "" }

func (ks keySet) find(t string) string {
	k := ks.folded()
	for _, w := range k.latin {
		for from := 0; ; {
			j := strings.Index(t[from:], " "+w)
			if j < 0 {
				break
			}
			end := from + j + 1 + len(w)
			rest := t[end:]
			if n := strings.IndexByte(rest, ' '); n >= 0 {
				rest = rest[:n]
			}
			if rest == "" || rest == "s" || allDigits(rest) {
				return w
			}
			from = end
		}
	}
	for _, s := range k.cjk {
		if strings.Contains(t, s) {
			return s
		}
	}
	return ""
}

// entry is one folded lexicon phrase.
type entry struct {
	p      string // folded phrase, no "*"
	prefix bool   // the last word may continue
	cjk    bool   // substring match
	noun   bool   // Requested: counts only in verb position
	pay    bool   // Requested: a purchase that also pays ("buy", not "add to cart")
	weak   bool   // caption: a category only in a commit context ("Reply")
	cls    string // category or class
}

// lexicon indexes entries so a scan looks only at phrases whose first
// word the text holds: the tables are long and Classify runs per click.
type lexicon struct {
	byWord map[string][]*entry // Latin, by first word
	prefix []*entry            // one-word Latin prefixes ("lösch*")
	cjk    []*entry            // substrings
}

func compile(m map[string]string) *lexicon {
	lx := &lexicon{byWord: map[string][]*entry{}}
	for cls, list := range m {
		weak := strings.HasPrefix(cls, "~")
		cls = strings.TrimPrefix(cls, "~")
		for _, w := range strings.Split(list, "|") {
			e := &entry{cls: cls, weak: weak}
			if strings.HasPrefix(w, "+") {
				e.pay, w = true, w[1:]
			}
			if strings.HasPrefix(w, "~") {
				e.noun, w = true, w[1:]
			}
			if strings.HasSuffix(w, "*") {
				e.prefix, w = true, strings.TrimSuffix(w, "*")
			}
			e.p = strings.TrimSpace(fold(w))
			switch first, _, multi := strings.Cut(e.p, " "); {
			case e.p == "":
			case hasCJK(e.p):
				e.cjk = true
				lx.cjk = append(lx.cjk, e)
			case e.prefix && !multi:
				lx.prefix = append(lx.prefix, e)
			default:
				lx.byWord[first] = append(lx.byWord[first], e)
			}
		}
	}
	return lx
}

// The lexicons are compiled on first use, like the keys.
var (
	captionEntries = sync.OnceValue(func() *lexicon { return compile(captionLex) })
	requestEntries = sync.OnceValue(func() *lexicon { return compile(requestLex) })
	toggleEntries  = sync.OnceValue(func() *lexicon {
		m := map[string]string{}
		for c, l := range toggleLex {
			m[string(c)] = l
		}
		return compile(m)
	})
)

// match is one occurrence of an entry in folded text.
type match struct {
	pos, end int
	e        *entry
}

// scan returns every occurrence of the lexicon's phrases in folded,
// space-padded t.
func scan(t string, lx *lexicon) []match {
	var ms []match
	for p := 1; p < len(t); p++ {
		if t[p-1] != ' ' || t[p] == ' ' {
			continue
		}
		q := p + strings.IndexByte(t[p:], ' ')
		if q < p {
			q = len(t)
		}
		for _, e := range lx.byWord[t[p:q]] {
			if !strings.HasPrefix(t[p:], e.p) {
				continue
			}
			end := p + len(e.p)
			switch {
			case e.prefix:
				for end < len(t) && t[end] != ' ' {
					end++
				}
			case end < len(t) && t[end] != ' ':
				continue
			}
			ms = append(ms, match{p, end, e})
		}
		for _, e := range lx.prefix {
			if strings.HasPrefix(t[p:q], e.p) {
				ms = append(ms, match{p, q, e})
			}
		}
	}
	if !hasCJK(t) {
		return ms
	}
	for _, e := range lx.cjk {
		for from := 0; ; {
			j := strings.Index(t[from:], e.p)
			if j < 0 {
				break
			}
			ms = append(ms, match{from + j, from + j + len(e.p), e})
			from += j + 1
		}
	}
	return ms
}

// fold lowercases s, strips Latin diacritics, maps fullwidth forms to
// ASCII and turns every other non-letter into one space; clause
// punctuation becomes "|" so phrases never join across it. The result is
// space-padded: " delete this repository ".
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	space, cjk := true, false
	put := func(r rune) {
		if cjk && !space {
			b.WriteByte(' ') // a Latin word after CJK stays a word
		}
		b.WriteRune(r)
		space, cjk = false, false
	}
	sep := func(c byte) {
		cjk = false
		if c == '|' {
			if !space {
				b.WriteByte(' ')
			}
			b.WriteString("| ")
			space = true
			return
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	for _, r := range s {
		if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
			r -= 0xFEE0
		}
		switch {
		case r < 0x80:
			switch {
			case r >= 'A' && r <= 'Z':
				put(r + 32)
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
				put(r)
			case r == '.' || r == ',' || r == ';' || r == ':' || r == '!' || r == '?' || r == '\n' || r == '|':
				sep('|')
			default:
				sep(' ')
			}
		case r == 'ß':
			put('s')
			put('s')
		case r == 'æ' || r == 'Æ':
			put('a')
			put('e')
		case r == 'œ' || r == 'Œ':
			put('o')
			put('e')
		case r >= 0xC0 && r <= 0x24F:
			if a := deaccent(unicode.ToLower(r)); a != 0 {
				put(a)
			} else {
				put(unicode.ToLower(r))
			}
		case r == '。' || r == '，' || r == '；' || r == '！' || r == '？' || r == '、' || r == '：':
			sep('|')
		case isCJK(r):
			// CJK has no spaces: keep it glued, but apart from Latin words.
			if !space && !cjk {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space, cjk = false, true
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			put(unicode.ToLower(r))
		default:
			sep(' ')
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

func isCJK(r rune) bool {
	return r >= 0x2E80 && r <= 0x9FFF || r >= 0xF900 && r <= 0xFAFF || r >= 0x3000 && r <= 0x30FF || r >= 0xFF66 && r <= 0xFF9F || r >= 0xAC00 && r <= 0xD7AF
}

func hasCJK(s string) bool {
	for _, r := range s {
		if isCJK(r) {
			return true
		}
	}
	return false
}

// deaccent maps a lowercase Latin-1/Latin Extended-A letter to its base
// letter, 0 when it has none here.
func deaccent(r rune) rune {
	switch {
	case strings.ContainsRune("àáâãäåāăą", r):
		return 'a'
	case strings.ContainsRune("çćĉċč", r):
		return 'c'
	case strings.ContainsRune("ďđ", r):
		return 'd'
	case strings.ContainsRune("èéêëēĕėęě", r):
		return 'e'
	case strings.ContainsRune("ĝğġģ", r):
		return 'g'
	case strings.ContainsRune("ìíîïĩīĭįı", r):
		return 'i'
	case strings.ContainsRune("ñńņňł", r):
		if r == 'ł' {
			return 'l'
		}
		return 'n'
	case strings.ContainsRune("òóôõöøōŏő", r):
		return 'o'
	case strings.ContainsRune("śŝşš", r):
		return 's'
	case strings.ContainsRune("ţťŧ", r):
		return 't'
	case strings.ContainsRune("ùúûüũūŭůűų", r):
		return 'u'
	case strings.ContainsRune("ýÿ", r):
		return 'y'
	case strings.ContainsRune("źżž", r):
		return 'z'
	}
	return 0
}
