// The two cards that wait for the user: the model's clarify question and
// WebBrain's own approval card (the `approval` event, docs/PROTOCOL.md).
// They must never be mistaken for each other: the clarify card is labelled
// as the assistant's question, the approval card carries WebBrain's icon and
// buttons that Markdown from the model cannot produce.
import { el } from "../common/dom.js";
import { CATEGORY, DECISION, RESOLVED } from "../common/protocol.js";
import { N_, locale, t, tmsg } from "../common/i18n.js";

const DETAIL_MAX = 160; // characters of a detail value shown; the title holds all

// A question asking for one of these (in English, German, French, Spanish,
// Portuguese, Chinese or Japanese) gets a warning: WebBrain never needs a
// secret typed into the chat, so the model was probably misled by the page.
// biome-ignore format: a table, packed as written
const SECRET_WORDS = new RegExp([
  // English
  "pass ?words?", "passcodes?", "passphrases?", "one[- ]time (?:pass)?codes?", "verification codes?",
  "security codes?", "(?:credit|debit|bank) ?card", "card numbers?", "api[- ]?keys?", "secret keys?",
  "access tokens?", "private keys?", "seed phrases?",
  // German
  "passwort", "kennwort", "einmal(?:code|passwort)", "bestätigungscode", "sicherheitscode",
  "kartennummer", "kreditkarte", "api-schlüssel", "zugangsschlüssel",
  // French
  "mot de passe", "code (?:à usage unique|de vérification|de sécurité)", "numéro de (?:la )?carte",
  "carte (?:bancaire|de crédit)", "clés? (?:d'|de l')?api", "cryptogramme",
  // Spanish
  "contraseñas?", "código (?:de un solo uso|de verificación|de seguridad)", "número de (?:la )?tarjeta",
  "tarjeta de (?:crédito|débito)", "claves? (?:de )?api", "clave de acceso",
  // Portuguese
  "senhas?", "código (?:de uso único|de verificação)", "número do cartão", "cartão de (?:crédito|débito)",
  "chaves? (?:de )?api",
  // Chinese
  "密码", "验证码", "校验码", "动态码", "卡号", "信用卡", "银行卡", "密钥", "口令",
  // Japanese
  "パスワード", "暗証番号", "ワンタイム", "認証コード", "確認コード", "セキュリティコード", "カード番号",
  "クレジットカード", "apiキー", "シークレット",
].join("|"), "iu");
// Short words only count as whole words ("pin", not "spinning").
const SECRET_SHORT = /(?<![\p{L}\p{N}])(?:pin|otp|2fa|mfa|cvv|cvc|cvv2|totp)(?![\p{L}\p{N}])/iu;

// asksForSecret reports whether a clarify question (or its options) asks
// for a password, one-time code, card number or API key.
export function asksForSecret(text, options = []) {
  const all = [text, ...options].join("\n");
  return SECRET_WORDS.test(all) || SECRET_SHORT.test(all);
}

export function renderClarify(item, answer) {
  const answered = item.answer !== undefined || Boolean(item.expired);
  const card = el(
    "div",
    { className: "clarify-card", role: "group", "aria-label": t("clarify_label") },
    el("p", { className: "clarify-from", text: t("clarify_from") }),
    el("p", { className: "clarify-question", text: tmsg(item.msg, item.text) }),
  );
  if (asksForSecret(item.text, item.options)) {
    card.append(
      el(
        "p",
        { className: "clarify-secret-warning", role: "note" },
        el("strong", { text: `${t("clarify_careful")} ` }),
        t("clarify_secret_warning"),
      ),
    );
  }
  const options = el("div", { className: "clarify-options" });
  // An option WebBrain worded shows in the interface language; the answer
  // sent is the option as the background gave it.
  const shown = (option) => {
    const i = (item.options ?? []).indexOf(option);
    return i < 0 ? option : tmsg(item.optionMsgs?.[i], option);
  };
  for (const option of item.options ?? []) {
    const button = el("button", { type: "button", className: "clarify-option", text: shown(option), disabled: answered });
    button.addEventListener("click", () => answer(option));
    options.append(button);
  }
  // Never type=password: the chat is not a place for secrets, and a masked
  // field would make the question look like a login prompt.
  const input = el("input", {
    type: "text",
    className: "clarify-input",
    "aria-label": t("clarify_input_label"),
    autocomplete: "off",
    disabled: answered,
  });
  const form = el(
    "form",
    { className: "clarify-free" },
    input,
    el("button", { type: "submit", className: "clarify-submit", text: t("clarify_answer"), disabled: answered }),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) answer(input.value.trim());
  });
  card.append(options, form);
  if (item.answer !== undefined)
    card.append(el("p", { className: "clarify-answer", text: t("clarify_you_answered", { answer: shown(item.answer) }) }));
  return card;
}

const CATEGORY_LABEL = {
  [CATEGORY.SEND]: N_("category_send"),
  [CATEGORY.PUBLISH]: N_("category_publish"),
  [CATEGORY.DELETE]: N_("category_delete"),
  [CATEGORY.PAYMENT]: N_("category_payment"),
  [CATEGORY.PURCHASE]: N_("category_purchase"),
  [CATEGORY.SHARE]: N_("category_share"),
  [CATEGORY.ACCOUNT]: N_("category_account"),
  [CATEGORY.SUBMIT]: N_("category_submit"),
  [CATEGORY.TYPE_DATA]: N_("category_type_data"),
  [CATEGORY.NAVIGATE]: N_("category_navigate"),
  [CATEGORY.FETCH]: N_("category_fetch"),
  [CATEGORY.SCHEDULE]: N_("category_schedule"),
  [CATEGORY.RESEARCH]: N_("category_research"),
  [CATEGORY.DOWNLOAD]: N_("category_download"),
  [CATEGORY.UPLOAD]: N_("category_upload"),
  [CATEGORY.CAPTCHA]: N_("category_captcha"),
  [CATEGORY.WEBMCP]: N_("category_webmcp"),
};

// approvalOutcome is the card's final line for an approval_resolved event.
export function approvalOutcome(item) {
  if (item.reason === RESOLVED.TIMEOUT) return t("approval_timed_out");
  if (item.reason === RESOLVED.STOPPED) return t("approval_cancelled");
  if (item.decision === DECISION.APPROVE) return t("approval_approved");
  if (item.decision === DECISION.APPROVE_SITE)
    return t("approval_approved_site", { site: item.approval?.site || t("approval_this_site") });
  return t("approval_declined");
}

function choiceLabel(choice, site) {
  if (choice === DECISION.APPROVE) return t("approval_approve");
  if (choice === DECISION.APPROVE_SITE) return t("approval_approve_site", { site: site || t("approval_this_site") });
  return t("approval_decline");
}

// renderApproval draws the card of an `approval` event. item holds the
// event plus what happened since: answered (the decision sent), decision and
// reason (approval_resolved), expired (the run ended without a resolution).
export function renderApproval(item, answer) {
  const a = item.approval ?? {};
  const resolved = item.decision !== undefined;
  const closed = resolved || item.answered !== undefined || Boolean(item.expired) || pastExpiry(a.expiresAt);
  const titleId = `approval-${cssId(item.requestId)}-${cssId(item.id)}`;
  const card = el("section", {
    className: ["approval-card", resolved ? `resolved ${item.decision}` : "pending"].join(" "),
    role: "group",
    "aria-labelledby": titleId,
    "data-approval-id": item.id,
    tabindex: "-1",
  });
  card.append(
    el(
      "header",
      { className: "approval-head" },
      el("img", { src: "/icons/icon-32.png", alt: "", width: 16, height: 16 }),
      el("span", { className: "approval-from", text: t("approval_from") }),
      a.category &&
        el("span", {
          className: "approval-category",
          text: CATEGORY_LABEL[a.category] ? t(CATEGORY_LABEL[a.category]) : a.category,
        }),
    ),
    el("p", { className: "approval-text", id: titleId, text: tmsg(item.msg, item.text) }),
  );
  const rows = el("dl", { className: "approval-details" });
  if (a.site) rows.append(el("dt", { text: t("approval_site") }), detailValue(a.site));
  // Labels are WebBrain's words; values are data (a recipient, an address,
  // the page's caption) shown as they are, unless WebBrain worded them too.
  for (const d of Array.isArray(a.details) ? a.details : []) {
    const value = String(d?.value ?? "");
    rows.append(
      el("dt", { text: tmsg(d?.labelMsg, String(d?.label ?? "")) }),
      detailValue(d?.valueMsg ? tmsg(d.valueMsg, value) : value),
    );
  }
  card.append(rows);
  const reasons = Array.isArray(a.reasons) ? a.reasons : [];
  if (reasons.length) {
    card.append(
      el(
        "ul",
        { className: "approval-reasons", "aria-label": t("approval_why") },
        reasons.map((r, i) => el("li", { text: tmsg(a.reasonMsgs?.[i], String(r)) })),
      ),
    );
  }
  if (resolved) {
    card.append(el("p", { className: "approval-outcome", role: "status", text: approvalOutcome(item) }));
    return card;
  }
  const choices =
    Array.isArray(a.choices) && a.choices.length ? a.choices : [DECISION.APPROVE, DECISION.APPROVE_SITE, DECISION.DECLINE];
  const buttons = el("div", { className: "approval-buttons" });
  for (const choice of choices) {
    const button = el("button", {
      type: "button",
      className: `approval-${choice.replace("_", "-")}`,
      "data-decision": choice,
      text: choiceLabel(choice, a.site),
      disabled: closed,
    });
    button.addEventListener("click", () => answer(choice));
    buttons.append(button);
  }
  card.append(buttons);
  if (item.answered !== undefined) {
    card.append(
      el("p", {
        className: "approval-outcome",
        role: "status",
        text: t("approval_you_chose", { choice: choiceLabel(item.answered, a.site) }),
      }),
    );
  } else if (item.expired) {
    card.append(el("p", { className: "approval-outcome", text: t("card_run_ended") }));
  } else if (Number.isFinite(a.expiresAt)) {
    card.append(countdown(a.expiresAt, "declined"));
  }
  return card;
}

// countdown is a card's line "Declined automatically at 12:05 (1:59
// left).", kept up to date each second; what is "declined" or "approved".
// At the end it disables the card's buttons (the background resolves the
// card and says so).
export function countdown(expiresAt, what) {
  const node = el("p", { className: "approval-countdown", "data-expires-at": String(expiresAt), "data-what": what });
  updateCountdown(node);
  startCountdowns();
  return node;
}

function detailValue(value) {
  const clipped = value.length > DETAIL_MAX ? `${value.slice(0, DETAIL_MAX - 1)}…` : value;
  return el("dd", { text: clipped, title: clipped === value ? undefined : value });
}

function pastExpiry(expiresAt) {
  return Number.isFinite(expiresAt) && Date.now() >= expiresAt;
}

function cssId(s) {
  return String(s ?? "").replace(/[^A-Za-z0-9_-]/g, "_");
}

// One clock for every pending card: each second it rewrites their
// countdowns and, past the expiry, disables their buttons (the background
// declines the card and says so with approval_resolved).
let ticking = 0;
function startCountdowns() {
  ticking ||= setInterval(() => {
    const all = document.querySelectorAll(".approval-countdown[data-expires-at]");
    for (const node of all) updateCountdown(node);
    if (!all.length) {
      clearInterval(ticking);
      ticking = 0;
    }
  }, 1000);
}

function updateCountdown(node) {
  const at = Number(node.dataset.expiresAt);
  const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
  const clock = new Date(at).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" });
  const approved = node.dataset.what === "approved";
  if (left === 0) {
    node.textContent = approved ? t("countdown_up_approved") : t("countdown_up_declined");
    for (const b of node.closest(".approval-card")?.querySelectorAll("button") ?? []) b.disabled = true;
    return;
  }
  const mm = Math.floor(left / 60);
  const ss = String(left % 60).padStart(2, "0");
  const subs = { clock, left: `${mm}:${ss}` };
  node.textContent = approved ? t("countdown_approved", subs) : t("countdown_declined", subs);
}
